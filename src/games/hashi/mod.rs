//! Hashi / Bridges: formats, solver, recognition and play.

pub mod format;
pub mod model;
pub mod overlay;
pub mod play;
pub mod solve;
pub mod vision;

use crate::error::Result;
use crate::games::{Game, Options, Prepared, Scanned, Solved, Status};
use crate::plan::Plan;
use crate::screen::Screen;
use model::{Bridge, Bridges, Puzzle};
use serde_json::{json, Value};
use std::time::Instant;

pub struct Hashi;

fn bridges_json(bridges: &[Bridge]) -> Value {
    json!(bridges.iter().map(Bridge::to_array).collect::<Vec<_>>())
}

/// Solves and describes the outcome the way `solve --json` prints it.
fn solve_puzzle(puzzle: &Puzzle, opts: &Options) -> (Solved, Option<Bridges>) {
    let limits = solve::Limits {
        deadline: opts.timeout.map(|t| Instant::now() + t),
        ..Default::default()
    };
    let start = Instant::now();
    let outcome = solve::solve(puzzle, &limits);
    let elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    let rows = puzzle.rows();
    let (status, bridges, unique) = match outcome {
        solve::Outcome::Solved { bridges, unique } => (Status::Solved, Some(bridges), Some(unique)),
        solve::Outcome::Unsolvable => (Status::Unsolvable, None, None),
        solve::Outcome::GaveUp => (Status::GaveUp, None, None),
    };
    let mut json = json!({
        "game": "hashi",
        "status": status,
        "elapsed_ms": elapsed_ms,
        "rows": rows,
    });
    let text = match &bridges {
        Some(b) => {
            json["bridges"] = bridges_json(b);
            json["unique"] = json!(unique.unwrap_or(false));
            let mut t = model::render_with_bridges(puzzle, b).join("\n");
            t.push_str(&format!(
                "\n{} bridges, {} solution, {elapsed_ms:.2} ms\n",
                b.iter().map(|x| x.count as usize).sum::<usize>(),
                if unique == Some(true) {
                    "unique"
                } else {
                    "not unique"
                },
            ));
            t
        }
        None => format!(
            "{}\n",
            match status {
                Status::Unsolvable => "no solution exists",
                _ => "gave up (time or node limit) before finding a solution",
            }
        ),
    };
    (Solved { status, json, text }, bridges)
}

fn scan_reading(screen: &Screen) -> Result<(vision::Reading, Scanned)> {
    let reading = vision::recognize(&screen.image)?;
    let g = &reading.geometry;
    let json = json!({
        "game": "hashi",
        "style": reading.style,
        "width": reading.puzzle.width,
        "height": reading.puzzle.height,
        "rows": reading.puzzle.rows(),
        "puzzle": format::to_canonical(&reading.puzzle),
        "game_id": format::to_game_id(&reading.puzzle),
        "geometry": {
            "origin": [g.origin.x, g.origin.y],
            "pitch": g.pitch,
            "board": [g.board.0, g.board.1, g.board.2, g.board.3],
        },
        "bridges": bridges_json(&reading.bridges),
        "confidence": reading.confidence,
    });
    let mut overlay = screen.image.clone();
    overlay::draw(&mut overlay, &reading);
    let scanned = Scanned {
        json,
        puzzle: format::to_canonical(&reading.puzzle),
        overlay,
    };
    Ok((reading, scanned))
}

struct PreparedHashi {
    reading: vision::Reading,
    scanned: Scanned,
    solved: Solved,
    target: Bridges,
    plan: Plan,
}

impl Prepared for PreparedHashi {
    fn solved(&self) -> &Solved {
        &self.solved
    }
    fn scanned(&self) -> &Scanned {
        &self.scanned
    }
    fn plan(&self) -> &Plan {
        &self.plan
    }
    fn verify(&self, after: &Screen) -> Result<Vec<String>> {
        let again = vision::recognize(&after.image)?;
        Ok(play::differences(
            &again,
            &self.reading.puzzle,
            &self.target,
        ))
    }
}

impl Game for Hashi {
    fn name(&self) -> &'static str {
        "hashi"
    }

    fn solve(&self, text: &str, source: &str, opts: &Options) -> Result<Solved> {
        let puzzle = format::parse(text, source)?;
        Ok(solve_puzzle(&puzzle, opts).0)
    }

    fn scan(&self, screen: &Screen, _opts: &Options) -> Result<Scanned> {
        Ok(scan_reading(screen)?.1)
    }

    fn prepare(&self, screen: &Screen, opts: &Options) -> Result<Box<dyn Prepared>> {
        let (reading, scanned) = scan_reading(screen)?;
        let (solved, target) = solve_puzzle(&reading.puzzle, opts);
        let plan = match &target {
            Some(t) => play::plan(&reading, t, screen)?,
            None => {
                let (x, y, w, h) = reading.geometry.board;
                Plan::new(screen.rect_to_screen(x, y, w, h))
            }
        };
        Ok(Box::new(PreparedHashi {
            reading,
            scanned,
            solved,
            target: target.unwrap_or_default(),
            plan,
        }))
    }
}
