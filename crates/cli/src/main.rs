//! `mangekyo`: the command-line edge of the workspace. Each subcommand lives
//! in its own module under `cmd/`, parses its flags with clap, calls a pure
//! generator and writes the result (a file, stdout, a socket).

mod cmd;

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
    /// Hengband's fractal caves: a room, a cavern, a lake or a whole level.
    Dungeon(cmd::dungeon::Args),
    /// Islands from YAML definitions: generate, check, stats, and play.
    Island(cmd::island::Args),
    /// Serves every generator over HTTP, and the web viewer, over a planet store.
    Serve(cmd::serve::Args),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Noise(args) => cmd::noise::run(args),
        Command::Dungeon(args) => cmd::dungeon::run(args),
        Command::Island(args) => cmd::island::run(args),
        Command::Serve(args) => cmd::serve::run(args),
    }
}
