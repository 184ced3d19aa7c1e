//! Exact Flow Free solver for every variant, in two stages over one node graph (`graph.rs`):
//!
//! 1. constraint propagation over edge states and per-node colour sets (`state.rs`, with the
//!    per-colour rule in `colour.rs` and the region rule in `regions.rs`): most small boards
//!    end complete at this root fixpoint;
//! 2. the rest become clauses (`encode.rs`) for a clause-learning SAT solver (`sat.rs`), which
//!    does not thrash on open boards.
//!
//! Deterministic: the same puzzle takes the same path. How it came to be, with numbers (and
//! the depth-first search over path heads that clause learning replaced):
//! `docs/flow-solver.md`.

mod colour;
mod encode;
mod graph;
mod regions;
mod sat;
mod scratch;
mod state;

use super::model::{Puzzle, Solution};
use crate::solving::{Limits, Outcome};
use graph::Graph;
use state::{State, OFF, ON};

/// How much search a solve took, for the bench and the notes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Effort {
    /// The SAT solver's decisions.
    pub branches: u64,
}

/// Solves `p`, or proves it has no solution, or gives up at the deadline.
pub fn solve(p: &Puzzle, limits: &Limits) -> Outcome<Solution> {
    solve_counted(p, limits).0
}

/// `solve`, also reporting the effort spent.
pub fn solve_counted(p: &Puzzle, limits: &Limits) -> (Outcome<Solution>, Effort) {
    let Ok(g) = Graph::new(p) else {
        return (Outcome::GaveUp(None), Effort::default());
    };
    let mut st = State::new(&g);
    let mut effort = Effort::default();
    let outcome = if st.propagate().is_err() {
        Outcome::Unsolvable
    } else if complete(&st) {
        Outcome::Solved(solution(&st))
    } else {
        match encode::solve(&mut st, limits, &mut effort.branches) {
            encode::Found::Solved => Outcome::Solved(solution(&st)),
            encode::Found::Unsolvable => Outcome::Unsolvable,
            encode::Found::OutOfTime | encode::Found::OutOfMemory => Outcome::GaveUp(None),
        }
    };
    (outcome, effort)
}

/// Whether every solution of `p` draws a flow along `path` (its cells, from one endpoint to the
/// other): `Some(true)` when propagation alone draws it, or when no solution leaves any of its
/// links off; `Some(false)` when a solution draws that flow another way; `None` when the limits
/// came first or the path is not one of the board's.
pub fn forced(p: &Puzzle, path: &[usize], limits: &Limits) -> Option<bool> {
    let g = Graph::new(p).ok()?;
    let mut nodes_of = vec![Vec::new(); p.cells.len()];
    for (x, &c) in g.cell_of.iter().enumerate() {
        nodes_of[c].push(x);
    }
    let mut edges = Vec::with_capacity(path.len());
    for w in path.windows(2) {
        let &(e, _) = nodes_of[w[0]]
            .iter()
            .flat_map(|&x| g.adj(x))
            .find(|&&(_, y)| g.cell_of[y as usize] == w[1])?;
        edges.push(e);
    }
    let mut st = State::new(&g);
    st.propagate().ok()?;
    if edges.iter().any(|&e| st.edge[e as usize] == OFF) {
        return None;
    }
    let open: Vec<u32> = edges
        .into_iter()
        .filter(|&e| st.edge[e as usize] != ON)
        .collect();
    if open.is_empty() {
        return Some(true);
    }
    match encode::solve_avoiding(&mut st, &open, limits, &mut 0) {
        encode::Found::Unsolvable => Some(true),
        encode::Found::Solved => Some(false),
        encode::Found::OutOfTime | encode::Found::OutOfMemory => None,
    }
}

/// Whether every edge is decided and every node has all the edges it needs: the propagated
/// root already solves the board.
fn complete(st: &State) -> bool {
    st.edge.iter().all(|&s| s == ON || s == OFF)
        && (0..st.g.nodes()).all(|x| st.on[x] >= st.g.need[x])
}

/// The paths a complete state draws, each from its first endpoint to its second.
fn solution(st: &State) -> Solution {
    let g = st.g;
    let paths = g
        .terminals
        .iter()
        .map(|&(s, t)| {
            let mut path = vec![g.cell_of[s as usize]];
            let (mut prev, mut x) = (u32::MAX, s);
            while x != t {
                let &(_, y) = g
                    .adj(x as usize)
                    .iter()
                    .find(|&&(e, y)| st.edge[e as usize] == ON && y != prev)
                    .expect("a complete state joins every pair");
                path.push(g.cell_of[y as usize]);
                (prev, x) = (x, y);
            }
            path
        })
        .collect();
    debug_assert!(st.edge.iter().all(|&s| s == ON || s == OFF));
    Solution { paths }
}

#[cfg(test)]
mod tests;
