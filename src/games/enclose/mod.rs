//! enclose.horse: formats, solver, checker, generator, recognition.
//!
//! Public API:
//! * [`format::parse`]`(text, source, variant_override) -> Level` reads a puzzle file or the
//!   game API's JSON; [`format::parse_map`] reads bare map rows; [`format::to_canonical`]
//!   writes the canonical puzzle file (format documented in [`format`]).
//! * [`solve::solve`]`(&Level, &Limits) -> Outcome<Solution>` is the exact optimiser (optimal,
//!   or out of time or memory with the best walls found, or unsolvable); its `Solution` holds
//!   the score, the proven bound, the new walls `[row, col]`, the nodes and the time.
//! * [`check::score`]`(&Level, &walls) -> Result<i32, String>` scores walls the way the game
//!   does (its own flood fill), independently of the solver.
//! * [`model::render`]`(&Level, &walls) -> String` draws the map with `W` on the new walls and
//!   `#` on the enclosed grass.
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
pub use model::{Level, Solution, Tile, Variant};
pub use solve::solve;
