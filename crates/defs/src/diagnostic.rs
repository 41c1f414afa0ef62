//! One problem in a definition set: file, line, column, key path and
//! message, with the source line for a caret display. Every reader of the
//! definitions language (object defs here, the island's sections in
//! `mangekyo-island`) reports in this form.

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
