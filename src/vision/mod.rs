//! Image helpers shared by the games' readers: small pure functions over `image` buffers.

pub mod color;
pub mod components;
pub mod glyph;
pub mod runs;
