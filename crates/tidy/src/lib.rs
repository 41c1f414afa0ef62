//! Repository-wide checks, run by `cargo test -p mangekyo-tidy`.
//!
//! The library is empty on purpose: the checks live in `tests/`, where they
//! read the source tree (`tidy.rs`) and `cargo metadata` (`arrows.rs`). Like
//! rust-analyzer's tidy test, they make style and architecture rules fail
//! the build instead of living in review comments.
#![deny(missing_docs)]
