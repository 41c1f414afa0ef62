//! Colour pictures of a planet: biome colours with hill shading, for the
//! whole planet (equirectangular) or for one chunk. Pure RGB buffers; the
//! edges encode them (PNG).

use crate::biome::Biome;
use crate::chunk::{Chunk, Layers};
use crate::geo::Dir;
use crate::geology::GeologySamples;
use crate::{Planet, Samples};
use crate::{PlanetError, PlanetParams};
use mangekyo_core::noise::Level;
use rayon::prelude::*;

/// An 8-bit RGB image, row-major, 3 bytes per pixel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 3` bytes.
    pub pixels: Vec<u8>,
}

/// Widest whole-planet preview, pixels.
pub const MAX_PREVIEW_WIDTH: u32 = 16_384;

/// Rows sampled per parallel task of a preview.
const PREVIEW_BAND: usize = 8;

/// Which layer a whole-planet preview shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PreviewLayer {
    /// Biome colours with hill shading.
    #[default]
    Biome,
    /// Hypsometric tints (sea blue, lowland green to mountain brown and white) with hill shading.
    Height,
    /// Mean annual temperature, −40 °C (blue) to +40 °C (red).
    Temperature,
    /// Humidity, 0 (brown) to 1 (blue-green).
    Humidity,
    /// Tectonic uplift, −6 km (blue) through 0 (grey) to +6 km (red), with
    /// hill shading (generator version 2).
    Uplift,
    /// Each plate in its own colour, with hill shading (version 2).
    Plate,
    /// Mean annual precipitation on a log scale, 30 mm/yr (brown) to
    /// 5000 mm/yr (deep blue) (generator version 4).
    Precipitation,
}

/// What a whole-planet preview draws over its layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Overlay {
    /// Nothing.
    #[default]
    None,
    /// Plate boundaries, one pixel wide, coloured by type: convergent
    /// red, divergent cyan, transform yellow (generator version 2).
    Plates,
}

impl Overlay {
    /// The name in URLs and flags.
    pub fn name(self) -> &'static str {
        match self {
            Overlay::None => "none",
            Overlay::Plates => "plates",
        }
    }
}

impl std::str::FromStr for Overlay {
    type Err = PlanetError;
    fn from_str(s: &str) -> Result<Self, PlanetError> {
        match s {
            "none" => Ok(Overlay::None),
            "plates" => Ok(Overlay::Plates),
            _ => Err(PlanetError::Name {
                what: "overlay",
                param: "overlay",
                value: s.to_string(),
                allowed: "none, plates",
            }),
        }
    }
}

/// The colour of a boundary of `kind` in overlays.
pub fn boundary_colour(kind: crate::BoundaryKind) -> [u8; 3] {
    match kind {
        crate::BoundaryKind::Convergent => [235, 40, 40],
        crate::BoundaryKind::Divergent => [40, 215, 255],
        crate::BoundaryKind::Transform => [255, 225, 50],
    }
}

/// A plate's colour: a hashed hue, mid saturation (neighbours differ).
fn plate_colour(id: u16) -> [f32; 3] {
    let h = mangekyo_core::hash::mix64(u64::from(id) ^ 0x0070_6c61_7465);
    let hue = (h % 360) as f32;
    let c = |n: f32| {
        let k = (n + hue / 30.0) % 12.0;
        let v = 0.5 - 0.35 * (k - 3.0).min(9.0 - k).clamp(-1.0, 1.0);
        v * 255.0
    };
    [c(0.0), c(8.0), c(4.0)]
}

fn uplift_colour(u: f32) -> [f32; 3] {
    ramp(
        &[
            (-6000.0, [30.0, 60.0, 200.0]),
            (-500.0, [150.0, 170.0, 220.0]),
            (0.0, [200.0, 200.0, 200.0]),
            (500.0, [230.0, 170.0, 140.0]),
            (6000.0, [190.0, 30.0, 30.0]),
        ],
        u,
    )
}

