//! enclose.horse: formats, solver, checker, generator, recognition.
//!
//! Public API:
//! * [`format::parse`]`(text, source, variant_override) -> Level` reads a puzzle file or the
//!   game API's JSON; [`format::parse_map`] reads bare map rows; [`format::to_canonical`]
//!   writes the canonical puzzle file (format documented in [`format`]).
//! * [`solve::solve`]`(&Level, &Limits) -> Outcome<Solution>` is the exact optimiser (optimal,
//!   or out of time with the best walls found, or unsolvable); [`solve::search`] is the same
//!   search with its own account: score, proven bound, new walls `[row, col]`, nodes, time.
//! * [`check::score`]`(&Level, &walls) -> Result<i32, String>` scores walls the way the game
//!   does (its own flood fill), independently of the solver.
//! * [`solve::render_solution`]`(&Level, &Solution) -> String` draws the map with `W` on the
//!   new walls and `#` on the enclosed grass.
//! * [`generate::generate`]`(seed, &Params) -> Level` makes realistic random levels.

pub mod check;
pub mod format;
mod game;
pub mod generate;
pub mod model;
pub mod overlay;
pub mod play;
pub mod solve;
pub mod vision;

pub use game::{Enclose, EncloseOptions, ScanJson, SolveJson};

pub use format::{parse, to_canonical};
pub use model::{Level, Solution, SolveStatus, Tile, Variant};
pub use solve::{render_solution, search, solve};
