//! Flow Free: join each pair of same-coloured endpoints with a path so that paths never share
//! a cell and every cell is covered. Every variant (rectangles, holes, walls, bridges, hex,
//! warps) is one cell graph (`model`), read from three text formats (`format`), solved by
//! propagation and search (`solve`), checked independently (`check`) and printed
//! (`render`).

pub mod check;
pub mod format;
mod game;
pub mod model;
pub mod overlay;
pub mod play;
pub mod render;
pub mod solve;
pub mod vision;

pub use game::Flow;
