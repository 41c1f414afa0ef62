//! The ground floor every Mangekyo generator stands on.
//!
//! This crate provides seeds ([`Seed`]) and per-purpose random streams
//! ([`Pcg32::for_purpose`]), integer hashing ([`hash`]), and the noise
//! kernels ([`noise`]): value, gradient (Perlin), simplex and cellular noise,
//! fractals and domain warp, each with a point query and a grid fill that
//! give the same bits.
//!
//! Nothing here touches files, sockets or clocks, and nothing depends on
//! `HashMap` order or thread scheduling: every output is a pure function of
//! its inputs.
//!
//! ```
//! use mangekyo_core::{Pcg32, Seed};
//! let mut rng = Pcg32::for_purpose(Seed::parse("my world"), "layout");
//! let d6 = rng.next_int(1, 7);
//! assert!((1..7).contains(&d6));
//! ```
#![deny(missing_docs)]

pub mod hash;
pub mod noise;
pub mod param;
pub mod rng;
pub mod seed;

pub use param::{ParamError, Refusal};
pub use rng::Pcg32;
pub use seed::Seed;
