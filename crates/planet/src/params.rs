//! The planet's parameters: the only thing ever stored about a planet.
//! Everything else (every chunk, tile and preview) is regenerated from them.

use crate::PlanetError;
use crate::version::Version;
use serde::{Deserialize, Serialize};

/// The seed of the default planet.
pub const DEFAULT_SEED: u64 = 42;

/// Fewest samples around the equator: four cube faces of at least one
/// 256-sample chunk each.
pub(crate) const MIN_EQUATOR_SAMPLES: f64 = 1024.0;

/// A planet, described. Serialises to JSON exactly as the store keeps it;
/// omitted fields take the defaults of an Earth-like planet
/// ([`PlanetParams::default`]). Validate with [`PlanetParams::validate`]
/// (done by [`crate::Planet::new`]).
///
/// ```
/// let p: mangekyo_planet::PlanetParams = serde_json::from_str(r#"{"seed": 7, "sea_level": 0.6}"#).unwrap();
/// assert_eq!(p.radius, 6_371_000.0);
/// assert!(p.validate().is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PlanetParams {
    /// Seed of every noise layer. Default [`DEFAULT_SEED`].
    pub seed: u64,
    /// Radius in metres, 1 km ..= 100,000 km. Default 6,371,000 (Earth).
    pub radius: f64,
    /// Nominal distance between neighbouring samples at level of detail 0,
    /// in metres, 0.01 ..= 2πR/1024. Default 1.5. The map grids round it
    /// slightly (at most 1.6 %, see [`crate::PlanetSpace`]).
    pub pixel_size: f64,
    /// Fraction of the surface under the sea, 0 ..= 1. Default 0.71 (Earth).
    pub sea_level: f64,
    /// Strength of mountain building, 0 (no mountains) ..= 2 (twice
    /// Earth's relief). Default 1.
    pub plate_activity: f64,
    /// How wet the planet is overall, 0 (desert world) ..= 1 (jungle
    /// world). Default 0.5.
    pub humidity_global: f64,
    /// Axial tilt (obliquity) in degrees, −90 ..= 90. Default 23.44 (Earth).
    /// Above about 54° the poles receive more sunlight over a year than
    /// the equator and become the warm regions.
    pub axial_tilt: f64,
    /// Sunlight relative to Earth's, 0.25 ..= 4. Default 1.
    pub solar_intensity: f64,
    /// The generator version these parameters were made for ([`Version`]:
    /// 1 noise belts, 2 plates, 3 erosion, rivers and lakes, 4 climate and
    /// blended biomes, or the unreleased `"next"`). Versions live side by
    /// side: a planet keeps its version, and a released version keeps its
    /// bytes forever. [`PlanetParams::default`] has [`Version::DEFAULT`];
    /// a JSON object *without* this field is version 1, because every record
    /// written before versions existed side by side was version 1 (the
    /// service stores normalised parameters, which always carry the
    /// field, so this only decides hand-written or pre-versioning JSON;
    /// creators that want the latest must say so or start from the
    /// default).
    #[serde(default = "legacy_version")]
    pub generator_version: Version,
    /// Version 2: cells along a cube-face edge of the coarse sphere graph
    /// (6·N² cells), 16 ..= 1024. Default 408 (998,784 cells, ~22.6 km on
    /// Earth). Ignored by version 1.
    pub graph_n: u32,
    /// Version 2: number of tectonic plates, 8 ..= 40, or 0 to derive it
    /// from the seed. Default 0. Ignored by version 1.
    pub plate_count: u32,
}

/// What a parameter object without `generator_version` means.
fn legacy_version() -> Version {
    Version::LEGACY
}

impl PlanetParams {
    /// Makes a parameter object describe a *new* planet: without
    /// `generator_version` it gets [`Version::DEFAULT`],
    /// as [`PlanetParams::default`] has. Deserialising an object without
    /// it means version 1 (what records stored before versions existed
    /// mean); every surface that creates a planet from JSON (`POST
    /// /v1/planets`, `--params FILE`) calls this first, so one object
    /// means one planet everywhere. Anything but an object is left as is.
    pub fn fill_new_planet_version(value: &mut serde_json::Value) {
        if let Some(object) = value.as_object_mut() {
            object
                .entry("generator_version")
                .or_insert(serde_json::json!(Version::DEFAULT));
        }
    }
}

