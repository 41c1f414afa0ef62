//! Precipitation by back-trajectory (§2.4): from a point, march upwind
//! [`STEPS`] steps, then carry a parcel of air back downwind. Over the sea
//! it evaporates towards saturation; over land it recycles a little; it
//! rains a fraction of what it holds (more where air rises: the equator
//! and the polar front) and all it holds beyond saturation at the ground's
//! height (orographic rain). A range wrings the air out on its windward
//! side and leaves a rain shadow behind. Each point is computed alone (a
//! pure gather, no global order), so the field is the same on any number
//! of threads.

use super::{Atmosphere, saturation};
use crate::geo::Dir;

/// Steps of the march upwind.
pub(crate) const STEPS: usize = 48;
/// A full step, radians of arc (100 km on Earth; planets of other sizes
/// keep Earth's proportions, as their terrain does).
pub(crate) const STEP: f64 = 0.0157;
/// Shortest step, as a fraction of [`STEP`], where the wind is calm (the
/// cells' edges): air there comes from close by.
const CALM: f64 = 0.3;
/// Fraction of the gap to saturation the sea evaporates per step.
const SEA_EVAPORATION: f64 = 0.3;
/// Land recycles moisture (evapotranspiration) up to this fraction of
/// the sea's target …
const RECYCLED: f64 = 0.3;
/// … closing this fraction of the gap per step.
const LAND_EVAPORATION: f64 = 0.04;
/// Fraction of the moisture that rains per step where air neither rises
/// nor sinks …
const BACKGROUND_RAIN: f64 = 0.05;
/// … of which this much still falls where air sinks (subtropical highs).
const SINKING_FLOOR: f64 = 0.25;
/// Fraction of the moisture beyond saturation that rains out per step.
const OROGRAPHIC_RAIN: f64 = 0.7;
/// mm/yr per unit of rain per full step (calibrated so Earth-like
/// parameters give about 1000 mm/yr over the whole sphere).
pub(crate) const MM_PER_RAIN: f64 = 15000.0;
/// Precipitation never falls below this, mm/yr (dew and fog in the
/// driest deserts), so its logarithm is finite.
pub(crate) const FLOOR_MM: f64 = 5.0;

/// What the air passes over: ground height in metres (negative: sea) and
/// the sea-level temperature in °C at a direction.
pub(crate) trait Ground: Sync {
    fn at(&self, d: Dir) -> (f64, f64);
}

fn normalise(v: Dir) -> Dir {
    let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    [v[0] / l, v[1] / l, v[2] / l]
}

/// Mean annual precipitation at `d`, mm/yr.
pub(crate) fn precipitation(atm: &Atmosphere, ground: &dyn Ground, d: Dir) -> f64 {
    let mut path = [([0.0; 3], 0.0); STEPS + 1];
    let mut p = d;
    for slot in path.iter_mut() {
        let (w, strength) = atm.wind(p);
        let f = strength.max(CALM);
        *slot = (p, f);
        let a = STEP * f;
        p = normalise([p[0] - a * w[0], p[1] - a * w[1], p[2] - a * w[2]]);
    }
    let rh = atm.sea_humidity;
    let (h, t) = ground.at(path[STEPS].0);
    let mut q = rh * saturation(t) * if h < 0.0 { 1.0 } else { RECYCLED };
    let mut rain = 0.0;
    for &(p, f) in path[..STEPS].iter().rev() {
        let (h, t_sea) = ground.at(p);
        if h < 0.0 {
            q += (rh * saturation(t_sea) - q) * (SEA_EVAPORATION * f).min(1.0);
        } else {
            let target = RECYCLED * rh * saturation(t_sea);
            if q < target {
                q += (target - q) * LAND_EVAPORATION * f;
            }
        }
        let cap = saturation(Atmosphere::air_temperature(t_sea, h));
        let orographic = (q - cap).max(0.0) * OROGRAPHIC_RAIN;
        let rising = SINKING_FLOOR + (1.0 - SINKING_FLOOR) * atm.uplift(p[2]);
        let background = BACKGROUND_RAIN * rising * f * (q - orographic);
        rain = (orographic + background) / f;
        q -= orographic + background;
    }
    MM_PER_RAIN * rain + FLOOR_MM
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LatLon;

    /// Sea west of 10° W, a north–south ridge 3 km high and 4° wide
    /// centred on 0°, land to 40° E, then sea.
    struct Ridge;

    impl Ground for Ridge {
        fn at(&self, d: Dir) -> (f64, f64) {
            let ll = LatLon::from_dir(d);
            let h = if ll.lon < -10.0 || ll.lon > 40.0 {
                -3000.0
            } else {
                let x = ll.lon / 2.0;
                200.0 + 2800.0 * libm::exp(-x * x)
            };
            (h, 30.0 - ll.lat.abs() / 3.0)
        }
    }

    #[test]
    fn a_ridge_under_westerlies_casts_a_rain_shadow() {
        let atm = Atmosphere::new(23.44, 1.0, 0.5);
        let at = |lon: f64| precipitation(&atm, &Ridge, LatLon { lat: 45.0, lon }.to_dir());
        let (windward, leeward) = (at(-2.5), at(3.5));
        assert!(
            windward >= 2.0 * leeward,
            "windward {windward} leeward {leeward}"
        );
        // Further inland it stays drier than the coast, and the sea is wet.
        assert!(at(-8.0) > at(20.0), "{} {}", at(-8.0), at(20.0));
        assert!(at(-20.0) > 500.0, "{}", at(-20.0));
    }
}
