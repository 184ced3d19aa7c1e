//! What `solve` prints for a Loop puzzle: the typed `solve --json` object and the text.

use super::model::{render, Cycle, Puzzle};
use super::solve::{self, Outcome};
use crate::report::{Detail, SolveReport, Status};
use serde::Serialize;
use std::time::Instant;

/// Loop's fields of `solve --json`, beside the shared `game`, `status` and `elapsed_ms`.
#[derive(Debug, Clone, Serialize)]
pub struct SolveJson {
    pub width: usize,
    pub height: usize,
    /// The puzzle rows as read: a digit per hint, `.` elsewhere.
    pub rows: Vec<String>,
    /// True when any closed loop was accepted, false when it had to visit every cell.
    pub any_loop: bool,
    /// The loop's cells in order, `[row, col]`; the last steps back to the first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycle: Option<Cycle>,
    /// Whether the search proved this is the only loop (false: another exists, or the proof
    /// ran out of budget; see `solve::Options::proof_nodes`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
}

/// Solves and describes the outcome: the `solve --json` report, the human text, and the loop.
pub fn solve_report(p: &Puzzle, opts: &solve::Options) -> (SolveReport, String, Option<Cycle>) {
    let start = Instant::now();
    let outcome = solve::solve(p, opts);
    let elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    let (status, cycle, unique) = match outcome {
        Outcome::Solved { cycle, unique } => (Status::Solved, Some(cycle), Some(unique)),
        Outcome::Unsolvable => (Status::Unsolvable, None, None),
        Outcome::GaveUp => (Status::GaveUp, None, None),
    };
    let text = match &cycle {
        Some(c) => {
            let mut t = render(p.width, p.height, c).join("\n");
            t.push_str(&format!(
                "\n{} of {} cells on the loop, {}, {elapsed_ms:.2} ms\n",
                c.len(),
                p.cells(),
                if unique == Some(true) {
                    "unique"
                } else {
                    "not proven unique"
                }
            ));
            t
        }
        None if status == Status::Unsolvable => "no loop meets these hints\n".to_string(),
        None => "gave up (time limit) before finding a loop\n".to_string(),
    };
    let json = SolveJson {
        width: p.width,
        height: p.height,
        rows: p.rows(),
        any_loop: opts.any_loop,
        cycle: cycle.clone(),
        unique,
    };
    let report = SolveReport {
        game: "loop",
        status,
        elapsed_ms,
        detail: Detail::of(&json),
    };
    (report, text, cycle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::loopgame::format::parse;

    #[test]
    fn json_carries_cycle_and_unique() {
        let p = parse("....\n....\n", "t").unwrap();
        let (json, text, _) = solve_report(&p, &solve::Options::default());
        let v = serde_json::to_value(&json).unwrap();
        assert_eq!(v["status"], "solved");
        assert_eq!(v["game"], "loop");
        assert_eq!(v["cycle"].as_array().unwrap().len(), 8);
        assert_eq!(v["cycle"][0], serde_json::json!([0, 0]));
        assert_eq!(v["unique"], true);
        assert!(text.starts_with("┌──┐\n└──┘\n"), "{text}");
    }

    #[test]
    fn unsolvable_has_no_cycle() {
        let p = parse("...\n...\n...\n", "t").unwrap();
        let (json, text, _) = solve_report(&p, &solve::Options::default());
        let v = serde_json::to_value(&json).unwrap();
        assert_eq!(v["status"], "unsolvable");
        assert!(v.get("cycle").is_none());
        assert!(text.contains("no loop"));
    }
}
