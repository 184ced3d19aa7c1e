//! autoplayer: capture a puzzle app's screen, recognize the board, solve it, replay the
//! solution as mouse input. The binary in `main.rs` is a thin shell over this library.

pub mod action_log;
pub mod batch;
pub mod calibration;
mod cmath;
pub mod corpus;
pub mod error;
pub mod games;
pub mod input;
pub mod overlay;
pub mod picture;
pub mod plan;
pub mod progress;
pub mod rect;
pub mod report;
pub mod rng;
pub mod screen;
pub mod series;
pub mod session;
pub mod solving;
pub mod stop_key;
pub mod vision;

pub use error::{Error, Result};
