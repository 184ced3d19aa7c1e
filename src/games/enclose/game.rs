//! enclose.horse behind the common `Game` interface.

use super::format;
use super::model::{Level, Solution, SolveStatus, Tile, Variant};
use super::{check, play, solve, vision};
use crate::calibration::Profile;
use crate::error::{Error, Result};
use crate::games::{Game, Options, Prepared, Sample, Scanned, Solved, Status, Verify};
use crate::plan::Plan;
use crate::report::{Detail, ScanReport, SolveReport};
use crate::screen::Screen;
use crate::vision::geometry::Geometry;
use serde::{Serialize, Serializer};
use std::collections::BTreeSet;
use std::time::Instant;

pub struct Enclose;

/// enclose.horse's own options.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct EncloseOptions {
    /// enclose.horse: the wall budget, when the picture does not show it.
    #[arg(long)]
    pub budget: Option<u32>,
    /// enclose.horse: the bonus round (lovebirds, costlywalls, quarrel).
    #[arg(long, value_parser = variant_arg)]
    pub variant: Option<Variant>,
}

/// `--variant` takes the names a puzzle file's header does.
fn variant_arg(name: &str) -> std::result::Result<Variant, String> {
    format::parse_variant(name, "--variant", 1, 1).map_err(|e| e.to_string())
}

/// The round prints by the name the puzzle files use.
fn variant_name<S: Serializer>(v: &Variant, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(v.name())
}

/// The page's score line prints as its number, `"N/A"` while the horse is loose, `null` when
/// the picture has none.
fn shown_score<S: Serializer>(
    v: &Option<vision::ShownScore>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match v {
        Some(vision::ShownScore::Value(v)) => s.serialize_i32(*v),
        Some(vision::ShownScore::NotEnclosed) => s.serialize_str("N/A"),
        None => s.serialize_none(),
    }
}

/// enclose.horse's fields of `scan --json`.
#[derive(Debug, Clone, Serialize)]
pub struct ScanJson {
    pub rows: Vec<String>,
    pub budget: u32,
    #[serde(serialize_with = "variant_name")]
    pub variant: Variant,
    pub walls_placed: Option<u32>,
    pub theme: String,
    pub enclosed: bool,
    #[serde(serialize_with = "shown_score")]
    pub score_shown: Option<vision::ShownScore>,
    /// The canonical puzzle file.
    pub puzzle: String,
}

/// enclose.horse's fields of `solve --json`.
#[derive(Debug, Clone, Serialize)]
pub struct SolveJson {
    #[serde(serialize_with = "variant_name")]
    pub variant: Variant,
    pub score: i32,
    /// The proven upper bound; equal to `score` when optimal.
    pub bound: i32,
    /// The new walls only, `[row, col]`.
    pub walls: Vec<[usize; 2]>,
}

fn solve_level(level: &Level, opts: &Options) -> (Solved, Solution) {
    let deadline = opts.timeout.map(|t| Instant::now() + t);
    let sol = solve::solve(level, deadline);
    let status = match sol.status {
        SolveStatus::Optimal => Status::Optimal,
        SolveStatus::GaveUp => Status::GaveUp,
        SolveStatus::Unsolvable => Status::Unsolvable,
    };
    let report = SolveReport {
        game: "enclose",
        status,
        elapsed_ms: sol.elapsed_ms,
        detail: Detail::of(&SolveJson {
            variant: level.variant,
            score: sol.score,
            bound: sol.bound,
            walls: sol.walls.clone(),
        }),
    };
    let text = solve::render_solution(level, &sol);
    (Solved { report, text }, sol)
}

/// The reading as a level: the budget from the picture, else from `--budget`.
fn level_of(reading: &vision::Reading, screen: &Screen, opts: &Options) -> Result<Level> {
    let budget = opts.enclose.budget.or(reading.budget).ok_or_else(|| {
        Error::Usage(format!(
            "{}: the wall budget is not shown; give it with --budget N",
            screen.label
        ))
    })?;
    let variant = match opts.enclose.variant {
        Some(v) => v,
        None => match reading.variant_hint.as_deref() {
            Some(name) => format::parse_variant(name, &screen.label, 1, 1)?,
            None => Variant::Main,
        },
    };
    format::parse_map(&reading.rows.join("\n"), &screen.label, budget, variant)
}

