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
