//! Exact Flow Free solver for every variant, in two stages over one node graph (`graph.rs`):
//!
//! 1. constraint propagation over edge states and per-node colour sets (`state.rs`, with the
//!    per-colour rule in `colour.rs` and the region rule in `regions.rs`), and a depth-first
//!    search that grows paths from their heads, allowed [`SEARCH_BUDGET`] branches (now none:
//!    most small boards end at the root fixpoint, and clauses do better on the rest);
//! 2. past that budget, the propagated root becomes clauses (`encode.rs`) for a
//!    clause-learning SAT solver (`sat.rs`), which does not thrash on open boards.
//!
//! Deterministic: the same puzzle takes the same path. How it came to be, with numbers:
//! `docs/flow-solver.md`.

mod colour;
mod encode;
mod graph;
mod regions;
mod sat;
mod scratch;
mod state;

use super::model::{Puzzle, Solution};
use graph::Graph;
use state::{State, OFF, ON, UNKNOWN};
use std::time::Instant;

/// Branches (and probes) the propagation search may spend before clause learning takes
/// over. None since the clause-learning stage got its no-touch first pass and its faster
/// propagation: past the root fixpoint, clauses win on every board size
/// (`docs/flow-solver.md`); the search then only notices a root that is already complete.
const SEARCH_BUDGET: u64 = 0;

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
    /// Branches and probes of the search (both sides of each choice count), plus the SAT
    /// solver's decisions.
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
        let root = search.st.mark();
        match search.run() {
            Ok(true) => Outcome::Solved(search.solution()),
            Ok(false) => Outcome::Unsolvable,
            Err(Stop::OutOfTime) => Outcome::GaveUp,
            Err(Stop::OverBudget) => {
                search.st.undo(root);
                let mut decisions = 0;
                let found = encode::solve(&mut search.st, limits.deadline, &mut decisions);
                search.effort.branches += decisions;
                match found {
                    encode::Found::Solved => Outcome::Solved(search.solution()),
                    encode::Found::Unsolvable => Outcome::Unsolvable,
                    encode::Found::OutOfTime => Outcome::GaveUp,
                }
            }
        }
    };
    (outcome, search.effort)
}

enum Stop {
    OutOfTime,
    /// The search used its budget: clause learning takes over.
    OverBudget,
}

enum Probe {
    /// Some head has no move left.
    Dead,
    /// A probe completed the board; the state holds the solution.
    Solved,
    Open,
}

struct Search<'g> {
    st: State<'g>,
    deadline: Option<Instant>,
    effort: Effort,
}

impl Search<'_> {
    /// True with the state holding a full solution; false when this subtree has none.
    fn run(&mut self) -> Result<bool, Stop> {
        match self.probe()? {
            Probe::Dead => return Ok(false),
            Probe::Solved => return Ok(true),
            Probe::Open => {}
        }
        let Some(e) = self.pick() else {
            return Ok(true);
        };
        for value in [ON, OFF] {
            self.tick()?;
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

    /// Counts a branch or a probe, and looks at the clock now and then.
    fn tick(&mut self) -> Result<(), Stop> {
        self.effort.branches += 1;
        if self.effort.branches > SEARCH_BUDGET {
            return Err(Stop::OverBudget);
        }
        if self.effort.branches.is_multiple_of(16)
            && self.deadline.is_some_and(|d| Instant::now() > d)
        {
            return Err(Stop::OutOfTime);
        }
        Ok(())
    }

    /// Tries each undecided edge at each path head on, and turns off those whose propagation
    /// fails, until none fails. What is left at each head are moves propagation cannot refute,
    /// so the branch then goes to the head with the fewest real choices.
    fn probe(&mut self) -> Result<Probe, Stop> {
        let mut heads = Vec::new();
        loop {
            heads.clear();
            let st = &self.st;
            for &(s, t) in &st.g.terminals {
                if st.end[s as usize] != t {
                    heads.push(st.end[s as usize] as usize);
                    heads.push(st.end[t as usize] as usize);
                }
            }
            let mut refuted = false;
            for &h in &heads {
                let g = self.st.g;
                for &(e, _) in g.adj(h) {
                    let e = e as usize;
                    if self.st.edge[e] != UNKNOWN {
                        continue;
                    }
                    self.tick()?;
                    let mark = self.st.mark();
                    if self.st.set_on(e).and_then(|_| self.st.propagate()).is_ok() {
                        if self.pick().is_none() {
                            return Ok(Probe::Solved);
                        }
                        self.st.undo(mark);
                    } else {
                        self.st.undo(mark);
                        if self
                            .st
                            .set_off(e)
                            .and_then(|_| self.st.propagate())
                            .is_err()
                        {
                            return Ok(Probe::Dead);
                        }
                        refuted = true;
                    }
                }
            }
            if !refuted {
                return Ok(Probe::Open);
            }
        }
    }

    /// An undecided edge at the head of a path grown from an endpoint, the head with the
    /// fewest choices; the edge goes to the neighbour with the fewest choices itself, which
    /// follows walls and other paths first. Branching only at heads keeps every path in one
    /// piece, so the colour rule sees whole paths and empty regions. `None` once every node
    /// is complete.
    fn pick(&self) -> Option<usize> {
        let st = &self.st;
        let g = st.g;
        let mut head: Option<(u8, usize)> = None;
        for &(s, t) in &g.terminals {
            if st.end[s as usize] == t {
                continue;
            }
            for h in [st.end[s as usize], st.end[t as usize]] {
                let h = h as usize;
                let u = st.unknown[h];
                if u > 0 && head.is_none_or(|(b, _)| u < b) {
                    head = Some((u, h));
                }
            }
        }
        if let Some((_, x)) = head {
            return self.edge_from(x);
        }
        self.pick_any()
    }

    /// Any open node, for the case no path is open (the colour rule should have left none).
    fn pick_any(&self) -> Option<usize> {
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
        self.edge_from(x)
    }

    /// The undecided edge at `x` towards the neighbour with the fewest undecided edges.
    fn edge_from(&self, x: usize) -> Option<usize> {
        let st = &self.st;
        st.g.adj(x)
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
