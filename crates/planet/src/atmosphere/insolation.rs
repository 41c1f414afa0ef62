//! Annual-mean insolation by latitude for an axial tilt: the daily mean
//! of a circular orbit averaged over the year, relative to the planet's
//! mean (S₀/4), tabulated every degree of latitude once per planet.

/// Entries of the table: 0° to 90° of absolute latitude (a circular orbit
/// lights both hemispheres alike over a year).
pub(crate) const ROWS: usize = 91;

/// Orbital positions averaged per entry (midpoints; the integrand is
/// smooth, so 720 points are exact to far below f32).
const STEPS: usize = 720;

/// The daily-mean insolation at latitude `lat` (radians) on a day of solar
/// declination `decl`, relative to S₀/4: `(4/π)(H sinφ sinδ + cosφ cosδ sin H)`
/// with the hour angle of sunset `cos H = −tan φ tan δ` (0 in polar
/// night, π in polar day).
fn daily(lat: f64, decl: f64) -> f64 {
    let (sp, cp) = (libm::sin(lat), libm::cos(lat));
    let (sd, cd) = (libm::sin(decl), libm::cos(decl));
    let (a, b) = (sp * sd, cp * cd);
    let hour = if b <= 1e-12 || a >= b {
        if a > 0.0 { std::f64::consts::PI } else { 0.0 }
    } else if -a >= b {
        0.0
    } else {
        libm::acos(-a / b)
    };
    4.0 / std::f64::consts::PI * (hour * a + b * libm::sin(hour))
}

/// The table for a tilt in degrees: entry `i` is the annual mean at
/// latitude `i`°, relative to the planet's mean.
pub(crate) fn table(tilt_deg: f64) -> [f64; ROWS] {
    let eps = tilt_deg.abs().to_radians();
    let mut out = [0.0; ROWS];
    for (i, q) in out.iter_mut().enumerate() {
        let lat = (i as f64).to_radians();
        let mut sum = 0.0;
        for s in 0..STEPS {
            let lambda = 2.0 * std::f64::consts::PI * (s as f64 + 0.5) / STEPS as f64;
            let decl = libm::asin(libm::sin(eps) * libm::sin(lambda));
            sum += daily(lat, decl);
        }
        *q = sum / STEPS as f64;
    }
    out
}

/// The table at absolute latitude `deg` (0 ..= 90), linearly between
/// entries.
pub(crate) fn at(table: &[f64; ROWS], deg: f64) -> f64 {
    let x = deg.clamp(0.0, 90.0);
    let i = (x.floor() as usize).min(ROWS - 2);
    let t = x - i as f64;
    table[i] + (table[i + 1] - table[i]) * t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earth_insolation_matches_the_textbook_curve() {
        let q = table(23.44);
        // Annual means (W/m² over 340.2): equator ≈ 417, poles ≈ 173.
        assert!((q[0] * 340.2 - 417.0).abs() < 4.0, "{}", q[0] * 340.2);
        assert!((q[90] * 340.2 - 173.0).abs() < 4.0, "{}", q[90] * 340.2);
        // Area-weighted mean over the sphere is 1 (S₀/4) by definition.
        let mut mean = 0.0;
        for i in 0..900 {
            let lat = (i as f64 + 0.5) / 10.0;
            mean += at(&q, lat) * libm::cos(lat.to_radians()) * (0.1f64.to_radians());
        }
        assert!((mean - 1.0).abs() < 2e-3, "{mean}");
    }

    #[test]
    fn a_planet_on_its_side_has_warm_poles() {
        let q = table(90.0);
        assert!(q[90] > q[0] * 1.5, "{} {}", q[90], q[0]);
        let upright = table(0.0);
        assert_eq!(upright[90], 0.0);
    }
}
