//! One module per subcommand.

pub mod bake;
pub mod caves;
pub mod dungeon;
pub mod island;
pub mod island_play;
pub mod noise;
pub mod planet;
pub mod serve;