impl std::str::FromStr for PreviewLayer {
    type Err = PlanetError;
    fn from_str(s: &str) -> Result<Self, PlanetError> {
        match s {
            "biome" => Ok(PreviewLayer::Biome),
            "height" => Ok(PreviewLayer::Height),
            "temperature" => Ok(PreviewLayer::Temperature),
            "humidity" => Ok(PreviewLayer::Humidity),
            "uplift" => Ok(PreviewLayer::Uplift),
            "plate" => Ok(PreviewLayer::Plate),
            "precipitation" => Ok(PreviewLayer::Precipitation),
            _ => Err(PlanetError::Name {
                what: "preview layer",
                param: "layer",
                value: s.to_string(),
                allowed: "biome, height, temperature, humidity, uplift, plate, precipitation",
            }),
        }
    }
}

/// Linear interpolation through colour stops `(value, rgb)` sorted by value.
fn ramp(stops: &[(f32, [f32; 3])], v: f32) -> [f32; 3] {
    let first = stops[0];
    if v <= first.0 {
        return first.1;
    }
    for w in stops.windows(2) {
        let ((a, ca), (b, cb)) = (w[0], w[1]);
        if v <= b {
            let t = (v - a) / (b - a);
            return [0, 1, 2].map(|c| ca[c] + (cb[c] - ca[c]) * t);
        }
    }
    stops[stops.len() - 1].1
}

/// Hypsometric tint of a height in metres.
fn height_colour(h: f32) -> [f32; 3] {
    ramp(
        &[
            (-6000.0, [8.0, 24.0, 70.0]),
            (-200.0, [40.0, 100.0, 170.0]),
            (-0.01, [90.0, 160.0, 210.0]),
            (0.0, [70.0, 130.0, 70.0]),
            (400.0, [140.0, 170.0, 90.0]),
            (1500.0, [190.0, 170.0, 110.0]),
            (3000.0, [140.0, 110.0, 90.0]),
            (5000.0, [245.0, 245.0, 245.0]),
        ],
        h,
    )
}

fn temperature_colour(t: f32) -> [f32; 3] {
    ramp(
        &[
            (-40.0, [40.0, 0.0, 120.0]),
            (-20.0, [40.0, 80.0, 220.0]),
            (0.0, [230.0, 240.0, 255.0]),
            (15.0, [250.0, 210.0, 80.0]),
            (30.0, [220.0, 60.0, 30.0]),
            (40.0, [120.0, 0.0, 20.0]),
        ],
        t,
    )
}

fn precipitation_colour(p: f32) -> [f32; 3] {
    ramp(
        &[
            (30.0f32.log10(), [150.0, 100.0, 50.0]),
            (250.0f32.log10(), [230.0, 210.0, 120.0]),
            (800.0f32.log10(), [110.0, 180.0, 80.0]),
            (2000.0f32.log10(), [30.0, 130.0, 110.0]),
            (5000.0f32.log10(), [20.0, 50.0, 150.0]),
        ],
        p.max(1.0).log10(),
    )
}

fn humidity_colour(h: f32) -> [f32; 3] {
    ramp(
        &[
            (0.0, [150.0, 100.0, 50.0]),
            (0.3, [230.0, 210.0, 120.0]),
            (0.6, [70.0, 170.0, 70.0]),
            (1.0, [20.0, 90.0, 140.0]),
        ],
        h,
    )
}

/// The colour of a biome; the sea gets darker with depth.
pub fn biome_colour(b: Biome, height: f32) -> [f32; 3] {
    match b {
        Biome::Ocean | Biome::DeepOcean => {
            let t = (-height / 5000.0).clamp(0.0, 1.0);
            let (shallow, deep) = ([70.0, 140.0, 200.0], [12.0, 32.0, 90.0]);
            [0, 1, 2].map(|c| shallow[c] + (deep[c] - shallow[c]) * t.sqrt())
        }
        Biome::Beach => [232.0, 218.0, 165.0],
        Biome::Desert => [222.0, 196.0, 132.0],
        Biome::Savanna => [178.0, 170.0, 86.0],
        Biome::Rainforest => [32.0, 112.0, 42.0],
        Biome::Grassland => [136.0, 172.0, 84.0],
        Biome::TemperateForest => [62.0, 132.0, 62.0],
        Biome::Taiga => [58.0, 98.0, 80.0],
        Biome::Tundra => [152.0, 150.0, 122.0],
        Biome::SnowIce => [242.0, 246.0, 250.0],
        Biome::BareRock => [128.0, 118.0, 108.0],
        Biome::Shrubland => [160.0, 150.0, 92.0],
        Biome::Riparian => [44.0, 128.0, 64.0],
        Biome::Wetland => [76.0, 116.0, 96.0],
        Biome::Alpine => [150.0, 160.0, 120.0],
        Biome::FreshWater => FRESH_WATER,
    }
}

