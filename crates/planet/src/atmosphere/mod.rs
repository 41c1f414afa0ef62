//! Version 4's climate (`docs/planet.md`, "Stages"): temperature from
//! annual-mean insolation, three wind cells per hemisphere, and moisture
//! carried along the wind with rain shadows behind ranges.
//!
//! Everything here is a pure function of the parameters and the ground
//! the air passes over; the coarse tier evaluates it on a climate graph
//! ([`fields`]) and chunks interpolate the result.

pub mod fields;
pub(crate) mod insolation;
pub(crate) mod moisture;

use crate::climate::{EARTH_MEAN_K, LAPSE_RATE_C_PER_M};
use crate::geo::Dir;

/// Sea-level temperature change per unit of relative insolation, °C:
/// with Earth's tilt the equator gets 28 °C and the poles −15 °C (the
/// zonal means heat transport leaves; North's 1975 fit gives 29 / −13).
const CONTRAST_C: f64 = 60.0;
/// Temperature that continentality pivots around, °C: colder places get
/// colder inland and milder at the coast, warmer ones a little hotter.
const PIVOT_C: f64 = 10.0;
/// Continentality's effect on anomalies below [`PIVOT_C`] (Siberia against
/// Norway: about 9 °C apart at 65°).
const CONTINENTAL_COLD: f64 = 0.5;
/// Continentality's effect on anomalies above [`PIVOT_C`].
const CONTINENTAL_WARM: f64 = 0.15;
/// Continentality of a place that counts as neutral (a coast is below it,
/// and the sea at 0 is moderated).
const CONTINENTAL_NEUTRAL: f64 = 0.25;

/// Holdridge's potential evapotranspiration per degree of biotemperature,
/// mm/yr per °C.
pub(crate) const PET_PER_C: f64 = 58.93;

/// The latitude-only climate of one planet, with its wind cells
/// ([`crate::Planet::atmosphere`], version 4).
#[derive(Clone, Debug, PartialEq)]
pub struct Atmosphere {
    insolation: [f64; insolation::ROWS],
    mean_c: f64,
    contrast_c: f64,
    /// Relative humidity the sea evaporates up to (from
    /// `humidity_global`).
    pub(crate) sea_humidity: f64,
    /// Poleward edge of the Hadley cell, degrees.
    pub(crate) hadley_deg: f64,
    /// Poleward edge of the Ferrel cell, degrees.
    pub(crate) ferrel_deg: f64,
}

impl Atmosphere {
    pub(crate) fn new(axial_tilt_deg: f64, solar_intensity: f64, humidity_global: f64) -> Self {
        let tilt = axial_tilt_deg.abs();
        // The cells widen with the seasonal swing of the sun (the Hadley
        // cell reaches further on tilted planets, GCM studies of
        // obliquity); clamped so the three cells keep at least 15° each.
        let hadley = (30.0 + 0.35 * (tilt - 23.44)).clamp(15.0, 45.0);
        let ferrel = (60.0 + 0.2 * (tilt - 23.44)).clamp(hadley + 15.0, 75.0);
        Atmosphere {
            insolation: insolation::table(tilt),
            mean_c: EARTH_MEAN_K * solar_intensity.sqrt().sqrt() - 273.15,
            contrast_c: CONTRAST_C * solar_intensity,
            sea_humidity: 0.1 + 1.4 * humidity_global,
            hadley_deg: hadley,
            ferrel_deg: ferrel,
        }
    }

    /// Sea-level mean annual temperature at direction `d` with
    /// continentality `c` (0 at sea, towards 1 deep inland), °C.
    pub(crate) fn sea_level_temperature(&self, d: Dir, c: f64) -> f64 {
        let lat = libm::asin(d[2].clamp(-1.0, 1.0)).to_degrees().abs();
        let t = self.mean_c + self.contrast_c * (insolation::at(&self.insolation, lat) - 1.0);
        let a = t - PIVOT_C;
        let k = if a < 0.0 {
            CONTINENTAL_COLD
        } else {
            CONTINENTAL_WARM
        };
        t + (c - CONTINENTAL_NEUTRAL) * k * a
    }

    /// The cell coordinate of a latitude: 0 at the equator, 30 at the
    /// Hadley cell's edge, 60 at the Ferrel cell's, 90 at the pole.
    pub(crate) fn cell_coordinate(&self, sin_lat: f64) -> f64 {
        let lat = libm::asin(sin_lat.clamp(-1.0, 1.0)).to_degrees().abs();
        let (h, f) = (self.hadley_deg, self.ferrel_deg);
        if lat <= h {
            30.0 * lat / h
        } else if lat <= f {
            30.0 + 30.0 * (lat - h) / (f - h)
        } else {
            60.0 + 30.0 * (lat - f) / (90.0 - f)
        }
    }

