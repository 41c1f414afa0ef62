//! `mangekyo noise`: a picture of any noise, so people can see what a
//! setting does.

use mangekyo_core::Seed;
use mangekyo_core::noise::{
    CellularReturn, Fractal, Grid2, Grid3, Kernel, LatticeHash, Noise, NoiseParams, Warp,
};
use std::path::PathBuf;

/// Which lattice noise to draw.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(crate) enum KindArg {
    /// Value noise.
    Value,
    /// Gradient (Perlin) noise.
    Perlin,
    /// Simplex noise.
    Simplex,
    /// Cellular distance to the nearest point (F1).
    CellularF1,
    /// Cellular distance to the second nearest point (F2).
    CellularF2,
    /// Cellular cell borders (F2 − F1).
    CellularEdges,
}

/// How octaves combine.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(crate) enum FractalArg {
    /// A single octave.
    None,
    /// Fractional Brownian motion.
    Fbm,
    /// Ridged multifractal.
    Ridged,
    /// Billow.
    Billow,
}

/// Which lattice hash (the noise version's; `NoiseParams::hash`).
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(crate) enum HashArg {
    /// Hash 1: every released generator version uses it.
    Hash1,
    /// Hash 2 (noise version 2): the next planet version's.
    Hash2,
}

/// Flags of `mangekyo noise`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The lattice noise.
    #[arg(long, value_enum, default_value = "perlin")]
    kind: KindArg,
    /// How octaves combine.
    #[arg(long, value_enum, default_value = "fbm")]
    fractal: FractalArg,
    /// Octaves (1..=24).
    #[arg(long, default_value_t = 5)]
    octaves: u32,
    /// Lattice cells per pixel at the first octave.
    #[arg(long, default_value_t = 1.0 / 128.0)]
    frequency: f64,
    /// Frequency ratio between octaves.
    #[arg(long, default_value_t = 2.0)]
    lacunarity: f64,
    /// Amplitude ratio between octaves.
    #[arg(long, default_value_t = 0.5)]
    gain: f32,
    /// The lattice hash.
    #[arg(long, value_enum, default_value = "hash1")]
    hash: HashArg,
    /// Seed: a number, or any text.
    #[arg(long, default_value = "0")]
    seed: String,
    /// Domain-warp amplitude in pixels (0: no warp).
    #[arg(long, default_value_t = 0.0)]
    warp: f64,
    /// Sample a horizontal slice of the 3D noise at this z instead of 2D noise.
    #[arg(long)]
    z: Option<f64>,
    /// Pixel offset of the image's top-left corner.
    #[arg(long, num_args = 2, value_names = ["X", "Y"], default_values_t = [0.0, 0.0])]
    origin: Vec<f64>,
    /// Image width and height in pixels.
    #[arg(long, default_value_t = 512)]
    size: u32,
    /// Where to write the PNG.
    #[arg(short, long, default_value = "noise.png")]
    output: PathBuf,
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    anyhow::ensure!(
        (1..=8192).contains(&args.size),
        "--size must be in 1..=8192, got {}",
        args.size
    );
    // NaN or an infinity would draw a flat, meaningless picture and exit 0.
    let mut coordinates = vec![
        ("--origin X", args.origin[0]),
        ("--origin Y", args.origin[1]),
        ("--warp", args.warp),
    ];
    coordinates.extend(args.z.map(|z| ("--z", z)));
    for (name, value) in coordinates {
        anyhow::ensure!(
            value.is_finite(),
            "{name} must be a finite number, got {value}"
        );
    }
    let kernel = match args.kind {
        KindArg::Value => Kernel::Value,
        KindArg::Perlin => Kernel::Perlin,
        KindArg::Simplex => Kernel::Simplex,
        KindArg::CellularF1 => Kernel::Cellular(CellularReturn::F1),
        KindArg::CellularF2 => Kernel::Cellular(CellularReturn::F2),
        KindArg::CellularEdges => Kernel::Cellular(CellularReturn::F2MinusF1),
    };
    let fractal = match args.fractal {
        FractalArg::None => Fractal::None,
        FractalArg::Fbm => Fractal::Fbm,
        FractalArg::Ridged => Fractal::Ridged,
        FractalArg::Billow => Fractal::Billow,
    };
    let warp = (args.warp > 0.0).then_some(Warp {
        amplitude: args.warp,
        frequency: args.frequency,
        octaves: 3,
    });
    let noise = Noise::new(NoiseParams {
        kernel,
        fractal,
        octaves: args.octaves,
        frequency: args.frequency,
        lacunarity: args.lacunarity,
        gain: args.gain,
        seed: Seed::parse(&args.seed).value(),
        warp,
        hash: match args.hash {
            HashArg::Hash1 => LatticeHash::Hash1,
            HashArg::Hash2 => LatticeHash::Hash2,
        },
    })?;
    let n = args.size as usize;
    let mut values = vec![0.0f32; n * n];
    let origin = [args.origin[0], args.origin[1]];
    match args.z {
        None => noise.fill2(
            &Grid2 {
                origin,
                step: [1.0, 1.0],
                size: [n, n],
            },
            &mut values,
        ),
        Some(z) => noise.fill3(
            &Grid3 {
                origin: [origin[0], origin[1], z],
                step: [1.0, 1.0, 1.0],
                size: [n, n, 1],
            },
            &mut values,
        ),
    }
    // [-1, 1] onto the full grey range; rare overshoot is clipped.
    let pixels: Vec<u8> = values
        .iter()
        .map(|v| ((v * 0.5 + 0.5).clamp(0.0, 1.0) * 255.0).round() as u8)
        .collect();
    let png = mangekyo_export::png::encode_gray8(args.size, args.size, &pixels)?;
    crate::atomic::write(&args.output, &png)?;
    errln!(
        "wrote {} ({}×{} px)",
        args.output.display(),
        args.size,
        args.size
    );
    Ok(())
}
