//! Shared fixtures for the benchmarks in `benches/benches/`.
