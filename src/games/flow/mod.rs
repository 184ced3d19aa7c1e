//! Flow Free: join each pair of same-coloured endpoints with a path so that paths never share
//! a cell and every cell is covered. Every variant (rectangles, holes, walls, bridges, hex,
//! warps) is one cell graph (`model`), read from three text formats (`format`), solved by
//! propagation and search (`solve`), checked independently (`validate`) and printed
//! (`render`).

pub mod format;
mod game;
pub mod model;
pub mod play;
pub mod render;
pub mod solve;
pub mod validate;
pub mod vision;

pub use game::Flow;
