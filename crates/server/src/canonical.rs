//! One spelling per value in URLs: a cache (the server's own, a CDN's)
//! keys on the URL's text, so `lod=01`, `lod=+1` and `lod=1` would be three
//! entries of one answer, and `layers=,height,,` a fourth URL of
//! `layers=height`. Other spellings are refused (400) with the canonical
//! one in `expected`, so a client learns it from the first refusal.
//!
//! - Integers: decimal digits, `-` only for negatives, no leading zero.
//! - Numbers with a fraction: ECMAScript's `Number.prototype.toString`
//!   (shortest digits that read back the same; `0.5`, `1e-7`, `45`), what
//!   a browser writes for `${lat}`, so the viewer's URLs are canonical as
//!   they come.
//! - Lists (`layers`): no empty, padded or repeated item, known names in
//!   their documented order, and `all` alone.

use std::str::FromStr;

use mangekyo_planet::chunk::LAYER_ORDER;

use crate::error::ApiError;

/// A value type whose text has one spelling per value (what
/// [`crate::QueryParams`] parses path and query values into).
pub trait Spelled: FromStr {
    /// The canonical text of this value.
    fn spelling(&self) -> String;
}

macro_rules! spelled_integers {
    ($($t:ty),*) => {$(
        impl Spelled for $t {
            fn spelling(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
spelled_integers!(u8, u16, u32, u64, usize, i32, i64);

/// Text is its own spelling (names are checked where they are read).
impl Spelled for String {
    fn spelling(&self) -> String {
        self.clone()
    }
}

impl Spelled for f64 {
    fn spelling(&self) -> String {
        number_spelling(*self)
    }
}

/// `x` as ECMAScript's `Number.prototype.toString` writes it (radix 10):
/// the shortest digits that read back as `x`, positional for exponents
/// −7 < e < 21, else `d.ddde±n`.
pub(crate) fn number_spelling(x: f64) -> String {
    if x == 0.0 {
        return "0".to_owned();
    }
    if !x.is_finite() {
        return x.to_string();
    }
    // Rust's `{:e}` gives the shortest round-trip digits too: `1.2345e-7`.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len() as i32;
    let n = exp.parse::<i32>().unwrap_or(0) + 1;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(n as usize);
        format!("{int}.{frac}")
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let e = n - 1;
        let sign = if e < 0 { '-' } else { '+' };
        let (first, rest) = digits.split_at(1);
        let mantissa = if rest.is_empty() {
            first.to_owned()
        } else {
            format!("{first}.{rest}")
        };
        format!("{mantissa}e{sign}{}", e.abs())
    };
    if x < 0.0 { format!("-{body}") } else { body }
}

/// Refuses `text` (the value of `name` from `source`) unless it is
/// `canonical`.
pub(crate) fn check(source: &str, name: &str, text: &str, canonical: &str) -> Result<(), ApiError> {
    if text == canonical {
        return Ok(());
    }
    Err(ApiError::invalid(
        name,
        format!(
            "{source} parameter {name} must be written {canonical:?}, got {text:?}: each value has one spelling, so each answer has one URL"
        ),
        canonical,
    ))
}

/// The query's list parameters and how their items are spelled.
enum ListRule {
    /// Names from this order (and `all`, alone): a set, whose canonical
    /// spelling lists its names in this order, each once.
    Set(&'static [&'static str]),
    /// Numbers in a meaningful order (a bounding box), each spelled as
    /// [`number_spelling`] writes it.
    Numbers,
}

const LISTS: [(&str, ListRule); 2] = [
    ("layers", ListRule::Set(&LAYER_ORDER)),
    ("bbox", ListRule::Numbers),
];

/// Refuses a list parameter's value unless it is canonical (every route
/// reading `name` reads it this way). Items that are no known name or no
/// number are left for the route, which refuses them by name.
pub(crate) fn check_list(name: &str, text: &str) -> Result<(), ApiError> {
    let Some((_, rule)) = LISTS.iter().find(|(n, _)| *n == name) else {
        return Ok(());
    };
    let items: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .collect();
    let canonical = match rule {
        ListRule::Set(order) => {
            if items.iter().any(|i| *i != "all" && !order.contains(i)) {
                return Ok(());
            }
            if items.contains(&"all") {
                "all".to_owned()
            } else {
                let names: Vec<&str> = order
                    .iter()
                    .copied()
                    .filter(|n| items.contains(n))
                    .collect();
                names.join(",")
            }
        }
        ListRule::Numbers => {
            let mut spelled = Vec::with_capacity(items.len());
            for item in &items {
                match item.parse::<f64>() {
                    Ok(x) if x.is_finite() => spelled.push(number_spelling(x)),
                    _ => return Ok(()),
                }
            }
            spelled.join(",")
        }
    };
    if canonical.is_empty() {
        // Nothing but commas: the route says what the list must hold.
        return Ok(());
    }
    check("query", name, text, &canonical)
}

/// The canonical spelling of a generator parameter given as query text,
/// if it is a number (`query_object` reads numbers as JSON numbers).
pub(crate) fn scalar_spelling(text: &str) -> Option<String> {
    if let Ok(i) = text.parse::<i64>() {
        return Some(i.to_string());
    }
    if let Ok(u) = text.parse::<u64>() {
        return Some(u.to_string());
    }
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() => Some(number_spelling(x)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_spelled_as_ecmascript_does() {
        for (x, s) in [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (45.5, "45.5"),
            (-33.9, "-33.9"),
            (0.1, "0.1"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (0.000_001, "0.000001"),
            (1e17, "100000000000000000"),
            (1e21, "1e+21"),
            (123_456.789, "123456.789"),
            (f64::MAX, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
        ] {
            assert_eq!(number_spelling(x), s, "{x:e}");
            assert_eq!(s.parse::<f64>().unwrap(), x, "{s} reads back");
        }
    }

    #[test]
    fn integers_and_numbers_have_one_spelling() {
        for (text, ok) in [
            ("7", true),
            ("-3", true),
            ("+7", false),
            ("07", false),
            ("-0", false),
            ("7.0", false),
        ] {
            assert_eq!(scalar_spelling(text).as_deref() == Some(text), ok, "{text}");
        }
        assert_eq!(scalar_spelling("1.50").as_deref(), Some("1.5"));
        assert_eq!(scalar_spelling("mesh"), None);
    }

    #[test]
    fn lists_have_one_spelling() {
        assert!(check_list("layers", "height").is_ok());
        assert!(check_list("layers", "height,biome,water").is_ok());
        assert!(check_list("layers", "all").is_ok());
        for (text, canonical) in [
            (",,,height,,", "height"),
            (",height", "height"),
            ("height,", "height"),
            ("height,height", "height"),
            ("biome,height", "height,biome"),
            (" height", "height"),
            ("height,all", "all"),
        ] {
            let e = check_list("layers", text).unwrap_err();
            assert_eq!(e.parameter.as_deref(), Some("layers"), "{text}");
            assert_eq!(e.expected.as_deref(), Some(canonical), "{text}");
        }
        // Unknown names are the route's to refuse, by name.
        assert!(check_list("layers", "hieght,,").is_ok());
        assert!(check_list("bbox", "-10,-5.5,20,30").is_ok());
        let e = check_list("bbox", "-10.0,-5.5,20,30").unwrap_err();
        assert_eq!(e.expected.as_deref(), Some("-10,-5.5,20,30"));
        assert!(check_list("format", ",png").is_ok());
    }
}
