//! `mangekyo noise`: a picture of any noise.

/// Flags of `mangekyo noise`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs the subcommand.
pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("noise pictures arrive with the noise core")
}
