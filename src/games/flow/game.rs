//! Flow Free behind the `Game` interface. `solve` reads any of the game's text formats, `scan`
//! and `detect` read a board off a picture (`vision`); `play` reads the board and then says
//! that planning is not built yet, touching nothing.

use super::format::{parse, to_text};
use super::render::{render, SolutionJson};
use super::solve::{self, Limits, Outcome};
use super::vision::{self, sample_hex, FlowReading};
use crate::error::{Error, Result};
use crate::games::{Game, Options, Prepared, Scanned, Solved};
use crate::report::{Detail, ScanReport, SolveReport};
use crate::screen::Screen;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

pub struct Flow;

/// Flow's fields of `scan --json`, beside the shared `game`, `geometry` and `confidence`.
#[derive(Debug, Clone, Serialize)]
pub struct ScanJson {
    pub width: usize,
    pub height: usize,
    /// A letter per endpoint, `.` for other cells, `#` for holes.
    pub rows: Vec<String>,
    /// The canonical text (the seed's lattice format).
    pub puzzle: String,
    /// Each flow's colour as the picture shows it, `#rrggbb`, by letter.
    pub colours: BTreeMap<char, String>,
    /// The pipes already drawn: each flow's cells `[row, col]` from one of its endpoints.
    pub drawn: Vec<DrawnJson>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DrawnJson {
    pub flow: char,
    pub cells: Vec<[usize; 2]>,
}

/// What `scan` prints and draws for a reading; `prepare` shows the same.
pub fn scanned(screen: &Screen, reading: &FlowReading) -> Result<Scanned> {
    let p = &reading.puzzle;
    let puzzle = to_text(p).map_err(|e| {
        Error::vision(
            Some(reading.geometry.board.to_pixels()),
            format!("the board read has no text form: {e}"),
        )
    })?;
    let mut overlay = screen.image.clone();
    vision::overlay::draw(&mut overlay, reading);
    let json = ScanJson {
        width: p.cols,
        height: p.rows,
        rows: reading.rows(),
        puzzle: puzzle.clone(),
        colours: p
            .flows
            .iter()
            .zip(&reading.colours)
            .map(|(f, &c)| (f.letter, sample_hex(c)))
            .collect(),
        drawn: reading
            .drawn
            .iter()
            .map(|d| DrawnJson {
                flow: p.flows[d.flow].letter,
                cells: d
                    .cells
                    .iter()
                    .map(|&k| [p.cells[k].row, p.cells[k].col])
                    .collect(),
            })
            .collect(),
    };
    Ok(Scanned {
        report: ScanReport {
            game: "flow",
            geometry: reading.geometry,
            confidence: reading.confidence,
            detail: Detail::of(&json),
        },
        puzzle,
        overlay,
    })
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

    fn detect(&self, screen: &Screen) -> Result<()> {
        vision::read(&screen.image).map(|_| ())
    }

    fn scan(&self, screen: &Screen, _opts: &Options) -> Result<Scanned> {
        scanned(screen, &vision::read(&screen.image)?)
    }

    /// Reads the board (a picture that is no Flow board fails here, naming why); the plan of
    /// drags is not built yet, so nothing is planned or sent.
    fn prepare(&self, screen: &Screen, _opts: &Options) -> Result<Prepared> {
        let reading = vision::read(&screen.image)?;
        scanned(screen, &reading)?;
        Err(Error::Usage(
            "flow: the board reads (`autoplayer scan flow`), but planning its drags is not built \
             yet"
            .into(),
        ))
    }
}
