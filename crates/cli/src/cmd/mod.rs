//! One module per subcommand.

pub mod noise;
