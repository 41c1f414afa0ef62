//! What a cave world is: the surface, the worms, the karst entrances and the
//! floor — the parameters, their documented defaults and their validation.

use serde::{Deserialize, Serialize};

use crate::error::CaveError;

/// How the worm noise carves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaveMode {
    /// The intersection of two decorrelated `1 − |fbm|` ridges, as
    /// Minecraft's noodle caves: each ridge alone is a sheet, both together
    /// a round tunnel along the curve where the two sheets cross.
    #[default]
    Tubes,
    /// The seed's single `1 − |fbm| > threshold` test: thin winding sheets
    /// (the zero surface of one noise, thickened).
    Sheets,
}

/// Every parameter of the cave field. The names follow the seed's
/// JavaScript (`scale`, `octaves`, `persistence`, `lacunarity`,
/// `amplitude`, `wormFreq`, `tunnelThreshold`); lengths are in voxels,
/// frequencies in lattice cells per voxel.
///
/// The seed names most of these without values; the defaults below are
/// ours, chosen (and looked at, see `docs/images/caves_*.png`) so that a
/// drone fits through the tunnels and the surface rolls gently over them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CaveParams {
    /// Tubes (default) or the seed's sheets.
    pub mode: CaveMode,
    /// Height of the surface where its noise is 0 (the seed's 30: "at
    /// least height 30 of rock to carve caves into").
    pub base_height: f32,
    /// How far the surface rises and falls around `base_height`: the
    /// surface is `base_height + fbm2 · amplitude`. Default 12.
    pub amplitude: f32,
    /// Frequency of the surface fBm. Default 0.01 (hills ~100 voxels apart).
    pub scale: f64,
    /// Octaves of the surface fBm (1..=16). Default 4.
    pub octaves: u32,
    /// Amplitude ratio between surface octaves, (0, 1]. Default 0.5.
    pub persistence: f32,
    /// Frequency ratio between surface octaves, 1..=8. Default 2.
    pub lacunarity: f64,
    /// Frequency of the 3D worm fBm. Default 0.025 (a tunnel every ~20 voxels).
    pub worm_frequency: f64,
    /// Octaves of the worm fBm (1..=8); the seed uses 2, gain ½, lacunarity 2.
    pub worm_octaves: u32,
    /// A voxel is carved where `1 − |fbm3| > tunnel_threshold` (in tube
    /// mode: for both fields), in (0, 1). Default 0.93; higher is thinner.
    pub tunnel_threshold: f32,
    /// Frequency of the 2D entrance-region noise (the seed's 0.01).
    pub entrance_frequency: f64,
    /// Where the entrance noise exceeds this, the ceiling buffer is removed
    /// and caves may open to the sky (the seed's 0.5), in [-1, 1].
    pub entrance_threshold: f32,
    /// Voxels of rock kept under the surface outside entrance regions (the
    /// seed's 3), 0..=64.
    pub ceiling_buffer: f32,
    /// Voxels at or below this height are never carved (the seed's
    /// `y > 2`: a solid floor at y ≤ 2).
    pub floor_level: i32,
}

impl Default for CaveParams {
    fn default() -> Self {
        CaveParams {
            mode: CaveMode::Tubes,
            base_height: 30.0,
            amplitude: 12.0,
            scale: 0.01,
            octaves: 4,
            persistence: 0.5,
            lacunarity: 2.0,
            worm_frequency: 0.025,
            worm_octaves: 2,
            tunnel_threshold: 0.93,
            entrance_frequency: 0.01,
            entrance_threshold: 0.5,
            ceiling_buffer: 3.0,
            floor_level: 2,
        }
    }
}

/// Largest |height| (base height, floor) we accept: f32 keeps 1/16 voxel
/// precision up to 2^20, and worlds taller than that are no cave world.
pub const MAX_HEIGHT: f32 = 1_048_576.0;

/// Most octaves of the surface fBm: beyond 16 the finest octave is finer
/// than a voxel even at the lowest sensible frequency.
pub const MAX_SURFACE_OCTAVES: u32 = 16;

/// Most octaves of the worm fBm: each costs one 3D noise per voxel, and
/// octaves past 8 are finer than a voxel at any useful worm frequency.
pub const MAX_WORM_OCTAVES: u32 = 8;

fn bad(name: &'static str, value: impl std::fmt::Display, allowed: &'static str) -> CaveError {
    CaveError::Param(mangekyo_core::ParamError::new(name, value, allowed))
}

fn check_f32(name: &'static str, v: f32, ok: bool, allowed: &'static str) -> Result<(), CaveError> {
    if v.is_finite() && ok {
        Ok(())
    } else {
        Err(bad(name, v, allowed))
    }
}

fn check_f64(name: &'static str, v: f64, ok: bool, allowed: &'static str) -> Result<(), CaveError> {
    if v.is_finite() && ok {
        Ok(())
    } else {
        Err(bad(name, v, allowed))
    }
}

