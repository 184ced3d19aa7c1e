//! Flow Free behind the `Game` interface. `solve` reads any of the game's text formats, `scan`
//! and `detect` read a board off a picture (`vision`), `play` draws each colour's path as one
//! drag (`play`) and reads the board again to check every pipe.

use super::format::{parse, to_text};
use super::model::{render, Puzzle, Solution};
use super::play::strokes;
use super::solve;
use super::vision::{self, sample_hex, Reading};
use crate::error::{Error, Result};
use crate::games::pipeline::Rules;
use crate::games::{Format, Options};
use crate::plan::{Action, Plan, FRAME_MS};
use crate::report::{Detail, Grid};
use crate::screen::Screen;
use crate::solving::{Limits, Outcome};
use image::RgbaImage;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Duration;

pub struct Flow;

/// How long a hint may spend proving its pipes when no `--timeout` was given.
const HINT_PROOF: Duration = Duration::from_secs(5);

/// Flow's fields of `scan --json`, beside the shared `game`, `geometry` and `confidence`.
#[derive(Debug, Clone, Serialize)]
pub struct ScanJson {
    #[serde(flatten)]
    pub grid: Grid,
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

/// Flow's part of `solve --json`: each path keyed by the puzzle's own letter, as `[row, col]`
/// from one endpoint to the other; empty unless solved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SolutionJson {
    pub paths: BTreeMap<String, Vec<[usize; 2]>>,
}

impl SolutionJson {
    pub fn new(p: &Puzzle, outcome: &Outcome<Solution>) -> SolutionJson {
        let paths = match outcome.solution() {
            Some(s) => p
                .flows
                .iter()
                .zip(&s.paths)
                .map(|(f, path)| {
                    let cells = path
                        .iter()
                        .map(|&c| [p.cells[c].row, p.cells[c].col])
                        .collect();
                    (f.letter.to_string(), cells)
                })
                .collect(),
            None => BTreeMap::new(),
        };
        SolutionJson { paths }
    }
}

/// Flow's fields of `scan --json` for a reading.
fn scan_json(reading: &Reading, puzzle: &str) -> ScanJson {
    let p = &reading.puzzle;
    ScanJson {
        // A letter per endpoint, `.` for other cells, `#` for holes; the seed's lattice text.
        grid: Grid {
            width: p.cols,
            height: p.rows,
            rows: reading.rows(),
            puzzle: puzzle.to_string(),
        },
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
    }
}

impl Rules for Flow {
    const NAME: &'static str = "flow";
    const NO_SOLUTION: &'static str = "no way to join every pair and cover every cell";
    type Puzzle = Puzzle;
    type Reading = Reading;
    type Solution = Solution;

    fn parse(text: &str, source: &str, _opts: &Options) -> Result<Puzzle> {
        parse(text, source)
    }

    fn solve(p: &Puzzle, limits: &Limits, _opts: &Options) -> Outcome<Solution> {
        solve::solve(p, limits)
    }

    fn check(p: &Puzzle, s: &Solution, _opts: &Options) -> std::result::Result<(), String> {
        super::check::check(p, s)
    }

    fn render(p: &Puzzle, s: &Solution) -> (String, String) {
        (
            render(p, s),
            format!("{} flows joined, every cell covered", p.flows.len()),
        )
    }

    fn solve_detail(p: &Puzzle, outcome: &Outcome<Solution>, _: &Options, _: bool) -> Detail {
        Detail::of(&SolutionJson::new(p, outcome))
    }

    fn read(image: &RgbaImage, _opts: &Options) -> Result<Reading> {
        vision::read(image)
    }

    fn posed(r: &Reading, _label: &str, _opts: &Options) -> Result<Puzzle> {
        Ok(r.puzzle.clone())
    }

    fn canonical(r: &Reading, p: &Puzzle) -> Result<String> {
        to_text(p).map_err(|e| {
            Error::vision(
                Some(r.geometry.board.to_pixels()),
                format!("the board read has no text form: {e}"),
            )
        })
    }

