//! Errors: definition diagnostics (file, line, column, key path, message) and
//! generation errors.

use std::fmt;

/// One problem found in the definitions (the definitions language's own
/// form, `mangekyo_defs::Diagnostic`, so every section of a file reports
/// alike).
pub use mangekyo_defs::Diagnostic;

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
    /// The caller's `keep_going` check answered `false`
    /// ([`crate::generate_island_cancellable`]): generation stopped early
    /// and nothing came of it.
    #[error("generation was cancelled before it finished")]
    Cancelled,
}
