//! Interactions as data (the guide's `InteractionDef`): what an agent can
//! do with an object, how long it takes, what it needs and what it changes.
//! Object defs and traits declare them; `mangekyo-world` runs them and
//! knows none of them by name.
//!
//! Values are written as small expressions (`30`, `self.travel_minutes`,
//! `10 + agent.hints * 15`, `min(agent.stamina, 40)`) and conditions as
//! one comparison (`agent.stamina >= 10`). A reference names an object
//! (the guide's `ObjectRef`): a root — `self` (the object the interaction
//! belongs to), `agent` (who acts), `here` (the agent's holder), `world`
//! (the root) or `it` (the object a `reveal` is looking at) — followed by
//! property hops, each through a property holding an instance id
//! (`self.destination_id.exploration`). The last name of a value is a
//! number property, or `id` (the instance id itself).

use std::collections::BTreeMap;
use std::fmt;

/// Text per language code (`en`, `ja`, …).
pub type Texts = BTreeMap<String, String>;

/// Where an object reference starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RefRoot {
    /// The object the interaction belongs to.
    This,
    /// The character acting.
    Agent,
    /// The object holding the agent.
    Here,
    /// The world's root.
    World,
    /// The object a `reveal` effect is considering.
    It,
}

impl RefRoot {
    /// The YAML spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            RefRoot::This => "self",
            RefRoot::Agent => "agent",
            RefRoot::Here => "here",
            RefRoot::World => "world",
            RefRoot::It => "it",
        }
    }
}

/// An object: a root and property hops (the guide's `ObjectRef`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ObjectRef {
    /// Where it starts.
    pub root: RefRoot,
    /// Properties holding instance ids, followed in order.
    pub hops: Vec<String>,
}

impl fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.root.as_str())?;
        for h in &self.hops {
            write!(f, ".{h}")?;
        }
        Ok(())
    }
}

/// The pseudo-property every object has: its instance id.
pub const ID_PROPERTY: &str = "id";

/// A number property of a referenced object.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueRef {
    /// The object.
    pub object: ObjectRef,
    /// The property ([`ID_PROPERTY`] for the instance id).
    pub property: String,
}

impl fmt::Display for ValueRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.object, self.property)
    }
}

/// Arithmetic operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (division by zero gives 0: a designer's ratio of an empty
    /// property should not end the game)
    Div,
    /// `min(a, b)`
    Min,
    /// `max(a, b)`
    Max,
}

/// A number expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A literal.
    Num(f64),
    /// The world clock in minutes.
    Clock,
    /// A property's value.
    Value(ValueRef),
    /// `-x`
    Neg(Box<Expr>),
    /// `a op b`
    Bin(BinOp, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Every property reference in the expression.
    pub fn values(&self) -> Vec<&ValueRef> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect<'a>(&'a self, out: &mut Vec<&'a ValueRef>) {
        match self {
            Expr::Num(_) | Expr::Clock => {}
            Expr::Value(v) => out.push(v),
            Expr::Neg(e) => e.collect(out),
            Expr::Bin(_, a, b) => {
                a.collect(out);
                b.collect(out);
            }
        }
    }
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl CmpOp {
    /// Applies the comparison.
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
        }
    }
}

/// `left op right`.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    /// Left side.
    pub left: Expr,
    /// The comparison.
    pub op: CmpOp,
    /// Right side.
    pub right: Expr,
}

/// A condition an interaction needs, and what the player is told when it
/// does not hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Requirement {
    /// Must hold before the interaction runs.
    pub test: Condition,
    /// The refusal, per language.
    pub refusal: Texts,
}

/// How a `change` effect changes a property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeMode {
    /// `to: expr`
    Set,
    /// `by: expr`
    Add,
}

/// One thing an interaction does (the guide's active effects).
#[derive(Clone, Debug, PartialEq)]
pub enum EffectDef {
    /// Changes a number property, clamped into its range.
    Change {
        /// The property.
        target: ValueRef,
        /// Set or add.
        mode: ChangeMode,
        /// The amount.
        value: Expr,
    },
    /// Moves an object (the guide's `MoveEffect`): into the named slot of
    /// the destination, or its first slot that accepts the mover.
    Move {
        /// What moves.
        mover: ObjectRef,
        /// Where to.
        to: ObjectRef,
        /// The slot, if named.
        slot: Option<String>,
    },
    /// Moves every object of `self`'s `from` slot for which `when` holds
    /// (`it` is the object) into `to`; an object's `partner` (a property
    /// holding an instance id) moves the same way in its own holder (the
    /// guide's `revealDueFixtures`: the two directions of a path).
    Reveal {
        /// The slot searched.
        from: String,
        /// The slot revealed objects move to.
        to: String,
        /// Which objects are due.
        when: Condition,
        /// The property naming each object's partner.
        partner: Option<String>,
    },
}