/// Lambertian light from the north-west, 45° up, relative to flat ground
/// (1 = flat, 0 = facing away).
fn shade(dzdx: f32, dzdy: f32) -> f32 {
    // Image x is east and y is south: the light comes from −x, −y.
    let (lx, ly, lz) = (-0.5f32, -0.5f32, std::f32::consts::FRAC_1_SQRT_2);
    let (nx, ny, nz) = (-dzdx, -dzdy, 1.0f32);
    let len = (nx * nx + ny * ny + nz * nz).sqrt();
    ((nx * lx + ny * ly + nz * lz) / len / lz).max(0.0)
}

/// Colours with hill shading on land. `dx(row)` is the east–west sample
/// spacing of a row in metres, `dy` the north–south one; `wrap` joins the
/// left and right edges (a whole-planet sheet).
struct Canvas<'a> {
    heights: &'a [f32],
    colours: &'a [[f32; 3]],
    width: usize,
    dx: &'a (dyn Fn(usize) -> f64 + Sync),
    dy: f64,
    exaggeration: f32,
    wrap: bool,
}

impl Canvas<'_> {
    fn render(&self) -> Vec<u8> {
        let rows: Vec<Vec<u8>> = (0..self.heights.len() / self.width)
            .into_par_iter()
            .map(|y| self.row(y))
            .collect();
        rows.concat()
    }

    fn row(&self, y: usize) -> Vec<u8> {
        let (w, rows) = (self.width, self.heights.len() / self.width);
        let land = |x: usize, y: usize| self.heights[y * w + x].max(0.0);
        let (up, down) = (y.saturating_sub(1), (y + 1).min(rows - 1));
        let ddy = (self.dy * (down - up) as f64) as f32;
        let dx = (self.dx)(y) as f32;
        let mut row = Vec::with_capacity(w * 3);
        for x in 0..w {
            let (left, right) = if self.wrap {
                ((x + w - 1) % w, (x + 1) % w)
            } else {
                (x.saturating_sub(1), (x + 1).min(w - 1))
            };
            let span = if self.wrap { 2 } else { right - left };
            let dzdx = (land(right, y) - land(left, y)) / (dx * span as f32).max(1e-6);
            let dzdy = (land(x, down) - land(x, up)) / ddy.max(1e-6);
            let light = if self.heights[y * w + x] < 0.0 {
                1.0
            } else {
                shade(dzdx * self.exaggeration, dzdy * self.exaggeration)
            };
            let k = (0.3 + 0.7 * light).min(1.35);
            row.extend(self.colours[y * w + x].map(|c| (c * k).round().clamp(0.0, 255.0) as u8));
        }
        row
    }
}

/// Fresh water over land (rivers and lakes, version 3).
pub const FRESH_WATER: [f32; 3] = [52.0, 104.0, 196.0];

/// Paints samples under fresh water (water over ground at or above sea
/// level) in [`FRESH_WATER`]; a no-op without a water layer.
fn lake_tint(tints: &mut [[f32; 3]], height: &[f32], water: &[f32]) {
    for ((t, &h), &w) in tints.iter_mut().zip(height).zip(water) {
        if w > 0.0 && h + w > 0.0 {
            *t = FRESH_WATER;
        }
    }
}

/// Rivers drawn on a version-4 preview drain at least this many pixels
/// squared: a map generalises, or at 1024 pixels across every pixel of
/// land would hold a river (they are about 70 km apart on Earth).
const RIVER_MIN_PIXELS: f64 = 5.0;