    const FORMATS: &'static [Format] = super::format::FORMATS;

    fn write(p: &Puzzle, f: &Format) -> Result<String> {
        super::format::write(p, f)
    }

    crate::games::pipeline::reading_fields!();

    fn scan_detail(r: &Reading, _p: &Puzzle, canonical: &str) -> Detail {
        Detail::of(&scan_json(r, canonical))
    }

    fn draw_reading(img: &mut RgbaImage, r: &Reading) {
        super::overlay::draw(img, r);
    }

    fn draw_solution(img: &mut RgbaImage, r: &Reading, p: &Puzzle, s: &Solution) {
        super::overlay::draw_solution(img, r, p, s);
    }

    fn hint(
        r: &Reading,
        p: &Puzzle,
        s: &Solution,
        k: usize,
        opts: &Options,
    ) -> Result<(Solution, Vec<String>)> {
        let mut drawn = vec![Vec::new(); p.flows.len()];
        for d in &r.drawn {
            drawn[d.flow].clone_from(&d.cells);
        }
        // The proof that a pipe is the only way is a solve of its own: bounded, as a user's
        // --timeout bounds the solve, or by a few seconds without one.
        let limits = Limits::within(opts.timeout.or(Some(HINT_PROOF)));
        Ok(super::play::hint(p, s, &drawn, k, &limits))
    }

    /// A tap clearing each wrong pipe, then one drag per colour not already drawn right.
    fn plan(r: &Reading, p: &Puzzle, s: &Solution, screen: &Screen, plan: &mut Plan) -> Result<()> {
        // The web clone, like any page, sees one pointer position per frame and fills in the
        // cells between by its own path finding; a move per frame keeps it on our path.
        plan.min_step_ms = FRAME_MS;
        let mut drawn = vec![Vec::new(); p.flows.len()];
        for d in &r.drawn {
            drawn[d.flow].clone_from(&d.cells);
        }
        let centre = |k: usize| (r.centres[k].x, r.centres[k].y);
        for stroke in strokes(p, s, &drawn, centre) {
            let mut path: Vec<_> = stroke
                .cells
                .iter()
                .map(|&k| screen.to_screen(r.centres[k]))
                .collect();
            let action = if path.len() == 1 {
                Action::Click { at: path.remove(0) }
            } else {
                Action::Drag { path }
            };
            plan.push(action, stroke.note);
        }
        Ok(())
    }

    /// The board read again: the same endpoints, and each colour's pipe the solution's path,
    /// from either end.
    fn differences(
        _r: &Reading,
        p: &Puzzle,
        s: &Solution,
        after: &Screen,
        _opts: &Options,
    ) -> Result<Vec<String>> {
        let again = vision::read(&after.image)?;
        Ok(differences(p, s, &again))
    }
}

/// What the board read after play shows that the solution does not, in words.
fn differences(puzzle: &Puzzle, solution: &Solution, again: &Reading) -> Vec<String> {
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
        // A colour a hint leaves undrawn is looked for from either end.
        let ends = puzzle.flows[f].ends.map(|k| at(puzzle, k));
        let starts: &[(usize, usize)] = match want.first() {
            Some(first) => std::slice::from_ref(first),
            None => &ends,
        };
        let first = starts[0];
        let shown = again.drawn.iter().find(|d| {
            let cells = &again.puzzle.cells;
            d.cells.first().zip(d.cells.last()).is_some_and(|(&a, &b)| {
                let (a, b) = ((cells[a].row, cells[a].col), (cells[b].row, cells[b].col));
                starts.contains(&a) || starts.contains(&b)
            })
        });
        let mut got: Vec<(usize, usize)> = shown.map_or(Vec::new(), |d| {
            d.cells.iter().map(|&k| at(&again.puzzle, k)).collect()
        });
        if want.is_empty() && got.len() == 1 {
            got.clear();
        }
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
