//! Reading the YAML tree with error collection: every accessor records a
//! [`Diagnostic`] and returns `None` instead of stopping, so one pass reports
//! everything wrong in a file. Positions a later check (once every file is
//! in) must point at are kept as [`Spot`]s by key path.

use crate::yaml::{Node, Value};
use crate::{Diagnostic, Origin};
use std::collections::BTreeMap;

/// A position a later check may need to point at.
#[derive(Clone, Debug)]
pub struct Spot {
    /// The source name.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// The source line, for a caret display.
    pub source_line: Option<String>,
}

impl Spot {
    /// A diagnostic at this spot.
    pub fn diagnostic(&self, path: &str, message: String) -> Diagnostic {
        Diagnostic {
            file: self.file.clone(),
            line: self.line,
            column: self.column,
            path: path.to_string(),
            message,
            source_line: self.source_line.clone(),
        }
    }
}

/// Spots by key path (`object_defs.land.forest.interactions.explore`),
/// over every file of a set.
pub type Spots = BTreeMap<String, Spot>;

/// The per-file reading context: the file's name and lines, and the
/// diagnostics found so far.
#[derive(Debug)]
pub struct Reader<'s> {
    file: &'s str,
    lines: Vec<&'s str>,
    /// The problems found so far, in the order found.
    pub diags: Vec<Diagnostic>,
}

/// `path.key`, or `key` at the root.
pub fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// `path[i]`.
pub fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

impl<'s> Reader<'s> {
    /// A reader for one source.
    pub fn new(file: &'s str, text: &'s str) -> Self {
        Reader {
            file,
            lines: text.lines().collect(),
            diags: Vec::new(),
        }
    }

    /// The source name.
    pub fn file(&self) -> &'s str {
        self.file
    }

    /// Where `node` is, for a check that runs once every file is in.
    pub fn spot(&self, node: &Node) -> Spot {
        let d = self.diagnostic(node.line, node.column, "", String::new());
        Spot {
            file: d.file,
            line: d.line,
            column: d.column,
            source_line: d.source_line,
        }
    }

    /// The origin of a definition whose key is `node`.
    pub fn origin(&self, node: &Node) -> Origin {
        Origin {
            file: self.file.to_string(),
            line: node.line,
            column: node.column,
        }
    }

    /// A diagnostic at `(line, column)` with the source line attached.
    pub fn diagnostic(&self, line: u32, column: u32, path: &str, message: String) -> Diagnostic {
        let source_line = if line > 0 {
            self.lines.get(line as usize - 1).map(|l| l.to_string())
        } else {
            None
        };
        Diagnostic {
            file: self.file.to_string(),
            line,
            column,
            path: path.to_string(),
            message,
            source_line,
        }
    }

    /// Records a problem at `node`.
    pub fn error(&mut self, node: &Node, path: &str, message: impl Into<String>) {
        let d = self.diagnostic(node.line, node.column, path, message.into());
        self.diags.push(d);
    }

    /// The node as a mapping, or an error.
    pub fn map<'n>(&mut self, node: &'n Node, path: &str, what: &str) -> Option<Fields<'n>> {
        match &node.value {
            Value::Map(entries) => {
                let mut fields = Vec::with_capacity(entries.len());
                for (k, v) in entries {
                    match &k.value {
                        Value::Str(s) => fields.push(Field {
                            key: s.clone(),
                            key_node: k,
                            value: v,
                            used: false,
                        }),
                        other => self.error(
                            k,
                            path,
                            format!("keys must be names (strings), got {}", other.kind()),
                        ),
                    }
                }
                Some(Fields { node, fields })
            }
            other => {
                self.error(node, path, format!("expected {what}, got {}", other.kind()));
                None
            }
        }
    }

    /// The node as a list, or an error.
    pub fn seq<'n>(&mut self, node: &'n Node, path: &str, what: &str) -> Option<&'n [Node]> {
        match &node.value {
            Value::Seq(items) => Some(items),
            other => {
                self.error(node, path, format!("expected {what}, got {}", other.kind()));
                None
            }
        }
    }

    /// A non-empty string.
    pub fn string(&mut self, node: &Node, path: &str) -> Option<String> {
        match &node.value {
            Value::Str(s) if !s.trim().is_empty() => Some(s.clone()),
            Value::Str(_) => {
                self.error(node, path, "expected a name, got an empty string");
                None
            }
            other => {
                self.error(
                    node,
                    path,
                    format!("expected a string, got {}", other.kind()),
                );
                None
            }
        }
    }

    /// A finite number (integer or float).
    pub fn number(&mut self, node: &Node, path: &str) -> Option<f64> {
        match node.value {
            Value::Int(i) => Some(i as f64),
            Value::Float(f) => Some(f),
            ref other => {
                self.error(
                    node,
                    path,
                    format!("expected a number, got {}", other.kind()),
                );
                None
            }
        }
    }

    /// A number that must satisfy `ok`, described by `expected` otherwise
    /// (e.g. "> 0").
    pub fn number_where(
        &mut self,
        node: &Node,
        path: &str,
        expected: &str,
        ok: impl Fn(f64) -> bool,
    ) -> Option<f64> {
        let v = self.number(node, path)?;
        if ok(v) {
            Some(v)
        } else {
            self.error(node, path, format!("expected a number {expected}, got {v}"));
            None
        }
    }

    /// A whole number within `lo..=hi`.
    pub fn integer(&mut self, node: &Node, path: &str, lo: i64, hi: i64) -> Option<i64> {
        let v = match node.value {
            Value::Int(i) => i,
            Value::Float(f) => {
                self.error(node, path, format!("expected a whole number, got {f}"));
                return None;
            }
            ref other => {
                self.error(
                    node,
                    path,
                    format!("expected a whole number, got {}", other.kind()),
                );
                return None;
            }
        };
        if (lo..=hi).contains(&v) {
            Some(v)
        } else {
            self.error(node, path, format!("must be in {lo}..={hi}, got {v}"));
            None
        }
    }

    /// `true` or `false`.
    pub fn boolean(&mut self, node: &Node, path: &str) -> Option<bool> {
        match node.value {
            Value::Bool(b) => Some(b),
            ref other => {
                self.error(
                    node,
                    path,
                    format!("expected true or false, got {}", other.kind()),
                );
                None
            }
        }
    }
}

