//! One module per subcommand.

pub(crate) mod bake;
pub(crate) mod caves;
pub(crate) mod dungeon;
pub(crate) mod island;
pub(crate) mod island_play;
pub(crate) mod noise;
pub(crate) mod planet;
pub(crate) mod serve;
pub(crate) mod token;
