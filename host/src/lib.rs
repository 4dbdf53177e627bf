//! # skin-host
//!
//! The host side of skin: glTF import, baking to the compact asset format, palette
//! splitting, the GPU reference renderer, and the `skin` command-line tool.
