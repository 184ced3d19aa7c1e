//! Exact Flow Free solver for every variant: constraint propagation over edge states and
//! per-node colour sets (`state.rs`), then depth-first search that branches on one edge at
//! the most constrained open node of known colour. Deterministic: the same puzzle takes the same path.
//! How it came to be, with numbers: `docs/flow-solver.md`.

mod graph;
mod state;

use super::model::{Puzzle, Solution};
use graph::Graph;
use state::{State, OFF, ON, UNKNOWN};
use std::time::Instant;

#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Give up once this passes.
    pub deadline: Option<Instant>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Solved(Solution),
    /// Proven: no way to join every pair and cover every cell.
    Unsolvable,
    GaveUp,
}

/// How much search a solve took, for the bench and the notes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Effort {
    /// Branches tried (both sides of each choice count).
    pub branches: u64,
}

/// Solves `p`, or proves it has no solution, or gives up at the deadline.
pub fn solve(p: &Puzzle, limits: &Limits) -> Outcome {
    solve_counted(p, limits).0
}

/// `solve`, also reporting the effort spent.
pub fn solve_counted(p: &Puzzle, limits: &Limits) -> (Outcome, Effort) {
    let Ok(g) = Graph::new(p) else {
        return (Outcome::GaveUp, Effort::default());
    };
    let mut search = Search {
        st: State::new(&g),
        deadline: limits.deadline,
        effort: Effort::default(),
    };
    let outcome = if search.st.propagate().is_err() {
        Outcome::Unsolvable
    } else {
        match search.run() {
            Ok(true) => Outcome::Solved(search.solution()),
            Ok(false) => Outcome::Unsolvable,
            Err(OutOfTime) => Outcome::GaveUp,
        }
    };
    (outcome, search.effort)
}

struct OutOfTime;

struct Search<'g> {
    st: State<'g>,
    deadline: Option<Instant>,
    effort: Effort,
}

impl Search<'_> {
    /// True with the state holding a full solution; false when this subtree has none.
    fn run(&mut self) -> Result<bool, OutOfTime> {
        let Some(e) = self.pick() else {
            return Ok(true);
        };
        for value in [ON, OFF] {
            self.effort.branches += 1;
            if self.effort.branches.is_multiple_of(256)
                && self.deadline.is_some_and(|d| Instant::now() > d)
            {
                return Err(OutOfTime);
            }
            let mark = self.st.mark();
            let set = if value == ON {
                self.st.set_on(e)
            } else {
                self.st.set_off(e)
            };
            if set.and_then(|_| self.st.propagate()).is_ok() && self.run()? {
                return Ok(true);
            }
            self.st.undo(mark);
        }
        Ok(false)
    }

    /// An undecided edge at an open node whose colour is known (a path's growing head) with the
    /// fewest choices, else any open node; the edge goes to the neighbour with the fewest choices itself, which
    /// follows walls and other paths first. `None` once every node is complete.
    fn pick(&self) -> Option<usize> {
        let st = &self.st;
        let g = st.g;
        let mut best: Option<(u32, u32, usize)> = None;
        for x in 0..g.nodes() {
            if st.on[x] >= g.need[x] {
                continue;
            }
            let key = (
                u32::from(st.colours[x].count_ones() > 1),
                st.unknown[x] as u32,
            );
            if best.is_none_or(|(a, b, _)| key < (a, b)) {
                best = Some((key.0, key.1, x));
            }
        }
        let (_, _, x) = best?;
        g.adj(x)
            .iter()
            .filter(|&&(e, _)| st.edge[e as usize] == UNKNOWN)
            .min_by_key(|&&(_, y)| st.unknown[y as usize])
            .map(|&(e, _)| e as usize)
    }

    fn solution(&self) -> Solution {
        let st = &self.st;
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
}

#[cfg(test)]
mod tests;
