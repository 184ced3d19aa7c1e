//! The Loop game behind the `Game` interface. `solve` reads any of the game's text formats;
//! reading the app's screen is not built yet, so `scan` and `play` say so and touch nothing.

use super::format::parse;
use super::report::solve_report;
use super::solve;
use crate::error::{Error, Result};
use crate::games::{Game, Options, Prepared, Scanned, Solved};
use crate::screen::Screen;
use std::time::Instant;

/// Loop's own options.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct LoopOptions {
    /// loop: accept any closed loop that meets the numbers; without it the loop must pass
    /// through every cell (the app's "Perfect loop").
    #[arg(long)]
    pub any_loop: bool,
}

pub struct LoopGame;

fn no_reader() -> Error {
    Error::Usage(
        "loop: reading the Loop app's screen is not built yet (`autoplayer solve loop FILE` works)"
            .into(),
    )
}

impl Game for LoopGame {
    fn name(&self) -> &'static str {
        "loop"
    }

    fn solve(&self, text: &str, source: &str, opts: &Options) -> Result<Solved> {
        let puzzle = parse(text, source)?;
        let (report, text) = solve_report(
            &puzzle,
            &solve::Options {
                any_loop: opts.loopgame.any_loop,
                deadline: opts.timeout.map(|t| Instant::now() + t),
                proof_nodes: None,
            },
        );
        Ok(Solved { report, text })
    }

    fn scan(&self, _screen: &Screen, _opts: &Options) -> Result<Scanned> {
        Err(no_reader())
    }

    fn prepare(&self, _screen: &Screen, _opts: &Options) -> Result<Prepared> {
        Err(no_reader())
    }
}
