//! `mangekyo island play`: the terminal game. Reads commands from stdin (or
//! a script), prints the session's replies, writes saves.

use anyhow::{Context, Result};
use mangekyo_core::Seed;
use mangekyo_world::session::{DEFAULT_SAVE_FILE, Effect};
use mangekyo_world::{Game, Session};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

/// Flags of `mangekyo island play`.
#[derive(Debug, clap::Args)]
pub(crate) struct PlayArgs {
    /// YAML files or directories with the definitions; without it, the
    /// example world of examples/island/, built into the binary.
    #[arg(long, num_args = 1..)]
    defs: Vec<PathBuf>,
    /// The generation scope.
    #[arg(long, default_value = "island")]
    scope: String,
    /// The seed: digits are a number, other text is hashed.
    #[arg(long, default_value = "42")]
    seed: String,
    /// Language of names and of the game's own words (en, ja).
    #[arg(long, default_value = "en")]
    lang: String,
    /// Run the commands in this file (one per line, `#` comments) instead
    /// of reading the terminal.
    #[arg(long)]
    script: Option<PathBuf>,
    /// Continue a saved game (made with the same definitions).
    #[arg(long)]
    load: Option<PathBuf>,
}

/// Runs the game.
pub(crate) fn run(args: PlayArgs) -> Result<()> {
    let defs = super::island::load(&args.defs)?;
    super::island::check_scope_and_lang(&defs, &args.scope, &args.lang)?;
    let game = match &args.load {
        Some(path) => {
            let json = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            Game::load(&defs, &json).with_context(|| format!("loading {}", path.display()))?
        }
        None => Game::new(&defs, &args.scope, Seed::parse(&args.seed))?,
    };
    let mut session = Session::new(game, &args.lang);
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", session.intro())?;
    let lines: Box<dyn Iterator<Item = std::io::Result<String>>> = match &args.script {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            Box::new(
                text.lines()
                    .map(|l| Ok(l.to_string()))
                    .collect::<Vec<_>>()
                    .into_iter(),
            )
        }
        None => Box::new(std::io::stdin().lock().lines()),
    };
    let interactive = args.script.is_none() && std::io::stdin().is_terminal();
    prompt(&mut out, interactive)?;
    for line in lines {
        let line = line?;
        let command = line.split('#').next().unwrap_or("").trim();
        if command.is_empty() {
            prompt(&mut out, interactive)?;
            continue;
        }
        if !interactive {
            writeln!(out, "\n> {command}")?;
        }
        let reply = session.handle(command);
        match reply.effect {
            Effect::Quit => {
                writeln!(out, "{}", reply.text)?;
                return Ok(());
            }
            // "Saved to …" only once it is true; a failed write is a refusal
            // and the game goes on, so an unsaved session is never lost.
            Effect::Save { file, json } => {
                let path = file.unwrap_or_else(|| DEFAULT_SAVE_FILE.to_string());
                match write_save(std::path::Path::new(&path), |o| {
                    o.write_all(json.as_bytes())
                }) {
                    Ok(()) => writeln!(out, "{}", reply.text)?,
                    Err(e) => {
                        writeln!(out, "Could not save to {path}: {e:#}. Nothing was saved.")?;
                    }
                }
            }
            Effect::None => writeln!(out, "{}", reply.text)?,
        }
        prompt(&mut out, interactive)?;
    }
    Ok(())
}

/// Writes a save atomically (see [`crate::atomic`]): a failed or killed
/// save leaves the previous one whole and loadable.
pub(crate) fn write_save(
    path: &std::path::Path,
    fill: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<()> {
    crate::atomic::write_with(path, fill)
}

fn prompt(out: &mut impl Write, interactive: bool) -> Result<()> {
    if interactive {
        write!(out, "\n> ")?;
        out.flush()?;
    }
    Ok(())
}
