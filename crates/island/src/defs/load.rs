//! Loading definitions from `(name, text)` pairs. Nothing here reads files:
//! the CLI reads them, the server takes posted text, tests use strings.

use super::Definitions;
use super::parse::{Draft, FileParser};
use crate::error::{Diagnostic, LoadError};
use mangekyo_defs::read::Reader;

/// Collects YAML sources one by one, then checks the whole set.
///
/// ```
/// use mangekyo_island::DefinitionsLoader;
/// let mut loader = DefinitionsLoader::new();
/// for (name, text) in mangekyo_island::example::sources() {
///     loader.add_source(name, text);
/// }
/// let defs = loader.finish().expect("the example world is valid");
/// assert!(defs.scopes().contains_key("island"));
/// ```
#[derive(Default)]
pub struct DefinitionsLoader {
    draft: Draft,
    files: Vec<String>,
    /// Sources that are not YAML at all: reported before everything else,
    /// since every other problem may follow from them.
    syntax: Vec<Diagnostic>,
}

impl std::fmt::Debug for DefinitionsLoader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DefinitionsLoader")
            .field("files", &self.files)
            .finish_non_exhaustive()
    }
}

impl DefinitionsLoader {
    /// An empty loader.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one source. Problems are collected, not returned: [`Self::finish`]
    /// reports every one of them.
    pub fn add_source(&mut self, name: &str, text: &str) -> &mut Self {
        self.files.push(name.to_string());
        let mut parser = FileParser {
            draft: &mut self.draft,
            r: Reader::new(name, text),
        };
        match mangekyo_defs::yaml::parse(text) {
            Ok(root) => parser.file(&root),
            Err(e) => {
                let d = parser.r.diagnostic(
                    e.line,
                    e.column,
                    "",
                    format!("invalid YAML: {}", e.message),
                );
                self.syntax.push(d);
            }
        }
        let diags = std::mem::take(&mut parser.r.diags);
        self.draft.diags.extend(diags);
        self
    }

    /// Checks cross-references and feasibility over everything added.
    pub fn finish(self) -> Result<Definitions, LoadError> {
        let mut draft = self.draft;
        let mut diags = std::mem::take(&mut draft.diags);
        if draft.object_defs.is_empty()
            && draft.location_types.is_empty()
            && draft.scopes.is_empty()
            && diags.is_empty()
            && self.syntax.is_empty()
        {
            diags.push(Diagnostic {
                file: self.files.first().cloned().unwrap_or_else(|| "<no sources>".into()),
                line: 0,
                column: 0,
                path: String::new(),
                message: "no definitions were loaded (expected object_defs, axes, location_types, generation_scopes)".into(),
                source_line: None,
            });
        }
        let (defs, more) = super::resolve::resolve(draft);
        diags.extend(more);
        if diags.is_empty() && self.syntax.is_empty() {
            return Ok(defs);
        }
        let order = |d: &Diagnostic| {
            self.files
                .iter()
                .position(|f| *f == d.file)
                .unwrap_or(usize::MAX)
        };
        diags.sort_by_key(|d| (order(d), d.line, d.column));
        diags.dedup();
        let mut all = self.syntax;
        all.extend(diags);
        Err(LoadError { diagnostics: all })
    }
}

/// Loads a set of `(name, text)` sources in one call.
///
/// ```
/// let defs = mangekyo_island::load_definitions(mangekyo_island::example::sources()).unwrap();
/// assert!(defs.location_types().len() >= 8);
/// ```
pub fn load_definitions<'a>(
    sources: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<Definitions, LoadError> {
    let mut loader = DefinitionsLoader::new();
    for (name, text) in sources {
        loader.add_source(name, text);
    }
    loader.finish()
}