/// What an agent can do with an object.
#[derive(Clone, Debug, PartialEq)]
pub struct InteractionDef {
    /// Its name: the command word.
    pub name: String,
    /// Minutes it takes (the guide's `duration`; `None`: no time passes).
    pub duration: Option<Expr>,
    /// All must hold.
    pub requires: Vec<Requirement>,
    /// Applied in order.
    pub effects: Vec<EffectDef>,
    /// What the player is told after it ran, per language. Placeholders:
    /// `{place}`, `{from}`, `{minutes}`, `{target}`, `{=expr}`.
    pub text: Texts,
    /// Lines of which one (drawn from the play stream) is added when a
    /// `reveal` found nothing.
    pub flavours: Vec<Texts>,
    /// Where it was written.
    pub origin: crate::Origin,
}

/// A parse error inside an expression: the byte offset and the message.
#[derive(Clone, Debug, PartialEq)]
pub struct ExprError {
    /// Byte offset in the expression text.
    pub at: usize,
    /// What was wrong.
    pub message: String,
}

/// Parses a number expression.
pub fn parse_expr(text: &str) -> Result<Expr, ExprError> {
    let mut p = Lexer::new(text);
    let e = p.sum()?;
    p.end()?;
    Ok(e)
}

/// Parses `expr op expr`.
pub fn parse_condition(text: &str) -> Result<Condition, ExprError> {
    let mut p = Lexer::new(text);
    let left = p.sum()?;
    p.skip_ws();
    let rest = &text[p.pos..];
    let ops = [
        ("<=", CmpOp::Le),
        (">=", CmpOp::Ge),
        ("==", CmpOp::Eq),
        ("!=", CmpOp::Ne),
        ("<", CmpOp::Lt),
        (">", CmpOp::Gt),
    ];
    let Some(&(s, op)) = ops.iter().find(|(s, _)| rest.starts_with(s)) else {
        return Err(p.error("expected a comparison (<, <=, >, >=, ==, !=)"));
    };
    p.pos += s.len();
    let right = p.sum()?;
    p.end()?;
    Ok(Condition { left, op, right })
}

/// Parses an object reference (`agent`, `self.destination_id`).
pub fn parse_object_ref(text: &str) -> Result<ObjectRef, ExprError> {
    let mut p = Lexer::new(text);
    p.skip_ws();
    let names = p.dotted()?;
    p.end()?;
    object_ref(&names, 0)
}

/// Parses a property reference (`agent.stamina`).
pub fn parse_value_ref(text: &str) -> Result<ValueRef, ExprError> {
    let mut p = Lexer::new(text);
    p.skip_ws();
    let start = p.pos;
    let names = p.dotted()?;
    p.end()?;
    value_ref(names, start)
}

fn root(name: &str, at: usize) -> Result<RefRoot, ExprError> {
    Ok(match name {
        "self" => RefRoot::This,
        "agent" => RefRoot::Agent,
        "here" => RefRoot::Here,
        "world" => RefRoot::World,
        "it" => RefRoot::It,
        other => {
            return Err(ExprError {
                at,
                message: format!(
                    "unknown object '{other}'; a reference starts with self, agent, here, world or it"
                ),
            });
        }
    })
}

fn object_ref(names: &[String], at: usize) -> Result<ObjectRef, ExprError> {
    Ok(ObjectRef {
        root: root(&names[0], at)?,
        hops: names[1..].to_vec(),
    })
}

fn value_ref(mut names: Vec<String>, at: usize) -> Result<ValueRef, ExprError> {
    if names.len() < 2 {
        return Err(ExprError {
            at,
            message: format!(
                "'{}' is an object, not a number; name a property (e.g. {}.{ID_PROPERTY})",
                names[0], names[0]
            ),
        });
    }
    let property = names.pop().unwrap_or_default();
    Ok(ValueRef {
        object: object_ref(&names, at)?,
        property,
    })
}

struct Lexer<'t> {
    text: &'t str,
    pos: usize,
}

impl<'t> Lexer<'t> {
    fn new(text: &'t str) -> Self {
        Lexer { text, pos: 0 }
    }

    fn error(&self, message: &str) -> ExprError {
        let found = self.text[self.pos..].chars().next();
        ExprError {
            at: self.pos,
            message: match found {
                Some(c) => format!("{message}, found '{c}'"),
                None => format!("{message}, found the end"),
            },
        }
    }