fn check_octaves(
    name: &'static str,
    v: u32,
    max: u32,
    allowed: &'static str,
) -> Result<(), CaveError> {
    if (1..=max).contains(&v) {
        Ok(())
    } else {
        Err(bad(name, v, allowed))
    }
}

impl CaveParams {
    /// Checks every parameter, naming the first one out of range
    /// ("`octaves` must be in 1..=16, got 0").
    pub fn validate(&self) -> Result<(), CaveError> {
        let p = self;
        check_f32(
            "base_height",
            p.base_height,
            p.base_height.abs() <= MAX_HEIGHT,
            "a finite number in -1048576..=1048576",
        )?;
        check_f32(
            "amplitude",
            p.amplitude,
            (0.0..=4096.0).contains(&p.amplitude),
            "a finite number in 0..=4096",
        )?;
        check_f64(
            "scale",
            p.scale,
            p.scale > 0.0 && p.scale <= 1.0,
            "a finite number in (0, 1]",
        )?;
        check_octaves("octaves", p.octaves, MAX_SURFACE_OCTAVES, "in 1..=16")?;
        check_f32(
            "persistence",
            p.persistence,
            p.persistence > 0.0 && p.persistence <= 1.0,
            "in (0, 1]",
        )?;
        check_f64(
            "lacunarity",
            p.lacunarity,
            (1.0..=8.0).contains(&p.lacunarity),
            "in 1..=8",
        )?;
        check_f64(
            "worm_frequency",
            p.worm_frequency,
            p.worm_frequency > 0.0 && p.worm_frequency <= 1.0,
            "a finite number in (0, 1]",
        )?;
        check_octaves("worm_octaves", p.worm_octaves, MAX_WORM_OCTAVES, "in 1..=8")?;
        check_f32(
            "tunnel_threshold",
            p.tunnel_threshold,
            p.tunnel_threshold > 0.0 && p.tunnel_threshold < 1.0,
            "in (0, 1)",
        )?;
        check_f64(
            "entrance_frequency",
            p.entrance_frequency,
            p.entrance_frequency > 0.0 && p.entrance_frequency <= 1.0,
            "a finite number in (0, 1]",
        )?;
        check_f32(
            "entrance_threshold",
            p.entrance_threshold,
            (-1.0..=1.0).contains(&p.entrance_threshold),
            "in -1..=1",
        )?;
        check_f32(
            "ceiling_buffer",
            p.ceiling_buffer,
            (0.0..=64.0).contains(&p.ceiling_buffer),
            "in 0..=64",
        )?;
        if (p.floor_level as f32).abs() > MAX_HEIGHT {
            return Err(bad("floor_level", p.floor_level, "in -1048576..=1048576"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_round_trip_through_json() {
        let p = CaveParams::default();
        p.validate().unwrap();
        let text = serde_json::to_string(&p).unwrap();
        let back: CaveParams = serde_json::from_str(&text).unwrap();
        assert_eq!(back, p);
        // Omitted fields take their defaults; unknown ones are refused.
        let partial: CaveParams =
            serde_json::from_str(r#"{"mode":"sheets","amplitude":5}"#).unwrap();
        assert_eq!(partial.mode, CaveMode::Sheets);
        assert_eq!(partial.base_height, 30.0);
        assert!(serde_json::from_str::<CaveParams>(r#"{"amplitud":5}"#).is_err());
    }

    #[test]
    fn bad_parameters_are_named() {
        let cases: [(CaveParams, &str); 8] = [
            (
                CaveParams {
                    octaves: 0,
                    ..Default::default()
                },
                "`octaves` must be in 1..=16, got 0",
            ),
            (
                CaveParams {
                    scale: -0.01,
                    ..Default::default()
                },
                "`scale` must be a finite number in (0, 1], got -0.01",
            ),
            (
                CaveParams {
                    worm_frequency: f64::NAN,
                    ..Default::default()
                },
                "`worm_frequency` must be a finite number in (0, 1], got NaN",
            ),
            (
                CaveParams {
                    amplitude: f32::INFINITY,
                    ..Default::default()
                },
                "`amplitude` must be a finite number in 0..=4096, got inf",
            ),
            (
                CaveParams {
                    tunnel_threshold: 1.0,
                    ..Default::default()
                },
                "`tunnel_threshold` must be in (0, 1), got 1",
            ),
            (
                CaveParams {
                    worm_octaves: 9,
                    ..Default::default()
                },
                "`worm_octaves` must be in 1..=8, got 9",
            ),
            (
                CaveParams {
                    ceiling_buffer: -1.0,
                    ..Default::default()
                },
                "`ceiling_buffer` must be in 0..=64, got -1",
            ),
            (
                CaveParams {
                    entrance_frequency: 0.0,
                    ..Default::default()
                },
                "`entrance_frequency` must be a finite number in (0, 1], got 0",
            ),
        ];
        for (p, want) in cases {
            let err = p.validate().unwrap_err();
            assert_eq!(err.to_string(), format!("cave parameter {want}"));
        }
    }
}
