//! Loop ("Loopy"): one closed loop through orthogonal neighbours; a hint counts the cells of
//! its 3×3 block where the loop turns. Formats, checker, solver and generator; pure, no I/O.

pub mod check;
pub mod format;
mod game;
pub mod generate;
pub mod model;
pub mod overlay;
pub mod play;
pub mod solve;
pub mod vision;

pub use game::{LoopGame, LoopOptions};
