//! Great circles and tangent planes for the tests that walk transects
//! and grids across the planet (coasts, plate boundaries).

use mangekyo_planet::Dir;

pub(crate) fn unit(v: [f64; 3]) -> Dir {
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    [v[0] / n, v[1] / n, v[2] / n]
}

fn cross(a: Dir, b: Dir) -> Dir {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Two unit tangents at `d`, perpendicular to each other: `d` crossed
/// with an axis it is not near, and `d` crossed with that.
pub(crate) fn tangents(d: Dir) -> (Dir, Dir) {
    let axis = if d[2].abs() < 0.9 {
        [0.0, 0.0, 1.0]
    } else {
        [1.0, 0.0, 0.0]
    };
    let e = unit(cross(d, axis));
    (e, cross(d, e))
}

/// The point `metres` along the great circle from `start` in direction
/// `tangent` (a unit vector perpendicular to `start`).
pub(crate) fn along(start: Dir, tangent: Dir, metres: f64, radius: f64) -> Dir {
    let a = metres / radius;
    let (s, c) = (libm::sin(a), libm::cos(a));
    unit([
        start[0] * c + tangent[0] * s,
        start[1] * c + tangent[1] * s,
        start[2] * c + tangent[2] * s,
    ])
}
