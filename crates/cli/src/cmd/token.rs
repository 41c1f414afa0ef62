//! `mangekyo token new`: a fresh access token for `mangekyo serve --tokens`.
//! The secret is printed once, for the client; the server's file gets only
//! its hash.

use anyhow::Context;
use mangekyo_server::access::{SECRET_PREFIX, Scope, token_line};

/// Flags of `mangekyo token`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Makes a token: prints its secret (give it to the client) and the line
    /// for the server's tokens file (it holds the secret's SHA-256, never
    /// the secret).
    New(New),
}

/// Flags of `mangekyo token new`.
#[derive(Debug, clap::Args)]
struct New {
    /// The token's name: what its planets record as their owner and the
    /// log shows (1 to 64 of A-Z a-z 0-9 - _ . @).
    name: String,
    /// What it may do: read; create (and delete its own planets); admin
    /// (delete any planet).
    #[arg(long, value_parser = ["read", "create", "admin"])]
    scope: String,
    /// Quota: planets it may own at once.
    #[arg(long)]
    planets: Option<u64>,
    /// Quota: planet creations that start a coarse-tier computation, per hour.
    #[arg(long)]
    tiers_per_hour: Option<u32>,
    /// Quota: MiB of stored coarse tiers its planets may hold.
    #[arg(long)]
    storage_mib: Option<u64>,
}

pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let Command::New(new) = args.command;
    let scope = match new.scope.as_str() {
        "read" => Scope::Read,
        "create" => Scope::Create,
        _ => Scope::Admin,
    };
    let mut random = [0u8; 32];
    getrandom::fill(&mut random)
        .map_err(|e| anyhow::anyhow!("reading random bytes from the operating system: {e}"))?;
    let secret: String = std::iter::once(SECRET_PREFIX.to_owned())
        .chain(random.iter().map(|b| format!("{b:02x}")))
        .collect();
    let mut line = token_line(&new.name, scope, &secret)
        .map_err(anyhow::Error::msg)
        .context("the token's name")?;
    for (key, value) in [
        ("planets", new.planets),
        ("tiers_per_hour", new.tiers_per_hour.map(u64::from)),
        ("storage_mib", new.storage_mib),
    ] {
        if let Some(v) = value {
            line.push_str(&format!(" {key}={v}"));
        }
    }
    outln!("secret (give it to the client; it is not stored anywhere):")?;
    outln!("  {secret}")?;
    outln!("line for the server's tokens file (--tokens FILE):")?;
    outln!("  {line}")?;
    Ok(())
}
