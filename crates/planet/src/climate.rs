//! Mean annual temperature and humidity.
//!
//! Temperature follows the classic two-mode energy-balance climate (North,
//! 1975): sea-level temperature is `T0 + T2·P2(sin lat)`, where
//! `P2(x) = (3x² − 1)/2` and `T2` is proportional to the second Legendre
//! coefficient of the annual mean insolation, `S2 = −(5/8)·P2(cos tilt)`.
//! With Earth's tilt that gives 29 °C at the equator and −13 °C at the
//! poles; with no tilt the poles get colder, and beyond 54.7° they become
//! the warm regions. Solar intensity scales the radiative mean temperature
//! by its fourth root and the pole–equator contrast linearly. Then the air
//! cools with height at the standard lapse rate.

/// Earth's mean surface temperature with its present sunlight, K (North's
/// fit, 14.97 °C).
pub(crate) const EARTH_MEAN_K: f64 = 288.12;
/// Pole–equator contrast per unit of insolation's second Legendre
/// coefficient, °C: North's fitted `T2 = −28.0 °C` over Earth's
/// `S2 = −0.477`.
pub(crate) const CONTRAST_PER_S2_C: f64 = 58.7;
/// Cooling with height, °C per metre (the standard atmosphere's 6.5 K/km).
pub(crate) const LAPSE_RATE_C_PER_M: f32 = 0.0065;
/// Amplitude of the temperature noise, °C: regional anomalies of a few degrees.
pub(crate) const TEMPERATURE_NOISE_C: f32 = 3.0;

/// The latitude-only part of the climate of one planet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Climate {
    mean_c: f64,
    contrast_c: f64,
    humidity_global: f32,
}

/// The second Legendre polynomial.
#[inline]
fn p2(x: f64) -> f64 {
    (3.0 * x * x - 1.0) * 0.5
}

impl Climate {
    pub(crate) fn new(axial_tilt_deg: f64, solar_intensity: f64, humidity_global: f64) -> Climate {
        let s2 = -0.625 * p2(libm::cos(axial_tilt_deg.to_radians()));
        let mean_k = EARTH_MEAN_K * solar_intensity.sqrt().sqrt();
        Climate {
            mean_c: mean_k - 273.15,
            contrast_c: CONTRAST_PER_S2_C * solar_intensity * s2,
            humidity_global: humidity_global as f32,
        }
    }

    /// Sea-level mean annual temperature at `sin_lat`, °C.
    #[inline]
    pub(crate) fn sea_level_temperature(&self, sin_lat: f64) -> f32 {
        (self.mean_c + self.contrast_c * p2(sin_lat)) as f32
    }

    /// Temperature at a height (metres; the sea surface for negative
    /// heights) with a noise anomaly `noise` in about `[-1, 1]`.
    #[inline]
    pub(crate) fn temperature(&self, sin_lat: f64, height: f32, noise: f32) -> f32 {
        self.sea_level_temperature(sin_lat) - LAPSE_RATE_C_PER_M * height.max(0.0)
            + TEMPERATURE_NOISE_C * noise
    }

    /// Humidity in `[0, 1]` from the planet's overall wetness, nearness to
    /// the ocean (`near`, 1 at sea, 0 deep inland), the circulation cells
    /// of latitude and a noise anomaly.
    #[inline]
    pub(crate) fn humidity(&self, sin_lat: f64, near: f32, noise: f32) -> f32 {
        let wet = 2.0 * self.humidity_global;
        let h = wet * (0.18 + 0.42 * near + 0.35 * circulation(sin_lat)) + 0.25 * noise;
        h.clamp(0.0, 1.0)
    }
}

/// Rain from the three circulation cells: wet where air rises (the
/// equator and about 60°), dry where it sinks (about 30° and the poles):
/// `(1 + cos 6·lat) / 2`, written as a polynomial of `cos² lat`.
#[inline]
fn circulation(sin_lat: f64) -> f32 {
    let c2 = 1.0 - sin_lat * sin_lat;
    // cos 6φ = 32c⁶ − 48c⁴ + 18c² − 1 with c = cos φ.
    let cos6 = ((32.0 * c2 - 48.0) * c2 + 18.0) * c2 - 1.0;
    (0.5 * (1.0 + cos6)) as f32
}

/// Nearness to the ocean from the land field (continent minus sea
/// threshold): 1 offshore, falling to 0 about a continent's half-width
/// inland.
#[inline]
pub(crate) fn ocean_nearness(land: f32) -> f32 {
    (0.7 - land / 0.25).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earth_climate_matches_north_1975() {
        let c = Climate::new(23.44, 1.0, 0.5);
        let eq = c.sea_level_temperature(0.0);
        let pole = c.sea_level_temperature(1.0);
        assert!((eq - 29.0).abs() < 0.6, "{eq}");
        assert!((pole + 13.0).abs() < 0.6, "{pole}");
    }

    #[test]
    fn tilt_and_sun_move_temperatures_the_right_way() {
        let earth = Climate::new(23.44, 1.0, 0.5);
        let upright = Climate::new(0.0, 1.0, 0.5);
        let sideways = Climate::new(90.0, 1.0, 0.5);
        assert!(upright.sea_level_temperature(1.0) < earth.sea_level_temperature(1.0));
        assert!(sideways.sea_level_temperature(1.0) > sideways.sea_level_temperature(0.0));
        let hot = Climate::new(23.44, 1.5, 0.5);
        assert!(hot.sea_level_temperature(0.5) > earth.sea_level_temperature(0.5) + 10.0);
        assert!(earth.temperature(0.0, 3000.0, 0.0) < earth.temperature(0.0, 0.0, 0.0) - 19.0);
    }

    #[test]
    fn circulation_is_wet_at_the_equator_and_dry_at_thirty_degrees() {
        let at = |deg: f64| circulation(libm::sin(deg.to_radians()));
        assert!(
            (at(0.0) - 1.0).abs() < 1e-6
                && at(30.0) < 1e-6
                && (at(60.0) - 1.0).abs() < 1e-6
                && at(90.0) < 1e-6
        );
    }
}
