//! What can go wrong: parameters outside what the algorithm supports, a
//! rectangle that does not fit its grid, or a cave that never succeeds.

use mangekyo_core::{ParamError, Refusal};

/// A dungeon generator refused its input or could not finish.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DungeonError {
    /// A parameter (named as the user wrote it) lies outside its allowed
    /// range (`min..=max`).
    #[error("{} must be in {}, got {}", .0.name, .0.expected, .0.value)]
    OutOfRange(ParamError),
    /// A size must be even: Hengband's caves are centred on a cell, with the
    /// same half-size on both sides.
    #[error("{param} must be even (a fractal cave spans centre ± size/2), got {got}")]
    NotEven {
        /// The parameter's name.
        param: &'static str,
        /// What was given.
        got: i64,
    },
    /// Every floor weight is zero, so no floor could ever be picked.
    #[error("floors: at least one of floor, dirt_floor, moss_floor must have a weight above 0")]
    EmptyFloorTable,
    /// The cave's rectangle does not lie on the grid it should be drawn in.
    #[error(
        "the {width}×{height} rectangle at x {xmin}..={xmax}, y {ymin}..={ymax} does not fit the {grid_width}×{grid_height} grid"
    )]
    RectOutsideGrid {
        /// West edge.
        xmin: i32,
        /// North edge.
        ymin: i32,
        /// East edge.
        xmax: i32,
        /// South edge.
        ymax: i32,
        /// Rectangle width.
        width: i32,
        /// Rectangle height.
        height: i32,
        /// Grid width.
        grid_width: usize,
        /// Grid height.
        grid_height: usize,
    },
    /// Hengband retries a failed cave forever; we stop after a fixed number
    /// of attempts so that hopeless parameters (a cutoff far too low) get an
    /// answer instead of a hang.
    #[error(
        "no {what} with at least 10 cells after {attempts} attempts: raise the cutoff (last tried {last_cutoff}) or the size"
    )]
    RetriesExhausted {
        /// What was being built ("fractal room", "cavern", "lake").
        what: &'static str,
        /// Attempts made.
        attempts: u32,
        /// The cutoff of the last attempt.
        last_cutoff: i32,
    },
}

impl Refusal for DungeonError {
    fn param(&self) -> Option<ParamError> {
        match self {
            DungeonError::OutOfRange(p) => Some(p.clone()),
            DungeonError::NotEven { param, got } => {
                Some(ParamError::new(*param, got, "an even number"))
            }
            DungeonError::EmptyFloorTable => Some(ParamError::new(
                "floors",
                "all weights 0",
                "at least one weight above 0",
            )),
            _ => None,
        }
    }
}

/// `Ok` when `min <= got <= max`, else [`DungeonError::OutOfRange`].
pub(crate) fn check_range(
    param: &'static str,
    got: i64,
    min: i64,
    max: i64,
) -> Result<(), DungeonError> {
    if (min..=max).contains(&got) {
        Ok(())
    } else {
        Err(DungeonError::OutOfRange(ParamError::new(
            param,
            got,
            format!("{min}..={max}"),
        )))
    }
}

/// Like [`check_range`], and the value must be even.
pub(crate) fn check_even_range(
    param: &'static str,
    got: i64,
    min: i64,
    max: i64,
) -> Result<(), DungeonError> {
    check_range(param, got, min, max)?;
    if got % 2 != 0 {
        return Err(DungeonError::NotEven { param, got });
    }
    Ok(())
}

/// [`check_range`] for an optional override: `None` always passes.
pub(crate) fn check_opt(
    param: &'static str,
    got: Option<u32>,
    min: i64,
    max: i64,
) -> Result<(), DungeonError> {
    got.map_or(Ok(()), |v| check_range(param, i64::from(v), min, max))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_parameter_and_range() {
        let e = check_range("grd", 0, 1, 254).unwrap_err();
        assert_eq!(e.to_string(), "grd must be in 1..=254, got 0");
        let e = check_even_range("width", 9, 8, 254).unwrap_err();
        assert_eq!(
            e.to_string(),
            "width must be even (a fractal cave spans centre ± size/2), got 9"
        );
        assert!(check_opt("cutoff", None, 1, 2).is_ok());
    }
}