    /// Where air rises (1: the equator and the polar front) or sinks (0:
    /// the subtropical highs and the poles): `(1 + cos 6ψ)/2` of the cell
    /// coordinate ψ.
    pub(crate) fn uplift(&self, sin_lat: f64) -> f64 {
        let psi = self.cell_coordinate(sin_lat).to_radians();
        0.5 * (1.0 + libm::cos(6.0 * psi))
    }

    /// The surface wind at `d`: a unit tangent vector downwind, and its
    /// relative strength in 0..=1. Trades blow from the east and towards
    /// the equator, westerlies from the west and towards the pole, polar
    /// easterlies from the east and towards the equator (the meridional
    /// part is half the zonal one).
    pub fn wind(&self, d: Dir) -> (Dir, f64) {
        let psi = self.cell_coordinate(d[2]).to_radians();
        let s = -libm::sin(6.0 * psi);
        let h = (d[0] * d[0] + d[1] * d[1]).sqrt();
        let (east, north) = if h < 1e-9 {
            ([0.0, 1.0, 0.0], [-1.0, 0.0, 0.0])
        } else {
            let e = [-d[1] / h, d[0] / h, 0.0];
            (e, crate::geo::cross(d, e))
        };
        let hemisphere = if d[2] < 0.0 { -1.0 } else { 1.0 };
        let (u, v) = (s, 0.5 * s * hemisphere);
        let norm = (u * u + v * v).sqrt().max(1e-12);
        let w = [0, 1, 2].map(|i| (u * east[i] + v * north[i]) / norm);
        (w, s.abs())
    }

    /// Air temperature at height `h` metres over sea-level temperature
    /// `t_sea` (the sea surface for negative heights).
    pub(crate) fn air_temperature(t_sea: f64, h: f64) -> f64 {
        t_sea - f64::from(LAPSE_RATE_C_PER_M) * h.max(0.0)
    }
}

/// Saturation specific humidity relative to that at 0 °C (Magnus's form of
/// Clausius–Clapeyron: about 7 % per kelvin).
pub(crate) fn saturation(t_c: f64) -> f64 {
    let t = t_c.max(-80.0);
    libm::exp(17.625 * t / (t + 243.04))
}

/// Potential evapotranspiration, mm/yr (Holdridge: 58.93 × biotemperature,
/// the mean temperature held in 0..=30 °C).
pub(crate) fn pet(t_c: f64) -> f64 {
    PET_PER_C * t_c.clamp(0.0, 30.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earth_temperatures_and_winds() {
        let a = Atmosphere::new(23.44, 1.0, 0.5);
        let eq = a.sea_level_temperature([1.0, 0.0, 0.0], CONTINENTAL_NEUTRAL);
        let pole = a.sea_level_temperature([0.0, 0.0, 1.0], CONTINENTAL_NEUTRAL);
        assert!((eq - 28.0).abs() < 1.5, "{eq}");
        assert!((pole + 15.0).abs() < 2.0, "{pole}");
        // Inland at high latitude is colder than the coast.
        let d = crate::LatLon {
            lat: 65.0,
            lon: 0.0,
        }
        .to_dir();
        let (coast, inland) = (
            a.sea_level_temperature(d, 0.0),
            a.sea_level_temperature(d, 1.0),
        );
        assert!(coast - inland > 6.0, "{coast} {inland}");
        // Westerlies at 45° N blow towards the east, trades at 15° N west.
        let (w, _) = a.wind(
            crate::LatLon {
                lat: 45.0,
                lon: 0.0,
            }
            .to_dir(),
        );
        assert!(w[1] > 0.8, "{w:?}");
        let (w, _) = a.wind(
            crate::LatLon {
                lat: 15.0,
                lon: 0.0,
            }
            .to_dir(),
        );
        assert!(w[1] < -0.8 && w[2] < 0.0, "{w:?}");
        let (w, _) = a.wind(
            crate::LatLon {
                lat: -15.0,
                lon: 0.0,
            }
            .to_dir(),
        );
        assert!(w[1] < -0.8 && w[2] > 0.0, "{w:?}");
        // More tilt pushes the Hadley cell's edge poleward.
        assert!(Atmosphere::new(45.0, 1.0, 0.5).hadley_deg > a.hadley_deg);
    }
}
