//! Repository-wide checks run by cargo test: file headers, dependency arrows, lint policy.
#![deny(missing_docs)]
