//! The JSON shape of a grid: `{"width", "height", "features", "flags"}`,
//! with `features` the row-major feature names and `flags` the row-major
//! lists of flag names (in bit order).

use crate::grid::Grid;
use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

/// Serialises a grid in the documented JSON shape (borrowing the grid).
#[derive(Clone, Copy, Debug)]
pub struct GridJson<'a>(pub &'a Grid);

struct Features<'a>(&'a Grid);
struct FlagLists<'a>(&'a Grid);

impl Serialize for Features<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.cells().len()))?;
        for c in self.0.cells() {
            seq.serialize_element(c.feature.name())?;
        }
        seq.end()
    }
}

impl Serialize for FlagLists<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.cells().len()))?;
        for c in self.0.cells() {
            seq.serialize_element(&c.flags.names())?;
        }
        seq.end()
    }
}

impl Serialize for GridJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Grid", 4)?;
        st.serialize_field("width", &self.0.width())?;
        st.serialize_field("height", &self.0.height())?;
        st.serialize_field("features", &Features(self.0))?;
        st.serialize_field("flags", &FlagLists(self.0))?;
        st.end()
    }
}

impl Serialize for Grid {
    /// The same shape as [`GridJson`].
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        GridJson(self).serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Feature, Flags, Pos};

    #[test]
    fn shape_is_exact() {
        let mut g = Grid::new(2, 1);
        g.place(Pos::new(1, 0), Feature::MossFloor, Flags::FLOOR);
        g.cell_mut(Pos::new(1, 0))
            .flags
            .insert(Flags::ROOM | Flags::GLOW);
        let v = serde_json::to_value(GridJson(&g)).unwrap();
        let want = serde_json::json!({
            "width": 2, "height": 1,
            "features": ["granite", "moss_floor"],
            "flags": [["extra"], ["glow", "room", "floor"]],
        });
        assert_eq!(v, want);
        assert_eq!(serde_json::to_value(&g).unwrap(), want);
    }
}
