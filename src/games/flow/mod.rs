//! Flow Free: join each pair of same-coloured endpoints with a path so that paths never share
//! a cell and every cell is covered; every variant is one cell graph (`model`).

pub mod check;
pub mod format;
mod game;
pub mod model;
pub mod overlay;
pub mod play;
pub mod solve;
pub mod vision;

pub use game::Flow;
