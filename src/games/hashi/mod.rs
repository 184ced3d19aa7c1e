//! Hashi / Bridges: formats, solver, recognition and play.

pub mod format;
pub mod model;
pub mod overlay;
pub mod play;
pub mod solve;
pub mod vision;

use crate::error::Result;
use crate::games::{Game, Options, Prepared, Scanned, Solved, Status, Verify};
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

fn scan_reading(screen: &Screen, opts: &Options) -> Result<(vision::Reading, Scanned)> {
    let mut reading = vision::recognize(&screen.image)?;
    if let Some(m) = opts.max_bridges {
        if reading.puzzle.islands.iter().any(|i| i.target > 4 * m) {
            return Err(crate::error::Error::Usage(format!(
                "--max-bridges {m} is too few for an island of {} on this board",
                reading
                    .puzzle
                    .islands
                    .iter()
                    .map(|i| i.target)
                    .max()
                    .unwrap_or(0)
            )));
        }
        reading.puzzle.max_bridges = m;
    }
    let json = json!({
        "game": "hashi",
        "style": reading.style,
        "width": reading.puzzle.width,
        "height": reading.puzzle.height,
        "rows": reading.puzzle.rows(),
        "puzzle": format::to_canonical(&reading.puzzle),
        "game_id": format::to_game_id(&reading.puzzle),
        "geometry": reading.geometry,
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

struct HashiCheck {
    reading: vision::Reading,
    target: Bridges,
}

impl Verify for HashiCheck {
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

    fn scan(&self, screen: &Screen, opts: &Options) -> Result<Scanned> {
        Ok(scan_reading(screen, opts)?.1)
    }

    fn prepare(&self, screen: &Screen, opts: &Options) -> Result<Prepared> {
        let (mut reading, scanned) = scan_reading(screen, opts)?;
        let (mut solved, mut target) = solve_puzzle(&reading.puzzle, opts);
        // The Bridges app never shows its bridge limit; 2 is its default. A board with no
        // solution under it is tried with the larger limits the app offers.
        let limit_hidden = reading.style == vision::Style::Sgt && opts.max_bridges.is_none();
        while limit_hidden && solved.status == Status::Unsolvable && reading.puzzle.max_bridges < 4
        {
            reading.puzzle.max_bridges += 1;
            (solved, target) = solve_puzzle(&reading.puzzle, opts);
            let note = format!(
                "no solution with fewer bridges per pair: solved with at most {} (--max-bridges)\n",
                reading.puzzle.max_bridges
            );
            if solved.status != Status::Unsolvable {
                solved.text.push_str(&note);
            }
        }
        solved.json["max_bridges"] = json!(reading.puzzle.max_bridges);
        let plan = match &target {
            Some(t) => play::plan(&reading, t, screen)?,
            None => Plan::new(screen.rect_to_screen(reading.geometry.board)),
        };
        Ok(Prepared {
            scanned,
            solved,
            plan,
            check: Box::new(HashiCheck {
                reading,
                target: target.unwrap_or_default(),
            }),
        })
    }
}