fn scan_screen(screen: &Screen, opts: &Options) -> Result<(vision::Reading, Level, Scanned)> {
    let reading = vision::recognize(
        &screen.image,
        &vision::ReadOptions {
            budget: opts.enclose.budget,
            profile: opts.calibration.clone(),
        },
    )?;
    let level = level_of(&reading, screen, opts)?;
    let puzzle = format::to_canonical(&level);
    let report = ScanReport {
        game: "enclose",
        geometry: reading.geometry,
        confidence: reading.confidence,
        detail: Detail::of(&ScanJson {
            rows: reading.rows.clone(),
            budget: level.budget,
            variant: level.variant,
            walls_placed: reading.walls_placed,
            theme: reading.theme.clone(),
            enclosed: reading.enclosed,
            score_shown: reading.score_shown,
            puzzle: puzzle.clone(),
        }),
    };
    let mut overlay = screen.image.clone();
    vision::draw_overlay(&mut overlay, &reading);
    let scanned = Scanned {
        report,
        puzzle,
        overlay,
    };
    Ok((reading, level, scanned))
}

struct EncloseCheck {
    /// The optimum's score.
    score: i32,
    target: BTreeSet<[usize; 2]>,
    /// The level with every wall taken away, to re-score what the board shows after play.
    open: Level,
    /// The board as found before play.
    geometry: Geometry,
}

impl Verify for EncloseCheck {
    fn verify(&self, after: &Screen) -> Result<Vec<String>> {
        let seen =
            vision::read_after_play(&after.image, &self.geometry, self.open.rows, self.open.cols);
        let mut out = play::differences(&seen.walls, &self.target);
        if out.is_empty() {
            let walls: Vec<[usize; 2]> = seen.walls.iter().copied().collect();
            let want = self.score;
            match check::score(&self.open, &walls) {
                Ok(s) if s == want => {}
                Ok(s) => out.push(format!("the walls score {s}, the optimum is {want}")),
                Err(why) => out.push(format!("the walls on the board are not valid: {why}")),
            }
            // The page's own score line, when the capture shows it, must agree too.
            match seen.score_shown {
                Some(vision::ShownScore::Value(v)) if v == want => {}
                Some(vision::ShownScore::Value(v)) => {
                    out.push(format!("the page shows score {v}, the optimum is {want}"))
                }
                Some(vision::ShownScore::NotEnclosed) => {
                    out.push("the page shows Score: N/A (no pen)".to_string())
                }
                None => {}
            }
        }
        Ok(out)
    }
}

impl Game for Enclose {
    fn name(&self) -> &'static str {
        "enclose"
    }

    fn detect(&self, screen: &Screen) -> Result<()> {
        vision::recognize(&screen.image, &vision::ReadOptions::default()).map(|_| ())
    }

    fn solve(&self, text: &str, source: &str, opts: &Options) -> Result<Solved> {
        let level = format::parse(text, source, opts.enclose.variant)?;
        Ok(solve_level(&level, opts).0)
    }

    fn scan(&self, screen: &Screen, opts: &Options) -> Result<Scanned> {
        Ok(scan_screen(screen, opts)?.2)
    }

    fn calibrate(&self, samples: &[Sample]) -> Result<Profile> {
        let mut known = Vec::new();
        for s in samples {
            let level = format::parse(&s.puzzle, &s.puzzle_source, None)?;
            known.push((
                s.name.clone(),
                s.screen.image.clone(),
                format::map_rows(&level),
            ));
        }
        vision::learn(&known)
    }

    /// Walls already on the board may be wrong, so the level is solved with all of them
    /// taken away, and the plan toggles the difference.
    fn prepare(&self, screen: &Screen, opts: &Options) -> Result<Prepared> {
        let (reading, level, scanned) = scan_screen(screen, opts)?;
        let mut open = level.clone();
        for t in open.tiles.iter_mut().filter(|t| **t == Tile::Wall) {
            *t = Tile::Grass;
        }
        let (solved, sol) = solve_level(&open, opts);
        let target: BTreeSet<[usize; 2]> = sol.walls.into_iter().collect();
        let plan = if solved.status() == Status::Unsolvable {
            Plan::new(screen.rect_to_screen(reading.geometry.board))
        } else {
            play::plan(&reading, &target, screen)
        };
        Ok(Prepared {
            scanned,
            solved,
            plan,
            check: Box::new(EncloseCheck {
                score: sol.score,
                target,
                open,
                geometry: reading.geometry,
            }),
        })
    }
}
