//! Mangekyo over HTTP: every generator, cached by content, and the web viewer.
#![deny(missing_docs)]
