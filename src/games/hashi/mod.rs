//! Hashi / Bridges: formats, solver, recognition and play.

pub mod format;
pub mod model;
pub mod solve;
pub mod vision;
