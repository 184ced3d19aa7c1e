//! Hashi / Bridges: formats, solver, checker, recognition and play.

pub mod check;
pub mod format;
mod game;
pub mod model;
pub mod overlay;
pub mod play;
pub mod solve;
pub mod vision;

pub use game::{Hashi, HashiOptions};
