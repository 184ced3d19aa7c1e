//! Flow Free behind the `Game` interface. `solve` reads any of the game's text formats;
//! reading the app's screen is not built yet, so `scan` and `play` say so and touch nothing.

use super::format::parse;
use super::render::{render, SolutionJson};
use super::solve::{self, Limits, Outcome};
use crate::error::{Error, Result};
use crate::games::{Game, Options, Prepared, Scanned, Solved};
use crate::report::{Detail, SolveReport};
use crate::screen::Screen;
use std::time::Instant;

pub struct Flow;

fn no_reader() -> Error {
    Error::Usage(
        "flow: reading Flow Free's screen is not built yet (`autoplayer solve flow FILE` works)"
            .into(),
    )
}

impl Game for Flow {
    fn name(&self) -> &'static str {
        "flow"
    }

    fn solve(&self, text: &str, source: &str, opts: &Options) -> Result<Solved> {
        let puzzle = parse(text, source)?;
        let start = Instant::now();
        let outcome = solve::solve(
            &puzzle,
            &Limits {
                deadline: opts.timeout.map(|t| start + t),
            },
        );
        let elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
        let json = SolutionJson::new(&puzzle, &outcome);
        let text = match &outcome {
            Outcome::Solved(s) => format!(
                "{}{} flows joined, every cell covered, {elapsed_ms:.2} ms\n",
                render(&puzzle, s),
                puzzle.flows.len()
            ),
            Outcome::Unsolvable => "no way to join every pair and cover every cell\n".into(),
            Outcome::GaveUp => "gave up (time limit) before a solution\n".into(),
        };
        Ok(Solved {
            report: SolveReport {
                game: "flow",
                status: json.status,
                elapsed_ms,
                detail: Detail::of(&json),
            },
            text,
        })
    }

    fn detect(&self, _screen: &Screen) -> Result<()> {
        Err(no_reader())
    }

    fn scan(&self, _screen: &Screen, _opts: &Options) -> Result<Scanned> {
        Err(no_reader())
    }

    fn prepare(&self, _screen: &Screen, _opts: &Options) -> Result<Prepared> {
        Err(no_reader())
    }
}
