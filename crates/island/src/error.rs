//! Errors: definition diagnostics (file, line, column, key path, message) and
//! generation errors.

use std::fmt;

/// One problem found in the definitions, located as precisely as the YAML
/// allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The source name given to the loader (usually a file path).
    pub file: String,
    /// 1-based line; 0 when the problem has no single place (e.g. a scope
    /// whose guarantees cannot be met is reported at the scope's key).
    pub line: u32,
    /// 1-based column; 0 when unknown.
    pub column: u32,
    /// Dotted key path, e.g. `location_types.forest.hard_limits.elevtion`
    /// (list items as `guarantees[0]`).
    pub path: String,
    /// What is wrong and what was expected.
    pub message: String,
    /// The source line the position points into, for a caret display.
    pub source_line: Option<String>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.column)?;
        }
        if self.path.is_empty() {
            write!(f, ": {}", self.message)?;
        } else {
            write!(f, ": {}: {}", self.path, self.message)?;
        }
        if let Some(src) = &self.source_line {
            let gutter = self.line.to_string().len();
            let caret_at = src
                .chars()
                .take(self.column.saturating_sub(1) as usize)
                .count();
            write!(
                f,
                "\n{:gutter$} |\n{} | {}\n{:gutter$} | {}^",
                "",
                self.line,
                src,
                "",
                " ".repeat(caret_at)
            )?;
        }
        Ok(())
    }
}

/// Loading failed: every problem found, in file order then position order.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct LoadError {
    /// All diagnostics, never empty.
    pub diagnostics: Vec<Diagnostic>,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.diagnostics.len();
        writeln!(
            f,
            "{n} error{} in the island definitions:",
            if n == 1 { "" } else { "s" }
        )?;
        for d in &self.diagnostics {
            writeln!(f, "error: {d}")?;
        }
        Ok(())
    }
}

/// Generation could not produce an island from valid definitions.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The scope name is not defined.
    #[error("unknown generation scope '{name}'; known: {known}")]
    UnknownScope {
        /// The name asked for.
        name: String,
        /// The defined scope names, comma separated.
        known: String,
    },
    /// No location type accepts a site and no fallback type exists. Loading
    /// rules this out whenever the hard-limit boxes are small enough to
    /// check exhaustively; this error covers the rest.
    #[error("site {site} ({axes}) is accepted by no location type and there is no fallback type")]
    NoTypeAccepts {
        /// The site id.
        site: u32,
        /// Its axis values, `name=value` comma separated.
        axes: String,
    },
    /// A noise layer's parameters were refused by the noise core.
    #[error("noise layer: {0}")]
    Noise(String),
    /// The triangulation left a site out (only possible for coincident or
    /// extreme coordinates, which placement never produces).
    #[error("triangulation failed: {0}")]
    Triangulation(String),
}
