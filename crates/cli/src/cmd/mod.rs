//! One module per subcommand.

pub mod caves;
pub mod island;
mod island_play;
pub mod dungeon;
pub mod noise;
pub mod serve;