    fn skip_ws(&mut self) {
        while self.text[self.pos..].starts_with(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.text[self.pos..].chars().next()
    }

    fn end(&mut self) -> Result<(), ExprError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.error("expected an operator or the end")),
        }
    }

    fn sum(&mut self) -> Result<Expr, ExprError> {
        let mut e = self.product()?;
        while let Some(c @ ('+' | '-')) = self.peek() {
            self.pos += 1;
            let r = self.product()?;
            let op = if c == '+' { BinOp::Add } else { BinOp::Sub };
            e = Expr::Bin(op, Box::new(e), Box::new(r));
        }
        Ok(e)
    }

    fn product(&mut self) -> Result<Expr, ExprError> {
        let mut e = self.unary()?;
        while let Some(c @ ('*' | '/')) = self.peek() {
            self.pos += 1;
            let r = self.unary()?;
            let op = if c == '*' { BinOp::Mul } else { BinOp::Div };
            e = Expr::Bin(op, Box::new(e), Box::new(r));
        }
        Ok(e)
    }

    fn unary(&mut self) -> Result<Expr, ExprError> {
        match self.peek() {
            Some('-') => {
                self.pos += 1;
                Ok(Expr::Neg(Box::new(self.unary()?)))
            }
            Some('(') => {
                self.pos += 1;
                let e = self.sum()?;
                self.expect(')')?;
                Ok(e)
            }
            Some(c) if c.is_ascii_digit() || c == '.' => self.number(),
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                let start = self.pos;
                let names = self.dotted()?;
                match (names.len(), names[0].as_str()) {
                    (1, "clock") => Ok(Expr::Clock),
                    (1, f @ ("min" | "max")) => {
                        let op = if f == "min" { BinOp::Min } else { BinOp::Max };
                        self.expect('(')?;
                        let a = self.sum()?;
                        self.expect(',')?;
                        let b = self.sum()?;
                        self.expect(')')?;
                        Ok(Expr::Bin(op, Box::new(a), Box::new(b)))
                    }
                    _ => Ok(Expr::Value(value_ref(names, start)?)),
                }
            }
            _ => Err(self.error("expected a number, a property, clock, min( or max(")),
        }
    }

    fn expect(&mut self, c: char) -> Result<(), ExprError> {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            Ok(())
        } else {
            Err(self.error(&format!("expected '{c}'")))
        }
    }

    fn number(&mut self) -> Result<Expr, ExprError> {
        let start = self.pos;
        let len = self.text[start..]
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(self.text.len() - start);
        self.pos += len;
        self.text[start..self.pos]
            .parse::<f64>()
            .map(Expr::Num)
            .map_err(|_| ExprError {
                at: start,
                message: format!("'{}' is not a number", &self.text[start..self.pos]),
            })
    }

    fn dotted(&mut self) -> Result<Vec<String>, ExprError> {
        let mut names = Vec::new();
        loop {
            let start = self.pos;
            let len = self.text[start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(self.text.len() - start);
            if len == 0 || self.text[start..].starts_with(|c: char| c.is_ascii_digit()) {
                return Err(self.error("expected a name"));
            }
            self.pos += len;
            names.push(self.text[start..self.pos].to_string());
            if self.text[self.pos..].starts_with('.') {
                self.pos += 1;
            } else {
                return Ok(names);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions_parse_with_precedence() {
        let e = parse_expr("10 + agent.hints * 15").unwrap();
        let Expr::Bin(BinOp::Add, a, b) = e else {
            panic!("{e:?}")
        };
        assert_eq!(*a, Expr::Num(10.0));
        assert!(matches!(*b, Expr::Bin(BinOp::Mul, _, _)));
        let c = parse_condition("self.destination_id.exploration >= min(clock, 3)").unwrap();
        assert_eq!(c.op, CmpOp::Ge);
        let Expr::Value(v) = c.left else { panic!() };
        assert_eq!(v.object.hops, ["destination_id"]);
        assert_eq!(v.property, "exploration");
    }

    #[test]
    fn errors_point_into_the_text() {
        assert_eq!(parse_expr("1 + ").unwrap_err().at, 4);
        assert_eq!(parse_expr("me.x").unwrap_err().at, 0);
        assert!(parse_condition("1 + 2").is_err());
        assert!(parse_expr("agent").is_err(), "an object is not a number");
        assert_eq!(parse_object_ref("agent").unwrap().root, RefRoot::Agent);
        assert!(parse_expr("(1 + 2").is_err());
    }
}

/// How a game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// The goal was reached.
    Won,
    /// Time or strength ran out.
    Lost,
}

/// An end of the game: checked after every action, first match wins.
/// `self` and `agent` are the explorer, `here` its place.
#[derive(Clone, Debug, PartialEq)]
pub struct EndingDef {
    /// When the game ends.
    pub when: Condition,
    /// How.
    pub outcome: Outcome,
    /// What the player is told, per language.
    pub text: Texts,
}

/// How the statistics bot plays (`island stats --bot`): among the actions
/// whose requirements hold it picks one at random, in proportion to the
/// weight of its interaction (default 1), times `unvisited_bonus` for a
/// move towards a place never visited.
#[derive(Clone, Debug, PartialEq)]
pub struct BotDef {
    /// Weights by interaction name.
    pub weights: BTreeMap<String, f64>,
    /// Multiplier for an action on a path to an unvisited place.
    pub unvisited_bonus: f64,
    /// A game still running after this many actions counts as lost.
    pub max_actions: u32,
}
