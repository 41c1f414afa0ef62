//! The names of the meshers and of a chunk's formats, written once: the
//! service's `mesher=`/`format=`, the WebAssembly package's arguments and
//! the CLI's `--mesher` and output extensions all parse and print them
//! through [`MeshKind`]'s and [`CaveFormat`]'s `name` and `FromStr`, so a
//! new mesher or format is one entry here, not a match per surface.

use crate::mesh::MeshKind;
use mangekyo_core::ParamError;

impl MeshKind {
    /// Every mesher, in the order surfaces list them (the default first).
    pub const ALL: [MeshKind; 2] = [MeshKind::Smooth, MeshKind::Blocky];

    /// Every mesher's name, as refusals and help texts list them.
    pub const EXPECTED: &'static str = "one of smooth, blocky";

    /// The name: `smooth` or `blocky` (also its JSON form).
    pub fn name(self) -> &'static str {
        match self {
            MeshKind::Smooth => "smooth",
            MeshKind::Blocky => "blocky",
        }
    }
}

impl std::fmt::Display for MeshKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for MeshKind {
    type Err = ParamError;

    /// A name; the error names `mesher` and every name.
    fn from_str(text: &str) -> Result<MeshKind, ParamError> {
        MeshKind::ALL
            .into_iter()
            .find(|k| k.name() == text)
            .ok_or_else(|| ParamError::new("mesher", format!("{text:?}"), MeshKind::EXPECTED))
    }
}

/// What one cave chunk is handed out as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CaveFormat {
    /// The viewer's mesh (`MKCM`, [`crate::wire::encode_mesh`]).
    #[default]
    Mesh,
    /// The viewer's density block (`MKCD`, [`crate::wire::encode_chunk_density`]).
    Density,
    /// glTF binary (`mangekyo-formats`' `cave_models`, one node per chunk).
    Glb,
}

impl CaveFormat {
    /// Every format, in the order surfaces list them (the default first).
    pub const ALL: [CaveFormat; 3] = [CaveFormat::Mesh, CaveFormat::Density, CaveFormat::Glb];

    /// Every format's name, as refusals and help texts list them.
    pub const EXPECTED: &'static str = "one of mesh, density, glb";

    /// The name: `mesh`, `density` or `glb`.
    pub fn name(self) -> &'static str {
        match self {
            CaveFormat::Mesh => "mesh",
            CaveFormat::Density => "density",
            CaveFormat::Glb => "glb",
        }
    }

    /// The file extension the CLI writes it under: `mkcm`, `mkcd` or `glb`.
    pub fn extension(self) -> &'static str {
        match self {
            CaveFormat::Mesh => "mkcm",
            CaveFormat::Density => "mkcd",
            CaveFormat::Glb => "glb",
        }
    }

    /// The format a file extension (lower case, no dot) names, if any.
    pub fn from_extension(ext: &str) -> Option<CaveFormat> {
        CaveFormat::ALL.into_iter().find(|f| f.extension() == ext)
    }
}

impl std::fmt::Display for CaveFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for CaveFormat {
    type Err = ParamError;

    /// A name; the error names `format` and every name.
    fn from_str(text: &str) -> Result<CaveFormat, ParamError> {
        CaveFormat::ALL
            .into_iter()
            .find(|f| f.name() == text)
            .ok_or_else(|| ParamError::new("format", format!("{text:?}"), CaveFormat::EXPECTED))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back_and_the_lists_name_them_all() {
        for k in MeshKind::ALL {
            assert_eq!(k.name().parse::<MeshKind>(), Ok(k));
            assert!(MeshKind::EXPECTED.contains(k.name()));
            // The JSON form (CaveParams, wire docs) is the same name.
            assert_eq!(serde_json::to_value(k).unwrap(), k.name());
        }
        for f in CaveFormat::ALL {
            assert_eq!(f.name().parse::<CaveFormat>(), Ok(f));
            assert_eq!(CaveFormat::from_extension(f.extension()), Some(f));
            assert!(CaveFormat::EXPECTED.contains(f.name()));
        }
        assert_eq!(MeshKind::ALL[0], MeshKind::default());
        assert_eq!(CaveFormat::ALL[0], CaveFormat::default());
    }

    #[test]
    fn unknown_names_are_refused_by_parameter() {
        let e = "voxel".parse::<MeshKind>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "mesher must be one of smooth, blocky, got \"voxel\""
        );
        let e = "obj".parse::<CaveFormat>().unwrap_err();
        assert_eq!(e.name, "format");
        assert_eq!(CaveFormat::from_extension("obj"), None);
    }
}
