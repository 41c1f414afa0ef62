//! The island as a world to explore: world objects, spawning, exploration, travel and saves.
#![deny(missing_docs)]
