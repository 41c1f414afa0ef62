//! A planet as one continuous seeded function of the sphere, sampled into seamless chunks.
#![deny(missing_docs)]
