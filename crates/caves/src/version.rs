//! The cave generator's versions: what each one changed, and the one
//! choice they differ by so far (the lattice hash of the noise core).
//!
//! Every version stays generated side by side, so a URL or a saved world
//! pinned to a version keeps its bytes; new content takes
//! [`Version::DEFAULT`]. A version number that this build no longer
//! produces is refused by name ([`Version::from_code`]), never answered
//! with another version's world.

use mangekyo_core::noise::LatticeHash;

use crate::error::CaveError;

/// A cave generator version.
///
/// - 1 (no longer generated): the worm noise sampled at every voxel;
///   terms in f64.
/// - [`Version::V2`]: the worm noise sampled on a global lattice (every 4
///   voxels at the defaults) and blended trilinearly ([`crate::lattice`]);
///   terms in f32; min/max by comparison (fixed zero signs); surface-nets
///   offsets rounded by the 2⁻¹⁶ quantiser, normals scaled by a
///   reciprocal; blocky sky bytes rounded by truncating `x + ½`. Caves
///   keep their places and shapes to within about a voxel of version 1.
/// - [`Version::V3`]: version 2 on the noise core's lattice hash 2 (one
///   multiply per corner instead of fmix32's two, cells in i32 on the fast
///   route). Every formula is version 2's; the worms, surface and
///   entrances are new draws of the same statistics, so a seed's caves
///   move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Version {
    /// The worm lattice on lattice hash 1.
    V2,
    /// The worm lattice on lattice hash 2.
    V3,
}

impl Version {
    /// Every version this build generates, oldest first.
    pub const ALL: [Version; 2] = [Version::V2, Version::V3];

    /// The version new content is made with (and an unpinned URL gets).
    pub const DEFAULT: Version = Version::V3;

    /// The number URLs (`v=`), wire headers and manifests carry.
    pub const fn code(self) -> u32 {
        match self {
            Version::V2 => 2,
            Version::V3 => 3,
        }
    }

    /// The version numbered `code`, or a refusal that lists the numbers
    /// this build generates.
    pub fn from_code(code: u64) -> Result<Version, CaveError> {
        Version::ALL
            .into_iter()
            .find(|v| u64::from(v.code()) == code)
            .ok_or_else(|| {
                CaveError::Param(mangekyo_core::ParamError::new(
                    "v",
                    code,
                    Version::expected(),
                ))
            })
    }

    /// The numbers this build generates, as a refusal names them.
    pub fn expected() -> String {
        let codes: Vec<String> = Version::ALL.iter().map(|v| v.code().to_string()).collect();
        format!(
            "a caves generator version this build runs: {}",
            codes.join(", ")
        )
    }

    /// The lattice hash behind every noise of this version.
    pub(crate) const fn hash(self) -> LatticeHash {
        match self {
            // Released on hash 1: its bytes keep it.
            Version::V2 => LatticeHash::Hash1,
            Version::V3 => LatticeHash::Hash2,
        }
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_unknown_ones_are_refused_by_name() {
        for v in Version::ALL {
            assert_eq!(Version::from_code(u64::from(v.code())), Ok(v));
        }
        for bad in [0, 1, 4, u64::MAX] {
            let e = Version::from_code(bad).unwrap_err().to_string();
            assert!(e.contains("`v`") && e.contains("2, 3"), "{e}");
        }
        assert_eq!(Version::DEFAULT, *Version::ALL.last().unwrap());
    }

    #[test]
    fn released_versions_keep_their_hash() {
        assert_eq!(Version::V2.hash(), LatticeHash::Hash1);
        assert_eq!(Version::V3.hash(), LatticeHash::Hash2);
    }
}
