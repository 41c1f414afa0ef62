//! Hengband's fractal caves (generate_hmap + generate_fracave) and the rooms, caverns, lakes and levels built from them.
#![deny(missing_docs)]
