//! Flow Free behind the `Game` interface. `solve` reads any of the game's text formats, `scan`
//! and `detect` read a board off a picture (`vision`), `play` draws each colour's path as one
//! drag (`play`) and reads the board again to check every pipe.

use super::format::{parse, to_text};
use super::model::{Puzzle, Solution};
use super::play::strokes;
use super::render::{render, SolutionJson};
use super::solve::{self, Limits, Outcome};
use super::vision::{self, sample_hex, FlowReading};
use crate::error::{Error, Result};
use crate::games::{Game, Options, Prepared, Scanned, Solved, Verify};
use crate::plan::{Action, Plan};
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
    /// Every cell's centre in picture pixels (on hex boards the square `geometry` does not
    /// place cells).
    pub centres: Vec<CentreJson>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CentreJson {
    /// `[row, col]`, as in `rows`.
    pub cell: [usize; 2],
    pub x: f64,
    pub y: f64,
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
        centres: p
            .cells
            .iter()
            .zip(&reading.centres)
            .map(|(cell, at)| CentreJson {
                cell: [cell.row, cell.col],
                x: (at.x * 10.0).round() / 10.0,
                y: (at.y * 10.0).round() / 10.0,
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
        Ok(solve_puzzle(&parse(text, source)?, opts).0)
    }

    fn detect(&self, screen: &Screen) -> Result<()> {
        vision::read(&screen.image).map(|_| ())
    }

    fn scan(&self, screen: &Screen, _opts: &Options) -> Result<Scanned> {
        scanned(screen, &vision::read(&screen.image)?)
    }

    /// Reads the board, solves it and plans a tap clearing each wrong pipe, then one drag per
    /// colour not already drawn right; an unsolvable board plans nothing.
    fn prepare(&self, screen: &Screen, opts: &Options) -> Result<Prepared> {
        let reading = vision::read(&screen.image)?;
        let scanned = scanned(screen, &reading)?;
        let (solved, outcome) = solve_puzzle(&reading.puzzle, opts);
        let mut plan = Plan::new(screen.rect_to_screen(reading.geometry.board));
        // The web clone, like any page, sees one pointer position per frame and fills in the
        // cells between by its own path finding; a move per frame keeps it on our path.
        plan.min_step_ms = 17;
        let solution = match outcome {
            Outcome::Solved(s) => s,
            _ => Solution { paths: Vec::new() },
        };
        let mut drawn = vec![Vec::new(); reading.puzzle.flows.len()];
        for d in &reading.drawn {
            drawn[d.flow].clone_from(&d.cells);
        }
        let centre = |k: usize| (reading.centres[k].x, reading.centres[k].y);
        for stroke in strokes(&reading.puzzle, &solution, &drawn, centre) {
            let mut path: Vec<_> = stroke
                .cells
                .iter()
                .map(|&k| screen.to_screen(reading.centres[k]))
                .collect();
            let action = if path.len() == 1 {
                Action::Click { at: path.remove(0) }
            } else {
                Action::Drag { path }
            };
            plan.push(action, stroke.note);
        }
        Ok(Prepared {
            scanned,
            solved,
            plan,
            check: Box::new(FlowCheck {
                puzzle: reading.puzzle,
                solution,
            }),
        })
    }
}

fn solve_puzzle(puzzle: &Puzzle, opts: &Options) -> (Solved, Outcome) {
    let start = Instant::now();
    let outcome = solve::solve(
        puzzle,
        &Limits {
            deadline: opts.timeout.map(|t| start + t),
        },
    );
    let elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    let json = SolutionJson::new(puzzle, &outcome);
    let text = match &outcome {
        Outcome::Solved(s) => format!(
            "{}{} flows joined, every cell covered, {elapsed_ms:.2} ms\n",
            render(puzzle, s),
            puzzle.flows.len()
        ),
        Outcome::Unsolvable => "no way to join every pair and cover every cell\n".into(),
        Outcome::GaveUp => "gave up (time limit) before a solution\n".into(),
    };
    let solved = Solved {
        report: SolveReport {
            game: "flow",
            status: json.status,
            elapsed_ms,
            detail: Detail::of(&json),
        },
        text,
    };
    (solved, outcome)
}

/// After play the board is read again: the same endpoints, and each colour's pipe the
/// solution's path, from either end.
struct FlowCheck {
    puzzle: Puzzle,
    solution: Solution,
}

impl Verify for FlowCheck {
    fn verify(&self, after: &Screen) -> Result<Vec<String>> {
        let again = vision::read(&after.image)?;
        Ok(differences(&self.puzzle, &self.solution, &again))
    }
}

/// What the board read after play shows that the solution does not, in words.
fn differences(puzzle: &Puzzle, solution: &Solution, again: &FlowReading) -> Vec<String> {
    let at = |p: &Puzzle, k: usize| (p.cells[k].row, p.cells[k].col);
    let ends = |p: &Puzzle| {
        let mut e: Vec<[(usize, usize); 2]> = p
            .flows
            .iter()
            .map(|f| {
                let mut pair = [at(p, f.ends[0]), at(p, f.ends[1])];
                pair.sort();
                pair
            })
            .collect();
        e.sort();
        e
    };
    if ends(puzzle) != ends(&again.puzzle) {
        return vec!["the board read after play has other endpoints than before".into()];
    }
    let mut out = Vec::new();
    for (f, path) in solution.paths.iter().enumerate() {
        let want: Vec<(usize, usize)> = path.iter().map(|&k| at(puzzle, k)).collect();
        let first = want[0];
        let shown = again.drawn.iter().find(|d| {
            let cells = &again.puzzle.cells;
            d.cells.first().zip(d.cells.last()).is_some_and(|(&a, &b)| {
                let (a, b) = ((cells[a].row, cells[a].col), (cells[b].row, cells[b].col));
                a == first || b == first
            })
        });
        let got: Vec<(usize, usize)> = shown.map_or(Vec::new(), |d| {
            d.cells.iter().map(|&k| at(&again.puzzle, k)).collect()
        });
        let reversed: Vec<(usize, usize)> = got.iter().rev().copied().collect();
        if got != want && reversed != want {
            out.push(format!(
                "flow {}: the board shows {} cells of pipe from ({}, {}), the solution has {}",
                puzzle.flows[f].letter,
                got.len(),
                first.0,
                first.1,
                want.len()
            ));
        }
    }
    out
}
