//! Seamless chunked 3D voxel caves: surface, worms and karst entrances, meshed.
#![deny(missing_docs)]
