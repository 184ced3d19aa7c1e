//! The tools every game's reader is built from: small pure functions over `image` buffers,
//! each tested on hand-made pictures.
//!
//! - `color`: colour distances, hue, the dominant colour of a sample, clamped pixel reads;
//! - `components`: connected regions of a mask, with their boxes;
//! - `runs`: runs of `true` along a scanline or profile;
//! - `lattice`: pitch and origin of an evenly spaced grid, from lines or from ridges;
//! - `geometry`: `Geometry`, cell ↔ image pixel, one formula for every game;
//! - `glyph`: glyphs and sprites as small masks, one template format, one matcher.

pub mod color;
pub mod components;
pub mod geometry;
pub mod glyph;
pub mod lattice;
pub mod runs;
