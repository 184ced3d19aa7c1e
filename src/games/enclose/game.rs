//! enclose.horse behind the common `Game` interface.

use super::format;
use super::model::{Level, SolveStatus, Tile, Variant};
use super::{check, play, solve, vision};
use crate::error::{Error, Result};
use crate::games::{Game, Options, Prepared, Scanned, Solved, Status, Verify};
use crate::plan::Plan;
use crate::screen::Screen;
use serde_json::json;
use std::collections::BTreeSet;
use std::time::Instant;

pub struct Enclose;

fn variant_option(opts: &Options) -> Result<Option<Variant>> {
    opts.variant
        .as_deref()
        .map(|v| format::parse_variant(v, "--variant", 1, 1))
        .transpose()
}

fn solve_level(level: &Level, opts: &Options) -> (Solved, Vec<[usize; 2]>) {
    let deadline = opts.timeout.map(|t| Instant::now() + t);
    let sol = solve::solve(level, deadline);
    let status = match sol.status {
        SolveStatus::Optimal => Status::Optimal,
        SolveStatus::GaveUp => Status::GaveUp,
        SolveStatus::Unsolvable => Status::Unsolvable,
    };
    let json = json!({
        "game": "enclose",
        "variant": level.variant.name(),
        "status": status,
        "score": sol.score,
        "bound": sol.bound,
        "walls": sol.walls,
        "elapsed_ms": sol.elapsed_ms,
    });
    let text = solve::render_solution(level, &sol);
    (Solved { status, json, text }, sol.walls)
}

/// The reading as a level: the budget from the picture, else from `--budget`.
fn level_of(reading: &vision::Reading, screen: &Screen, opts: &Options) -> Result<Level> {
    let budget = opts.budget.or(reading.budget).ok_or_else(|| {
        Error::Usage(format!(
            "{}: the wall budget is not shown; give it with --budget N",
            screen.label
        ))
    })?;
    let variant = match variant_option(opts)? {
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
            budget: opts.budget,
        },
    )?;
    let level = level_of(&reading, screen, opts)?;
    let json = json!({
        "game": "enclose",
        "rows": reading.rows,
        "budget": level.budget,
        "variant": level.variant.name(),
        "walls_placed": reading.walls_placed,
        "theme": reading.theme,
        "enclosed": reading.enclosed,
        "score_shown": match reading.score_shown {
            Some(vision::ShownScore::Value(v)) => json!(v),
            Some(vision::ShownScore::NotEnclosed) => json!("N/A"),
            None => json!(null),
        },
        "puzzle": format::to_canonical(&level),
        "geometry": reading.geometry,
        "confidence": reading.confidence,
    });
    let mut overlay = screen.image.clone();
    vision::draw_overlay(&mut overlay, &reading);
    let scanned = Scanned {
        json,
        puzzle: format::to_canonical(&level),
        overlay,
    };
    Ok((reading, level, scanned))
}

struct EncloseCheck {
    /// The optimum's score.
    score: i64,
    target: BTreeSet<[usize; 2]>,
    /// The level with every wall taken away, to re-score what the board shows after play.
    open: Level,
    budget: Option<u32>,
}

impl Verify for EncloseCheck {
    fn verify(&self, after: &Screen) -> Result<Vec<String>> {
        let again = vision::recognize(
            &after.image,
            &vision::ReadOptions {
                budget: self.budget,
            },
        )?;
        let mut out = play::differences(&again, &self.target);
        if out.is_empty() {
            let walls: Vec<[usize; 2]> = play::placed_walls(&again).into_iter().collect();
            let want = self.score;
            match check::score(&self.open, &walls) {
                Ok(s) if s as i64 == want => {}
                Ok(s) => out.push(format!("the walls score {s}, the optimum is {want}")),
                Err(why) => out.push(format!("the walls on the board are not valid: {why}")),
            }
            // The page's own score line, when the capture shows it, must agree too.
            match again.score_shown {
                Some(vision::ShownScore::Value(v)) if v as i64 == want => {}
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

    fn solve(&self, text: &str, source: &str, opts: &Options) -> Result<Solved> {
        let level = format::parse(text, source, variant_option(opts)?)?;
        Ok(solve_level(&level, opts).0)
    }

    fn scan(&self, screen: &Screen, opts: &Options) -> Result<Scanned> {
        Ok(scan_screen(screen, opts)?.2)
    }

    /// Walls already on the board may be wrong, so the level is solved with all of them
    /// taken away, and the plan toggles the difference.
    fn prepare(&self, screen: &Screen, opts: &Options) -> Result<Prepared> {
        let (reading, level, scanned) = scan_screen(screen, opts)?;
        let mut open = level.clone();
        for t in open.tiles.iter_mut().filter(|t| **t == Tile::Wall) {
            *t = Tile::Grass;
        }
        let (solved, walls) = solve_level(&open, opts);
        let target: BTreeSet<[usize; 2]> = walls.into_iter().collect();
        let plan = if solved.status == Status::Unsolvable {
            Plan::new(screen.rect_to_screen(reading.geometry.board))
        } else {
            play::plan(&reading, &target, screen)
        };
        let score = solved.json["score"].as_i64().unwrap_or(0);
        Ok(Prepared {
            scanned,
            solved,
            plan,
            check: Box::new(EncloseCheck {
                score,
                target,
                open,
                budget: opts.budget,
            }),
        })
    }
}
