//! enclose.horse: formats, solver, checker, generator, recognition.

pub mod check;
pub mod format;
mod game;
pub mod generate;
pub mod model;
pub mod overlay;
pub mod play;
pub mod solve;
pub mod vision;

pub use game::{Enclose, EncloseOptions};
