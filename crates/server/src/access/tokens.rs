//! Tokens: scopes, quotas, the tokens file (`name scope sha256:<hex>`
//! lines) and its parser, and the line `mangekyo token new` prints.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use sha2::{Digest, Sha256};

/// What a token (or an anonymous request) may do; later scopes include
/// the earlier ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    /// Read everything, run the computing POSTs.
    Read,
    /// Also create planets, and delete the planets it created.
    Create,
    /// Also delete any planet.
    Admin,
}

impl Scope {
    /// The scope's name in token files and error messages.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Create => "create",
            Scope::Admin => "admin",
        }
    }

    fn parse(text: &str) -> Option<Scope> {
        [Scope::Read, Scope::Create, Scope::Admin]
            .into_iter()
            .find(|s| s.name() == text)
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Per-token limits; `None` is unlimited.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Quota {
    /// Planets the token may own at once.
    pub planets: Option<u64>,
    /// Planet creations that start a coarse-tier computation, per hour.
    pub tiers_per_hour: Option<u32>,
    /// Bytes of stored coarse tiers its planets may hold, in MiB.
    pub storage_mib: Option<u64>,
}

/// One configured token (its secret is not kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// The name planets record as their owner.
    pub name: String,
    /// What it may do.
    pub scope: Scope,
    /// Its limits.
    pub quota: Quota,
}

/// The configured tokens, by the SHA-256 of their secrets.
#[derive(Debug, Clone, Default)]
pub struct Tokens {
    by_hash: BTreeMap<[u8; 32], Arc<Token>>,
}

/// The prefix of every secret `mangekyo token new` makes, so a leaked one is
/// recognisable (secret scanners match on such prefixes).
pub const SECRET_PREFIX: &str = "mgk_";

impl Tokens {
    /// No tokens.
    pub fn none() -> Tokens {
        Tokens::default()
    }

    /// Whether none are configured.
    pub fn is_empty(&self) -> bool {
        self.by_hash.is_empty()
    }

    /// How many are configured.
    pub fn len(&self) -> usize {
        self.by_hash.len()
    }

    /// Reads token lines: `name scope sha256:<64 hex> [planets=N]
    /// [tiers_per_hour=N] [storage_mib=N]`; blank lines and `#` comments are
    /// skipped. `source` names the text in errors (a file path, or the
    /// environment variable).
    pub fn parse(text: &str, source: &str) -> Result<Tokens, String> {
        let mut tokens = Tokens::default();
        let mut names = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let at = format!("{source} line {}", i + 1);
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let token = parse_line(line).map_err(|e| format!("{at}: {e}"))?;
            if let Some(first) = names.insert(token.0.name.clone(), i + 1) {
                return Err(format!(
                    "{at}: token name {:?} is already used on line {first}; names are planet owners and must be unique",
                    token.0.name
                ));
            }
            if tokens.by_hash.insert(token.1, Arc::new(token.0)).is_some() {
                return Err(format!(
                    "{at}: the same secret hash appears twice; each token needs its own secret"
                ));
            }
        }
        Ok(tokens)
    }

    /// The token whose secret this is.
    pub fn find(&self, secret: &str) -> Option<&Arc<Token>> {
        self.by_hash.get(&sha256(secret))
    }
}

fn parse_line(line: &str) -> Result<(Token, [u8; 32]), String> {
    const SHAPE: &str = "expected `name scope sha256:<64 hex digits> [planets=N] [tiers_per_hour=N] [storage_mib=N]`";
    let mut words = line.split_whitespace();
    let (Some(name), Some(scope), Some(hash)) = (words.next(), words.next(), words.next()) else {
        return Err(SHAPE.to_owned());
    };
    check_name(name)?;
    let scope = Scope::parse(scope)
        .ok_or_else(|| format!("scope {scope:?} is not one of read, create, admin"))?;
    let hash = parse_hash(hash)?;
    let mut quota = Quota::default();
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("{word:?}: {SHAPE}"))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{key}={value:?}: expected a whole number"))
        };
        match key {
            "planets" => quota.planets = Some(number()?),
            "tiers_per_hour" => {
                quota.tiers_per_hour = Some(
                    u32::try_from(number()?)
                        .map_err(|_| format!("{key}={value}: at most {}", u32::MAX))?,
                );
            }
            "storage_mib" => quota.storage_mib = Some(number()?),
            _ => {
                return Err(format!(
                    "unknown quota {key:?}; expected planets, tiers_per_hour or storage_mib"
                ));
            }
        }
    }
    let token = Token {
        name: name.to_owned(),
        scope,
        quota,
    };
    Ok((token, hash))
}

/// Token names: what planets record as their owner and logs show.
fn check_name(name: &str) -> Result<(), String> {
    let ok = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.@".contains(&b));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "token name {name:?} must be 1 to 64 of A-Z a-z 0-9 - _ . @"
        ))
    }
}

fn parse_hash(text: &str) -> Result<[u8; 32], String> {
    let hex = text.strip_prefix("sha256:").ok_or_else(|| {
        format!("{text:?}: expected the secret's hash as sha256:<64 hex digits>, never the secret itself")
    })?;
    let bytes = hex.as_bytes();
    if bytes.len() != 64 || !bytes.iter().all(u8::is_ascii_hexdigit) {
        return Err(format!("{text:?}: expected sha256: and 64 hex digits"));
    }
    let mut out = [0u8; 32];
    for (i, pair) in bytes.chunks(2).enumerate() {
        let digit = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
        out[i] = digit(pair[0]) << 4 | digit(pair[1]);
    }
    Ok(out)
}

fn sha256(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.as_bytes()).into()
}

/// The token-file line for `secret` (what `mangekyo token new` prints).
pub fn token_line(name: &str, scope: Scope, secret: &str) -> Result<String, String> {
    check_name(name)?;
    let hex: String = sha256(secret).iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!("{name} {scope} sha256:{hex}"))
}
