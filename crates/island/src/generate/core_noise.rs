//! The noise this crate samples: `mangekyo_core::noise`, value kernel with
//! fBm (the guide's `ValueNoise.noiseAtIslandPoint`).

pub(crate) use mangekyo_core::noise::{Fractal, Kernel, Noise, NoiseParams};
