//! `mangekyo`: the command-line edge of the workspace. Each subcommand lives
//! in its own module under `cmd/`, parses its flags with clap, calls a pure
//! generator and writes the result (a file, stdout, a socket).

mod atomic;
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
}

/// Errors go to stderr as one readable chain ("error: …: cause"), exit code 1;
/// no backtraces for a user's mistake.
fn main() -> std::process::ExitCode {
    match run(Cli::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
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
    }
}
