//! The Loop game behind the `Game` interface: solve any of its text formats, read the app's
//! board, and play a whole loop as one drag.

use super::format::{parse, to_canonical};
use super::model::{Cycle, Puzzle};
use super::report::solve_report;
use super::solve;
use super::vision::{self, Reading, Theme};
use crate::calibration::Profile;
use crate::error::Result;
use crate::games::{Game, Options, Prepared, Sample, Scanned, Solved, Status, Verify};
use crate::plan::{Action, Plan};
use crate::report::{Detail, ScanReport};
use crate::screen::Screen;
use crate::vision::geometry::Geometry;
use serde::Serialize;
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

/// Loop's fields of `scan --json`, beside the shared `game`, `geometry` and `confidence`.
#[derive(Debug, Clone, Serialize)]
pub struct ScanJson {
    pub width: usize,
    pub height: usize,
    /// The hints, a digit per hint cell and `.` elsewhere.
    pub rows: Vec<String>,
    pub puzzle: String,
    pub theme: Theme,
    /// The path drawn on the board, `[row, col]` in order along it; empty when none.
    pub path: Vec<[usize; 2]>,
    pub closed: bool,
}

fn solve_puzzle(puzzle: &Puzzle, opts: &Options) -> (Solved, Option<Cycle>) {
    let (report, text, cycle) = solve_report(
        puzzle,
        &solve::Options {
            any_loop: opts.loopgame.any_loop,
            deadline: opts.timeout.map(|t| Instant::now() + t),
            proof_nodes: None,
        },
    );
    (Solved { report, text }, cycle)
}

fn scanned(screen: &Screen, reading: &Reading) -> Scanned {
    let puzzle = to_canonical(&reading.puzzle);
    let mut overlay = screen.image.clone();
    vision::draw_overlay(&mut overlay, reading);
    Scanned {
        report: ScanReport {
            game: "loop",
            geometry: reading.geometry,
            confidence: reading.confidence,
            detail: Detail::of(&ScanJson {
                width: reading.puzzle.width,
                height: reading.puzzle.height,
                rows: reading.puzzle.rows(),
                puzzle: puzzle.clone(),
                theme: reading.theme,
                path: reading.path.clone(),
                closed: reading.closed,
            }),
        },
        puzzle,
        overlay,
    }
}

/// A tap on every cell of a path already drawn, then one drag through every cell centre of the
/// loop and back into the first cell, which is how the app closes a loop. The app takes a tap
/// (press and release in one cell) on a drawn cell as "remove this cell and its links", and
/// drops whatever is left without links; a tap on an empty cell adds nothing.
fn plan(reading: &Reading, cycle: &Cycle, screen: &Screen) -> Plan {
    let mut plan = Plan::new(screen.rect_to_screen(reading.geometry.board));
    // Seen on the real app: with 2 ms between moves an 8×8 board (50 px cells) lost cells, a
    // 4×4 (100 px) did not. One move per 60 Hz frame keeps every cell.
    plan.min_step_ms = 17;
    let centre = |[r, c]: [usize; 2]| screen.to_screen(reading.geometry.centre(r, c));
    for &cell in &reading.path {
        plan.push(
            Action::Click { at: centre(cell) },
            format!("clear the drawn path: tap ({}, {})", cell[0], cell[1]),
        );
    }
    let path = cycle
        .iter()
        .chain(cycle.first())
        .map(|&c| centre(c))
        .collect();
    plan.push(
        Action::Drag { path },
        format!(
            "the loop: {} cells, back into ({}, {})",
            cycle.len(),
            cycle[0][0],
            cycle[0][1]
        ),
    );
    plan
}

/// After play the app shows its "Perfect loop!" sheet: over the board, dimming the page, or in
/// a narrow window from the bottom, with the won loop green above it. Either is the win.
struct LoopCheck {
    profile: Option<std::sync::Arc<Profile>>,
    geometry: Geometry,
    theme: Theme,
    cycle: Cycle,
}

impl Verify for LoopCheck {
    fn verify(&self, after: &Screen) -> Result<Vec<String>> {
        if vision::win_sheet(&after.image).is_some()
            || vision::shows_loop_won(&after.image, &self.geometry, self.theme, &self.cycle)
        {
            return Ok(Vec::new());
        }
        let reading = vision::recognize_with(&after.image, self.profile.as_deref())?;
        Ok(vec![format!(
            "no win sheet: the board shows a {} path of {} cells",
            if reading.closed { "closed" } else { "open" },
            reading.path.len()
        )])
    }
}

impl Game for LoopGame {
    fn name(&self) -> &'static str {
        "loop"
    }

    /// The win sheet hides the board but is the Loop app's own.
    fn detect(&self, screen: &Screen) -> Result<()> {
        if vision::win_sheet(&screen.image).is_some() {
            return Ok(());
        }
        vision::recognize(&screen.image).map(|_| ())
    }

    fn solve(&self, text: &str, source: &str, opts: &Options) -> Result<Solved> {
        Ok(solve_puzzle(&parse(text, source)?, opts).0)
    }

    fn scan(&self, screen: &Screen, opts: &Options) -> Result<Scanned> {
        let profile = opts.calibration.as_deref();
        Ok(scanned(
            screen,
            &vision::recognize_with(&screen.image, profile)?,
        ))
    }

    fn calibrate(&self, samples: &[Sample]) -> Result<Profile> {
        let mut known = Vec::new();
        for s in samples {
            let puzzle = parse(&s.puzzle, &s.puzzle_source)?;
            known.push((s.name.clone(), s.screen.image.clone(), puzzle));
        }
        vision::learn(&known)
    }

    fn prepare(&self, screen: &Screen, opts: &Options) -> Result<Prepared> {
        let reading = vision::recognize_with(&screen.image, opts.calibration.as_deref())?;
        let (solved, cycle) = solve_puzzle(&reading.puzzle, opts);
        let plan = match (&cycle, solved.status()) {
            (Some(c), Status::Solved) => plan(&reading, c, screen),
            _ => Plan::new(screen.rect_to_screen(reading.geometry.board)),
        };
        Ok(Prepared {
            scanned: scanned(screen, &reading),
            solved,
            plan,
            check: Box::new(LoopCheck {
                profile: opts.calibration.clone(),
                geometry: reading.geometry,
                theme: reading.theme,
                cycle: cycle.unwrap_or_default(),
            }),
        })
    }
}
