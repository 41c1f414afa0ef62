//! Localisation: turns a [`LocationName`] (type, variant, ordinal) into text.

use crate::map::LocationName;
use std::collections::BTreeMap;

/// The ordinal pattern used when a language gives none: `{name}` is the
/// type's name, `{n}` the ordinal.
pub const DEFAULT_ORDINAL_PATTERN: &str = "{name} {n}";

/// The names one language gives one location type.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TypeNames {
    /// The type's name, e.g. "Harbor".
    pub name: Option<String>,
    /// Variant names by variant id.
    pub variants: BTreeMap<String, String>,
}

/// One language's strings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Language {
    /// Pattern for ordinal names (`{name}`, `{n}`).
    pub ordinal: Option<String>,
    /// Names by location type.
    pub location_types: BTreeMap<String, TypeNames>,
}

/// Every language's strings, by language code (`en`, `ja`, …).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Localization {
    pub(crate) languages: BTreeMap<String, Language>,
}

impl Localization {
    /// Languages by code.
    pub fn languages(&self) -> &BTreeMap<String, Language> {
        &self.languages
    }

    /// The text of `name` in `lang`. Missing strings fall back to the
    /// identifiers (`forest`, `forest/birch`), which `check` reports; an
    /// unknown language falls back entirely to identifiers.
    pub fn label(&self, lang: &str, name: &LocationName) -> String {
        let language = self.languages.get(lang);
        let names = language.and_then(|l| l.location_types.get(&name.location_type));
        let type_name = names
            .and_then(|n| n.name.clone())
            .unwrap_or_else(|| name.location_type.clone());
        if let Some(variant) = &name.variant {
            return names
                .and_then(|n| n.variants.get(variant).cloned())
                .unwrap_or_else(|| format!("{}/{}", name.location_type, variant));
        }
        match name.ordinal {
            Some(n) => language
                .and_then(|l| l.ordinal.as_deref())
                .unwrap_or(DEFAULT_ORDINAL_PATTERN)
                .replace("{name}", &type_name)
                .replace("{n}", &n.to_string()),
            None => type_name,
        }
    }

    /// Strings a complete translation would have but `lang` lacks, as
    /// `location_types.forest.variants.birch`-style paths.
    pub fn missing(&self, lang: &str, defs: &crate::Definitions) -> Vec<String> {
        let language = self.languages.get(lang);
        let mut out = Vec::new();
        for (ty, def) in defs.location_types() {
            let names = language.and_then(|l| l.location_types.get(ty));
            if names.and_then(|n| n.name.as_ref()).is_none() {
                out.push(format!("location_types.{ty}.name"));
            }
            for v in &def.variants {
                if names.and_then(|n| n.variants.get(&v.id)).is_none() {
                    out.push(format!("location_types.{ty}.variants.{}", v.id));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc() -> Localization {
        let mut types = BTreeMap::new();
        types.insert(
            "forest".to_string(),
            TypeNames {
                name: Some("Forest".into()),
                variants: [("birch".to_string(), "Birch Wood".to_string())].into(),
            },
        );
        let en = Language {
            ordinal: None,
            location_types: types,
        };
        Localization {
            languages: [("en".to_string(), en)].into(),
        }
    }

    fn name(variant: Option<&str>, ordinal: Option<u32>) -> LocationName {
        LocationName {
            location_type: "forest".into(),
            variant: variant.map(Into::into),
            ordinal,
        }
    }

    #[test]
    fn labels_by_type_variant_and_ordinal() {
        let l = loc();
        assert_eq!(l.label("en", &name(None, None)), "Forest");
        assert_eq!(l.label("en", &name(Some("birch"), None)), "Birch Wood");
        assert_eq!(l.label("en", &name(None, Some(2))), "Forest 2");
    }

    #[test]
    fn missing_strings_fall_back_to_identifiers() {
        let l = loc();
        assert_eq!(l.label("en", &name(Some("cedar"), None)), "forest/cedar");
        assert_eq!(l.label("xx", &name(None, None)), "forest");
    }
}
