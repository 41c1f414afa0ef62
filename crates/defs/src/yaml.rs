//! YAML text → a generic tree whose every node knows its line and column.
//!
//! Why a tree and not `#[derive(Deserialize)]` on the definition structs:
//! serde stops at the first error, and designers want every mistake in a
//! file at once. So serde-saphyr parses into this tree (syntax errors still
//! stop the file: after a syntax error the rest of the text has no reliable
//! structure), and hand-written mappers walk it ([`crate::parse`], and the
//! island loader's for its own sections),
//! collecting every semantic error with its position and key path.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;
use std::fmt;

/// A YAML value with the position (1-based line and column) it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The value.
    pub value: Value,
    /// 1-based line (0 when the parser could not tell).
    pub line: u32,
    /// 1-based column (0 when the parser could not tell).
    pub column: u32,
}

/// The generic YAML value of a [`Node`].
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `~`, `null` or nothing.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An integer that fits `i64`.
    Int(i64),
    /// A finite float.
    Float(f64),
    /// Any string scalar.
    Str(String),
    /// A sequence, in document order.
    Seq(Vec<Node>),
    /// A mapping, in document order (duplicate keys are a parse error).
    Map(Vec<(Node, Node)>),
}

impl Value {
    /// What the value is, for "expected X, got Y" messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "nothing (null)",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }
}

/// A syntax error: where and what, without serde-saphyr's own snippet (the
/// caller renders one with the real file name).
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    /// 1-based line, 0 if unknown.
    pub line: u32,
    /// 1-based column, 0 if unknown.
    pub column: u32,
    /// The parser's message.
    pub message: String,
}

/// Parses one YAML document into a [`Node`] tree. An empty document is a
/// `Null` node.
pub fn parse(text: &str) -> Result<Node, SyntaxError> {
    serde_saphyr::from_str::<Node>(text).map_err(|err| {
        let (line, column) = err
            .location()
            .map(|l| (to_u32(l.line()), to_u32(l.column())))
            .unwrap_or((0, 0));
        SyntaxError {
            line,
            column,
            message: bare_message(&err.without_snippet().to_string()),
        }
    })
}

fn to_u32(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// serde-saphyr renders `error: line L column C: message at line L, column
/// C`, sometimes with advice about its own options; keep the message.
fn bare_message(rendered: &str) -> String {
    let first = rendered.lines().next().unwrap_or(rendered);
    let mut rest = first.strip_prefix("error: ").unwrap_or(first);
    if let Some(i) = rest.find(": ")
        && rest[..i].starts_with("line ")
    {
        rest = &rest[i + 2..];
    }
    if let Some(i) = rest.find(", set DuplicateKeyPolicy") {
        rest = &rest[..i];
    }
    if let Some(i) = rest.rfind(" at line ") {
        rest = &rest[..i];
    }
    rest.to_string()
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s: Spanned<Value> = Spanned::deserialize(d)?;
        Ok(Node {
            value: s.value,
            line: to_u32(s.referenced.line()),
            column: to_u32(s.referenced.column()),
        })
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        i64::try_from(v)
            .map(Value::Int)
            .map_err(|_| E::custom(format!("integer {v} is too large")))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        i64::try_from(v)
            .map(Value::Int)
            .map_err(|_| E::custom(format!("integer {v} is too large")))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        i64::try_from(v)
            .map(Value::Int)
            .map_err(|_| E::custom(format!("integer {v} is too large")))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        if v.is_finite() {
            Ok(Value::Float(v))
        } else {
            Err(E::custom("numbers must be finite"))
        }
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(n) = a.next_element::<Node>()? {
            items.push(n);
        }
        Ok(Value::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Value, A::Error> {
        let mut entries = Vec::new();
        while let Some(k) = a.next_key::<Node>()? {
            let v = a.next_value::<Node>()?;
            entries.push((k, v));
        }
        Ok(Value::Map(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_know_their_positions() {
        let n = parse("a: 1\nb:\n  - x\n  - { c: 2.5 }\n").unwrap();
        let Value::Map(entries) = &n.value else {
            panic!("not a map: {n:?}")
        };
        assert_eq!(entries[0].1.value, Value::Int(1));
        assert_eq!((entries[0].1.line, entries[0].1.column), (1, 4));
        let Value::Seq(items) = &entries[1].1.value else {
            panic!("not a seq")
        };
        assert_eq!((items[1].line, items[1].column), (4, 5));
    }

    #[test]
    fn syntax_errors_carry_a_position_and_a_bare_message() {
        let e = parse("a: [1, 2\nb: 3\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 2));
        assert!(!e.message.starts_with("error"), "{}", e.message);
        let dup = parse("a: 1\na: 2\n").unwrap_err();
        assert!(
            dup.message.contains("duplicate mapping key"),
            "{}",
            dup.message
        );
    }

    #[test]
    fn empty_text_is_null() {
        assert_eq!(parse("").unwrap().value, Value::Null);
        assert_eq!(parse("# only a comment\n").unwrap().value, Value::Null);
    }
}