/// Default cells along a cube-face edge of the sphere graph.
pub const DEFAULT_GRAPH_N: u32 = 408;
/// Allowed range of [`PlanetParams::graph_n`].
pub const GRAPH_N_RANGE: std::ops::RangeInclusive<u32> = 16..=1024;
/// Allowed range of an explicit [`PlanetParams::plate_count`].
pub const PLATE_COUNT_RANGE: std::ops::RangeInclusive<u32> = 8..=40;

impl Default for PlanetParams {
    fn default() -> Self {
        PlanetParams {
            seed: DEFAULT_SEED,
            radius: 6_371_000.0,
            pixel_size: 1.5,
            sea_level: 0.71,
            plate_activity: 1.0,
            humidity_global: 0.5,
            axial_tilt: 23.44,
            solar_intensity: 1.0,
            generator_version: Version::DEFAULT,
            graph_n: DEFAULT_GRAPH_N,
            plate_count: 0,
        }
    }
}

/// Checks that `value` is finite and in `lo..=hi`.
fn in_range(
    name: &'static str,
    value: f64,
    lo: f64,
    hi: f64,
    text: &str,
) -> Result<(), PlanetError> {
    if value.is_finite() && (lo..=hi).contains(&value) {
        Ok(())
    } else {
        Err(PlanetError::param(name, value, text))
    }
}

impl PlanetParams {
    /// Checks every parameter, naming the first one out of range.
    pub fn validate(&self) -> Result<(), PlanetError> {
        if !GRAPH_N_RANGE.contains(&self.graph_n) {
            return Err(PlanetError::param(
                "graph_n",
                self.graph_n,
                "in 16 ..= 1024 (cells along a cube-face edge of the sphere graph)",
            ));
        }
        if self.plate_count != 0 && !PLATE_COUNT_RANGE.contains(&self.plate_count) {
            return Err(PlanetError::param(
                "plate_count",
                self.plate_count,
                "0 (derived from the seed) or in 8 ..= 40",
            ));
        }
        in_range(
            "radius",
            self.radius,
            1.0e3,
            1.0e8,
            "in 1000 ..= 100000000 metres",
        )?;
        let max_pixel = 2.0 * std::f64::consts::PI * self.radius / MIN_EQUATOR_SAMPLES;
        if !(self.pixel_size.is_finite() && self.pixel_size >= 0.01 && self.pixel_size <= max_pixel)
        {
            return Err(PlanetError::param(
                "pixel_size",
                self.pixel_size,
                format!(
                    "in 0.01 ..= {max_pixel:.3} metres (2π·radius/1024: at least one chunk per cube face)"
                ),
            ));
        }
        in_range(
            "sea_level",
            self.sea_level,
            0.0,
            1.0,
            "in 0 ..= 1 (fraction of the surface under water)",
        )?;
        in_range(
            "plate_activity",
            self.plate_activity,
            0.0,
            2.0,
            "in 0 ..= 2",
        )?;
        in_range(
            "humidity_global",
            self.humidity_global,
            0.0,
            1.0,
            "in 0 ..= 1",
        )?;
        in_range(
            "axial_tilt",
            self.axial_tilt,
            -90.0,
            90.0,
            "in -90 ..= 90 degrees",
        )?;
        in_range(
            "solar_intensity",
            self.solar_intensity,
            0.25,
            4.0,
            "in 0.25 ..= 4 (1 = Earth)",
        )?;
        Ok(())
    }