/// Draws the rivers of a version-3 tier over an equirectangular picture
/// `w × h` (its rivers are narrower than a pixel, so they are drawn as
/// lines: one pixel wide, two from Strahler order 4). Version 3 draws
/// every river (its previews were served so); from version 4 rivers
/// draining less than [`RIVER_MIN_PIXELS`]² are left out.
fn draw_rivers(
    pixels: &mut [u8],
    w: usize,
    h: usize,
    tier: &crate::tier::CoarseTier,
    params: &PlanetParams,
) {
    let Some(hydro) = &tier.hydro else {
        return;
    };
    let seed = params.seed;
    let min_area_km2 = if params.generator_version.pipeline().preview_prunes_rivers {
        let pixel_km = std::f64::consts::TAU * params.radius / w as f64 / 1000.0;
        let side = RIVER_MIN_PIXELS * pixel_km;
        side * side
    } else {
        0.0
    };
    let Ok(graph) = crate::graph::SphereGraph::new(tier.n, seed) else {
        return;
    };
    let colour = FRESH_WATER.map(|c| c as u8);
    let xy = |k: u32| {
        let p = crate::LatLon::from_dir(graph.node(k));
        (
            (p.lon + 180.0) / 360.0 * w as f64,
            (90.0 - p.lat) / 180.0 * h as f64,
        )
    };
    for s in hydro
        .segments
        .iter()
        .filter(|s| f64::from(s.area_km2) >= min_area_km2)
    {
        let ((x0, y0), (x1, y1)) = (xy(s.from), xy(s.to));
        if (x1 - x0).abs() > w as f64 / 2.0 {
            continue; // across the date line: both ends are drawn by their neighbours
        }
        let steps = ((x1 - x0).abs().max((y1 - y0).abs()).ceil() as usize).max(1);
        let thick = if s.order >= 4 { 2 } else { 1 };
        for t in 0..=steps {
            let f = t as f64 / steps as f64;
            let (x, y) = (x0 + (x1 - x0) * f, y0 + (y1 - y0) * f);
            for dy in 0..thick {
                for dx in 0..thick {
                    let (px, py) = ((x as usize + dx) % w, (y as usize + dy).min(h - 1));
                    let i = 3 * (py * w + px);
                    pixels[i..i + 3].copy_from_slice(&colour);
                }
            }
        }
    }
}

/// The colours of `layer` for sampled values.
fn colours(layer: PreviewLayer, s: &Samples, geo: &GeologySamples) -> Vec<[f32; 3]> {
    match layer {
        PreviewLayer::Biome => s
            .biome
            .iter()
            .zip(&s.height)
            .map(|(&b, &h)| biome_colour(b, h))
            .collect(),
        PreviewLayer::Height => s.height.iter().map(|&h| height_colour(h)).collect(),
        PreviewLayer::Temperature => s
            .temperature
            .iter()
            .map(|&t| temperature_colour(t))
            .collect(),
        PreviewLayer::Humidity => s.humidity.iter().map(|&h| humidity_colour(h)).collect(),
        PreviewLayer::Uplift => geo.uplift.iter().map(|&u| uplift_colour(u)).collect(),
        PreviewLayer::Plate => geo.plate.iter().map(|&p| plate_colour(p)).collect(),
        PreviewLayer::Precipitation => s
            .precipitation
            .iter()
            .map(|&p| precipitation_colour(p))
            .collect(),
    }
}

fn preview_layers(layer: PreviewLayer) -> Layers {
    Layers {
        height: true,
        temperature: layer == PreviewLayer::Temperature,
        humidity: layer == PreviewLayer::Humidity,
        biome: layer == PreviewLayer::Biome,
        precipitation: layer == PreviewLayer::Precipitation,
        ..Layers::NONE
    }
}

/// Pixels of a `w`-wide raster of plate ids where the plate changes to
/// the right (wrapping when `wrap`) or below: a boundary one pixel wide.
fn boundary_pixels(plate: &[u16], w: usize, wrap: bool) -> Vec<usize> {
    let rows = plate.len() / w.max(1);
    let mut out = Vec::new();
    for y in 0..rows {
        for x in 0..w {
            let i = y * w + x;
            let right = if x + 1 < w {
                Some(i + 1)
            } else {
                wrap.then_some(y * w)
            };
            let below = (y + 1 < rows).then_some(i + w);
            if right.into_iter().chain(below).any(|j| plate[j] != plate[i]) {
                out.push(i);
            }
        }
    }
    out
}

