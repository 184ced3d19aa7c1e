//! What a solve prints: the board with its paths drawn, and the `solve --json` object.

use super::format::lattice;
use super::model::{Puzzle, Solution};
use crate::solving::Outcome;
use serde::Serialize;
use std::collections::BTreeMap;

/// The solved board on the seed's lattice: each cell shows its path's letter (`*` stays on
/// bridges), and only the links a path uses are drawn, so every path reads as a line.
pub fn render(p: &Puzzle, s: &Solution) -> String {
    let mut letter = vec!['.'; p.cells.len()];
    let mut used = vec![false; p.links.len()];
    for (f, path) in p.flows.iter().zip(&s.paths) {
        for &c in path {
            letter[c] = if p.cells[c].bridge { '*' } else { f.letter };
        }
        for w in path.windows(2) {
            if let Some(k) = p.links_at(w[0]).iter().copied().find(|&k| {
                let l = p.links[k];
                (l.a == w[0] && l.b == w[1]) || (l.a == w[1] && l.b == w[0])
            }) {
                used[k] = true;
            }
        }
    }
    match lattice(p, |k| letter[k], |k| used[k]) {
        Ok(lines) => lines.join("\n") + "\n",
        // Only wraps that skip a row's end cells miss the lattice: fall back to one line a path.
        Err(_) => paths_text(p, s),
    }
}

fn paths_text(p: &Puzzle, s: &Solution) -> String {
    let mut out = String::new();
    for (f, path) in p.flows.iter().zip(&s.paths) {
        let cells: Vec<String> = path
            .iter()
            .map(|&c| format!("({},{})", p.cells[c].row, p.cells[c].col))
            .collect();
        out.push_str(&format!("{}: {}\n", f.letter, cells.join(" ")));
    }
    out
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