#[derive(Debug)]
struct Field<'n> {
    key: String,
    key_node: &'n Node,
    value: &'n Node,
    used: bool,
}

/// The entries of one mapping; keys taken are marked, and
/// [`Fields::finish`] reports the rest as unknown.
#[derive(Debug)]
pub struct Fields<'n> {
    node: &'n Node,
    fields: Vec<Field<'n>>,
}

impl<'n> Fields<'n> {
    /// The mapping node itself (for "missing key" positions).
    pub fn node(&self) -> &'n Node {
        self.node
    }

    /// The value of `key`, if present.
    pub fn opt(&mut self, key: &str) -> Option<&'n Node> {
        let f = self.fields.iter_mut().find(|f| f.key == key)?;
        f.used = true;
        Some(f.value)
    }

    /// The value of `key`, or a "missing key" error at the mapping.
    pub fn req(&mut self, r: &mut Reader, path: &str, key: &str, what: &str) -> Option<&'n Node> {
        let v = self.opt(key);
        if v.is_none() {
            r.error(self.node, path, format!("missing key '{key}' ({what})"));
        }
        v
    }

    /// All entries as (key, key node, value), marking them used (for maps
    /// from names to definitions).
    pub fn all(&mut self) -> Vec<(String, &'n Node, &'n Node)> {
        self.fields.iter_mut().for_each(|f| f.used = true);
        self.fields
            .iter()
            .map(|f| (f.key.clone(), f.key_node, f.value))
            .collect()
    }

    /// Reports every key not taken as unknown, naming the allowed ones.
    pub fn finish(self, r: &mut Reader, path: &str, allowed: &[&str]) {
        for f in self.fields.iter().filter(|f| !f.used) {
            let hint = suggestion(&f.key, allowed.iter().copied())
                .map(|s| format!(" (did you mean '{s}'?)"))
                .unwrap_or_default();
            r.error(
                f.key_node,
                &join(path, &f.key),
                format!(
                    "unknown key '{}'{hint}; expected one of: {}",
                    f.key,
                    allowed.join(", ")
                ),
            );
        }
    }
}

/// The closest candidate within a small edit distance, for "did you mean".
pub fn suggestion<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, c)| (d, c))
        .map(|(_, c)| c)
}

/// Levenshtein distance over chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_near_misses_only() {
        let known = ["elevation", "moisture", "coastal_distance"];
        assert_eq!(
            suggestion("elevtion", known.iter().copied()),
            Some("elevation")
        );
        assert_eq!(suggestion("heat", known.iter().copied()), None);
    }

    #[test]
    fn collects_errors_instead_of_stopping() {
        let text = "a: x\nb: 2\nc: 3\n";
        let node = crate::yaml::parse(text).unwrap();
        let mut r = Reader::new("t.yaml", text);
        let mut f = r.map(&node, "", "a mapping").unwrap();
        let a = f.opt("a").unwrap();
        assert_eq!(r.number(a, "a"), None);
        f.finish(&mut r, "", &["a"]);
        let paths: Vec<_> = r.diags.iter().map(|d| (d.path.as_str(), d.line)).collect();
        assert_eq!(paths, [("a", 1), ("b", 2), ("c", 3)]);
    }
}
