//! `mangekyo`: the command-line edge of the workspace. Each subcommand lives
//! in its own module under `cmd/`, parses its flags with clap, calls a pure
//! generator and writes the result (a file, stdout, a socket).

// First: its macros (`outln!`, `out!`, `errln!`) are used by every module below.
#[macro_use]
mod console;
mod atomic;
mod cmd;
mod tier_cache;

use clap::{Parser, Subcommand};

/// Deterministic procedural terrain: one seed in, the same world out.
#[derive(Debug, Parser)]
#[command(name = "mangekyo", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Writes a PNG of any noise, so you can see what a setting does.
    Noise(cmd::noise::Args),
    /// Voxel caves: chunk meshes and density, region exports, PNG slices.
    Caves(cmd::caves::Args),
    /// Hengband's fractal caves: a room, a cavern, a lake or a whole level.
    Dungeon(cmd::dungeon::Args),
    /// Islands from YAML definitions: generate, check, stats, and play.
    Island(cmd::island::Args),
    /// A seeded planet: whole-planet previews, seamless chunks, projection distortion.
    Planet(cmd::planet::Args),
    /// Pre-generates planet chunks or web-map tiles into a directory or bucket, sharded and resumable.
    Bake(cmd::bake::Args),
    /// Serves every generator over HTTP, and the web viewer, over a planet store.
    Serve(cmd::serve::Args),
    /// Access tokens for `mangekyo serve --tokens`.
    Token(cmd::token::Args),
}

/// Errors go to stderr as one readable chain ("error: …: cause"), exit code 1;
/// no backtraces for a user's mistake. A closed pipe ends it quietly with
/// 141 (see `console.rs`).
fn main() -> std::process::ExitCode {
    match run(Cli::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) if console::is_closed_pipe(&e) => {
            std::process::ExitCode::from(console::CLOSED_PIPE_EXIT)
        }
        Err(e) => {
            errln!("error: {}", chain_text(&e));
            match e.downcast_ref::<cmd::bake::Interrupted>() {
                Some(stopped) => std::process::ExitCode::from(stopped.code),
                None => std::process::ExitCode::FAILURE,
            }
        }
    }
}

/// The error and its causes as one line, "what: why: deeper why", leaving
/// out a cause whose text the line already shows: library errors often
/// print their source inside their own message too (the store's connection
/// error, sqlx's I/O error), and a user should read each cause once.
fn chain_text(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Noise(args) => cmd::noise::run(args),
        Command::Caves(args) => cmd::caves::run(args),
        Command::Dungeon(args) => cmd::dungeon::run(args),
        Command::Island(args) => cmd::island::run(args),
        Command::Planet(args) => cmd::planet::run(args),
        Command::Serve(args) => cmd::serve::run(args),
        Command::Bake(args) => cmd::bake::run(args),
        Command::Token(args) => cmd::token::run(args),
    }
}

#[cfg(test)]
mod tests {
    use super::chain_text;

    /// An error that prints its source in its own message too.
    #[derive(Debug)]
    struct Repeats(std::io::Error);

    impl std::fmt::Display for Repeats {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(
                f,
                "cannot open database mysql://root:***@host/db: {}",
                self.0
            )
        }
    }

    impl std::error::Error for Repeats {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn each_cause_is_printed_once() {
        let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        let e = anyhow::Error::new(Repeats(refused)).context("opening the planet store");
        assert_eq!(
            chain_text(&e),
            "opening the planet store: cannot open database mysql://root:***@host/db: refused"
        );
        let e = anyhow::anyhow!("no such file").context("reading a.json");
        assert_eq!(chain_text(&e), "reading a.json: no such file");
    }
}
