//! Format encoders over plain data: PNG (8/16-bit), R16, raw f32, glTF binary, OBJ.
#![deny(missing_docs)]