impl Planet {
    /// The whole planet as an equirectangular biome map with hill shading,
    /// `width × width/2` pixels (sampled at pixel centres, at the level of
    /// detail of the pixel size). `progress` is called with the number of
    /// rows just finished (from worker threads).
    pub fn preview(
        &self,
        width: u32,
        layer: PreviewLayer,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<RgbImage, PlanetError> {
        self.preview_with(width, layer, Overlay::None, progress)
    }

    /// Refuses what [`Planet::preview_with`] would refuse (a width out of
    /// range, a layer or overlay this planet's version lacks) without
    /// sampling or computing anything, so an edge can refuse a mistyped
    /// request before it computes the coarse tier (seconds).
    pub fn check_preview(
        &self,
        width: u32,
        layer: PreviewLayer,
        overlay: Overlay,
    ) -> Result<(), PlanetError> {
        if layer == PreviewLayer::Precipitation && !self.version().layers().precipitation {
            return Err(PlanetError::address(
                "layer",
                "precipitation",
                "a layer this planet has (precipitation exists from generator version 4)",
            ));
        }
        let geology = matches!(layer, PreviewLayer::Uplift | PreviewLayer::Plate);
        if self.plates().is_none() && (geology || overlay != Overlay::None) {
            let (param, value) = if geology {
                ("layer", format!("{layer:?}").to_lowercase())
            } else {
                ("overlay", overlay.name().to_owned())
            };
            return Err(PlanetError::address(
                param,
                value,
                "a layer or overlay of a version-1 planet (plates exist from generator version 2)",
            ));
        }
        if !(16..=MAX_PREVIEW_WIDTH).contains(&width) || !width.is_multiple_of(2) {
            return Err(PlanetError::address(
                "width",
                width,
                format!("an even number in 16..={MAX_PREVIEW_WIDTH}"),
            ));
        }
        Ok(())
    }

    /// [`Planet::preview`] with `overlay` drawn over the layer. The
    /// `uplift` and `plate` layers and the plate overlay need version 2
    /// (refused by naming `layer` or `overlay` otherwise).
    pub fn preview_with(
        &self,
        width: u32,
        layer: PreviewLayer,
        overlay: Overlay,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<RgbImage, PlanetError> {
        self.preview_cancellable(width, layer, overlay, &|rows| {
            if rows > 0 {
                progress(rows);
            }
            true
        })
    }

    /// [`Planet::preview_with`], calling `observe(0)` before each band of
    /// rows and `observe(rows)` after it (from worker threads): once it
    /// answers `false`, bands not yet started are skipped and
    /// [`PlanetError::Cancelled`] comes back. What it answers changes no
    /// pixel of a finished preview.
    pub fn preview_cancellable(
        &self,
        width: u32,
        layer: PreviewLayer,
        overlay: Overlay,
        observe: &(dyn Fn(u64) -> bool + Sync),
    ) -> Result<RgbImage, PlanetError> {
        self.check_preview(width, layer, overlay)?;
        let geology = matches!(layer, PreviewLayer::Uplift | PreviewLayer::Plate);
        let want_geo = geology || overlay == Overlay::Plates;
        let (w, h) = (width as usize, width as usize / 2);
        let spacing = 2.0 * std::f64::consts::PI * self.params().radius / w as f64;
        let detail = self.detail(spacing);
        let lons: Vec<(f64, f64)> = (0..w)
            .map(|x| {
                let lon = std::f64::consts::PI * ((2 * x + 1) as f64 / w as f64 - 1.0);
                (libm::cos(lon), libm::sin(lon))
            })
            .collect();
        let tier = self.water_tier()?;
        let water = self.tier_reader(&tier);
        // Each band writes its rows into the whole image's arrays (untouched
        // pages cost nothing until written), so a 4,096-wide preview holds
        // its pixels once plus a band per thread, not every band and then
        // a joined copy. Collecting `Option`s stops handing out bands at
        // the first `None`.
        let mut heights = vec![0.0f32; w * h];
        let mut tints = vec![[0.0f32; 3]; w * h];
        let plates: Option<Vec<Vec<u16>>> = heights
            .par_chunks_mut(PREVIEW_BAND * w)
            .zip(tints.par_chunks_mut(PREVIEW_BAND * w))
            .enumerate()
            .map(|(band, (band_heights, band_tints))| {
                if !observe(0) {
                    return None;
                }
                let rows = band * PREVIEW_BAND..((band + 1) * PREVIEW_BAND).min(h);
                let count = rows.len() as u64;
                let dirs: Vec<Dir> = rows
                    .flat_map(|y| {
                        let lat =
                            std::f64::consts::FRAC_PI_2 * (1.0 - (2 * y + 1) as f64 / h as f64);
                        let (c, s) = (libm::cos(lat), libm::sin(lat));
                        lons.iter().map(move |&(cl, sl)| [c * cl, c * sl, s])
                    })
                    .collect();
                let mut geo = GeologySamples::default();
                let samples = self.stages().evaluate(
                    self.noise_backend(),
                    Level::best(),
                    &detail,
                    &dirs,
                    Layers {
                        water: water.is_some(),
                        ..preview_layers(layer)
                    },
                    want_geo.then_some(&mut geo),
                    water.as_ref(),
                );
                if !observe(count) {
                    return None;
                }
                let mut band_colours = colours(layer, &samples, &geo);
                lake_tint(&mut band_colours, &samples.height, &samples.water);
                band_tints.copy_from_slice(&band_colours);
                band_heights.copy_from_slice(&samples.height);
                Some(geo.plate)
            })
            .collect();
        let plate: Vec<u16> = plates.ok_or(PlanetError::Cancelled)?.concat();
        let pixel_dir = |i: usize| {
            let (x, y) = (i % w, i / w);
            let lat = std::f64::consts::FRAC_PI_2 * (1.0 - (2 * y + 1) as f64 / h as f64);
            let (c, s) = (libm::cos(lat), libm::sin(lat));
            let (cl, sl) = lons[x];
            [c * cl, c * sl, s]
        };
        let dx = |y: usize| {
            let lat = std::f64::consts::FRAC_PI_2 * (1.0 - (2 * y + 1) as f64 / h as f64);
            spacing * libm::cos(lat).max(0.05)
        };
        let canvas = Canvas {
            heights: &heights,
            colours: &tints,
            width: w,
            dx: &dx,
            dy: spacing,
            exaggeration: PREVIEW_EXAGGERATION,
            wrap: true,
        };
        let mut pixels = canvas.render();
        if let Some(tier) = &tier {
            draw_rivers(&mut pixels, w, h, tier, self.params());
        }
        if let (Overlay::Plates, Some(plates)) = (overlay, self.plates()) {
            let edge = boundary_pixels(&plate, w, true);
            let dirs: Vec<Dir> = edge.iter().map(|&i| pixel_dir(i)).collect();
            let warped = plates.warped(&dirs, self.params().radius, Level::best());
            for (&i, q) in edge.iter().zip(warped) {
                let colour = boundary_colour(plates.locate(q).kind());
                pixels[3 * i..3 * i + 3].copy_from_slice(&colour);
            }
        }
        Ok(RgbImage {
            width,
            height: h as u32,
            pixels,
        })
    }
}

/// Vertical exaggeration of the whole-planet preview's hill shading: its
/// pixels are tens of kilometres wide, so real slopes would barely show.
pub const PREVIEW_EXAGGERATION: f32 = 12.0;

/// Vertical exaggeration of a chunk preview's hill shading.
pub const CHUNK_EXAGGERATION: f32 = 2.0;

/// A chunk as a biome-coloured, hill-shaded picture. The chunk must have
/// its height and biome layers.
pub fn chunk_preview(chunk: &Chunk) -> Result<RgbImage, PlanetError> {
    let n = chunk.size as usize;
    if chunk.height.len() != n * n || chunk.biome.len() != n * n {
        return Err(PlanetError::address(
            "layers",
            "without height and biome",
            "height and biome for a preview",
        ));
    }
    let spacing = chunk.metres_per_sample;
    let mut tints: Vec<[f32; 3]> = chunk
        .biome
        .iter()
        .zip(&chunk.height)
        .map(|(&b, &h)| biome_colour(b, h))
        .collect();
    lake_tint(&mut tints, &chunk.height, &chunk.water);
    let canvas = Canvas {
        heights: &chunk.height,
        colours: &tints,
        width: n,
        dx: &|_| spacing,
        dy: spacing,
        exaggeration: CHUNK_EXAGGERATION,
        wrap: false,
    };
    let mut pixels = canvas.render();
    // With the plate layer (version 2), plate boundaries in white.
    if chunk.plate.len() == n * n {
        for i in boundary_pixels(&chunk.plate, n, false) {
            pixels[3 * i..3 * i + 3].copy_from_slice(&[255, 255, 255]);
        }
    }
    Ok(RgbImage {
        width: chunk.size,
        height: chunk.size,
        pixels,
    })
}