    /// A stable 64-bit hash of the parameters (their exact bits, in field
    /// order): equal parameters give equal hashes on every machine, so it
    /// can name a planet's content in URLs and caches.
    pub fn content_hash(&self) -> u64 {
        let mut bytes = Vec::with_capacity(72);
        bytes.extend_from_slice(&self.seed.to_le_bytes());
        for v in [
            self.radius,
            self.pixel_size,
            self.sea_level,
            self.plate_activity,
            self.humidity_global,
            self.axial_tilt,
            self.solar_intensity,
        ] {
            bytes.extend_from_slice(&v.to_bits().to_le_bytes());
        }
        bytes.extend_from_slice(&self.generator_version.code().to_le_bytes());
        // Version 1 ignores the plate fields: leaving them out keeps every
        // version-1 hash (and so every pinned URL and ETag) as it was.
        if self.generator_version.has_plates() {
            bytes.extend_from_slice(&self.graph_n.to_le_bytes());
            bytes.extend_from_slice(&self.plate_count.to_le_bytes());
        }
        mangekyo_core::hash::fnv1a64(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_earth_like() {
        let p = PlanetParams::default();
        p.validate().unwrap();
        assert_eq!(p.radius, 6_371_000.0);
        assert_eq!(p.pixel_size, 1.5);
    }

    /// A way to break one field.
    type Spoil = fn(&mut PlanetParams);

    #[test]
    fn every_bad_field_is_named() {
        let cases: [(Spoil, &str); 14] = [
            (|p| p.radius = -1.0, "radius"),
            (|p| p.radius = f64::NAN, "radius"),
            (|p| p.pixel_size = 0.0, "pixel_size"),
            (|p| p.pixel_size = 1.0e5, "pixel_size"),
            (|p| p.sea_level = 1.5, "sea_level"),
            (|p| p.plate_activity = -0.1, "plate_activity"),
            (|p| p.humidity_global = f64::INFINITY, "humidity_global"),
            (|p| p.axial_tilt = 91.0, "axial_tilt"),
            (|p| p.axial_tilt = -90.5, "axial_tilt"),
            (|p| p.solar_intensity = 0.0, "solar_intensity"),
            (|p| p.graph_n = 15, "graph_n"),
            (|p| p.graph_n = 1025, "graph_n"),
            (|p| p.plate_count = 7, "plate_count"),
            (|p| p.plate_count = 41, "plate_count"),
        ];
        for (spoil, field) in cases {
            let mut p = PlanetParams::default();
            spoil(&mut p);
            match p.validate() {
                Err(PlanetError::Param(p)) => assert_eq!(p.name, field),
                other => panic!("{field}: expected a parameter error, got {other:?}"),
            }
            let text = p.validate().unwrap_err().to_string();
            assert!(text.contains(field), "{text}");
        }
    }

    #[test]
    fn json_round_trip_and_defaults_for_missing_fields() {
        let p = PlanetParams {
            seed: 9,
            axial_tilt: 40.0,
            ..PlanetParams::default()
        };
        let text = serde_json::to_string(&p).unwrap();
        let back: PlanetParams = serde_json::from_str(&text).unwrap();
        assert_eq!(p, back);
        let partial: PlanetParams =
            serde_json::from_str(r#"{"seed": 9, "axial_tilt": 40.0, "generator_version": 4}"#)
                .unwrap();
        assert_eq!(partial, p);
        // Without a version, a record is from before versions 1 and 2
        // lived side by side: version 1.
        let old: PlanetParams = serde_json::from_str(r#"{"seed": 9, "axial_tilt": 40.0}"#).unwrap();
        assert_eq!(old.generator_version, Version::V1);
        assert_eq!(
            old,
            PlanetParams {
                generator_version: crate::Version::V1,
                ..p
            }
        );
        // A version this build does not generate is refused by name.
        for bad in [
            r#"{"generator_version": 0}"#,
            r#"{"generator_version": 99}"#,
        ] {
            let err = serde_json::from_str::<PlanetParams>(bad).unwrap_err();
            assert!(
                err.to_string()
                    .contains("released planet generator version"),
                "{err}"
            );
        }
        let next: PlanetParams = serde_json::from_str(r#"{"generator_version": "next"}"#).unwrap();
        assert_eq!(next.generator_version, Version::Next);
        assert_ne!(
            next.content_hash(),
            PlanetParams {
                generator_version: Version::DEFAULT,
                ..next
            }
            .content_hash(),
            "next is another planet"
        );
        let err = serde_json::from_str::<PlanetParams>(r#"{"radus": 5}"#).unwrap_err();
        assert!(err.to_string().contains("radus"), "{err}");
    }

    #[test]
    fn content_hash_tracks_every_field() {
        let a = PlanetParams::default();
        let mut b = a;
        b.solar_intensity = 1.0000001;
        assert_eq!(a.content_hash(), PlanetParams::default().content_hash());
        assert_ne!(a.content_hash(), b.content_hash());
        let mut c = a;
        c.graph_n = 129;
        assert_ne!(a.content_hash(), c.content_hash());
    }

    #[test]
    fn version_1_hashes_ignore_the_version_2_fields() {
        let v1 = PlanetParams {
            generator_version: crate::Version::V1,
            ..PlanetParams::default()
        };
        let other = PlanetParams {
            graph_n: 100,
            plate_count: 12,
            ..v1
        };
        assert_eq!(v1.content_hash(), other.content_hash());
    }
}
