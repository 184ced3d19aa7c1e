//! Flow Free as clauses for `sat.rs`, written from what propagation left open (decided edges
//! and single colours are constants, so the formula only holds the open part):
//!
//! * each node takes at least one of its colours. "At most one" needs no clauses: in a
//!   model without loops every node lies on a path whose two endpoints fix each colour along
//!   it through the edges on, and the pairwise clauses made the formula larger and the
//!   search longer (`docs/flow-solver.md`);
//! * each node has exactly `need` edges on;
//! * an edge on gives its two nodes the same colour;
//! * no loop of three or four edges (triangles on hex boards, squares elsewhere), up front.
//!
//! A model can still hold longer loops, which these local clauses cannot see; `solve` then
//! forbids each loop it finds and asks again, until a model has none (every component is then
//! a path between two endpoints of one colour) or no model is left.

use super::sat::{pos, Answer, Lit, Sat};
use super::state::{State, OFF, ON, UNKNOWN};
use crate::solving::Limits;
use std::time::Instant;

const NONE: u32 = u32::MAX;

/// A literal of the encoding before constants are folded in.
#[derive(Clone, Copy)]
enum L {
    Const(bool),
    Var(Lit),
}

impl L {
    fn not(self) -> L {
        match self {
            L::Const(b) => L::Const(!b),
            L::Var(l) => L::Var(l ^ 1),
        }
    }
}

pub(super) enum Found {
    /// The state's edges now hold a full solution.
    Solved,
    Unsolvable,
    OutOfTime,
    /// The clauses would hold more than the memory allowed.
    OutOfMemory,
}

struct Encoding {
    edge_var: Vec<u32>,
    /// `node * colours + k`.
    colour_var: Vec<u32>,
    colours: usize,
}

impl Encoding {
    fn edge(&self, st: &State, e: usize) -> L {
        match st.edge[e] {
            ON => L::Const(true),
            OFF => L::Const(false),
            _ => L::Var(pos(self.edge_var[e])),
        }
    }

    fn colour(&self, st: &State, x: usize, k: usize) -> L {
        let bit = 1u64 << k;
        if st.colours[x] & bit == 0 {
            L::Const(false)
        } else if st.colours[x] == bit {
            L::Const(true)
        } else {
            L::Var(pos(self.colour_var[x * self.colours + k]))
        }
    }
}

/// Adds the clause unless a constant satisfies it.
fn clause(sat: &mut Sat, lits: &[L], buf: &mut Vec<Lit>) {
    buf.clear();
    for &l in lits {
        match l {
            L::Const(true) => return,
            L::Const(false) => {}
            L::Var(v) => buf.push(v),
        }
    }
    sat.add(buf);
}

/// Which formula to write.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rules {
    /// Every solution.
    Exact,
    /// Only solutions in which two neighbours share a colour exactly when a link between
    /// them is on: no path runs along itself. Not every solvable board has such a solution,
    /// so this pass may only be trusted when it finds one.
    NoTouch,
}

/// Finishes the search from a propagated state by clause learning; on success the state's
/// edges hold the solution.
///
/// First over solutions whose paths never touch themselves: then a node's colour decides its
/// links, which propagates far better. Most app boards have such a solution; when this pass
/// finds none, the exact formula decides.
pub(super) fn solve(st: &mut State, limits: &Limits, decisions: &mut u64) -> Found {
    match solve_with(st, Rules::NoTouch, limits, decisions, &[]) {
        Found::Unsolvable => solve_with(st, Rules::Exact, limits, decisions, &[]),
        found => found,
    }
}

/// As [`solve`], over the solutions in which at least one of `edges` is off; `Unsolvable`
/// then proves that every solution has all of them on. Only the exact formula may say so.
pub(super) fn solve_avoiding(
    st: &mut State,
    edges: &[u32],
    limits: &Limits,
    decisions: &mut u64,
) -> Found {
    solve_with(st, Rules::Exact, limits, decisions, edges)
}

fn solve_with(
    st: &mut State,
    rules: Rules,
    limits: &Limits,
    decisions: &mut u64,
    avoid: &[u32],
) -> Found {
    let deadline = limits.deadline;
    if deadline.is_some_and(|d| Instant::now() > d) {
        return Found::OutOfTime;
    }
    let g = st.g;
    let n = g.nodes();
    let colours = g.terminals.len();
    let mut vars = 0u32;
    let mut edge_var = vec![NONE; g.ends.len()];
    for (e, v) in edge_var.iter_mut().enumerate() {
        if st.edge[e] == UNKNOWN {
            *v = vars;
            vars += 1;
        }
    }
    let mut colour_var = vec![NONE; n * colours];
    for x in 0..n {
        if st.colours[x].count_ones() > 1 {
            for k in 0..colours {
                if st.colours[x] & (1 << k) != 0 {
                    colour_var[x * colours + k] = vars;
                    vars += 1;
                }
            }
        }
    }
    let enc = Encoding {
        edge_var,
        colour_var,
        colours,
    };
    let mut sat = Sat::new(vars as usize);
    sat.memory = limits.memory;
    let mut buf = Vec::new();
    let mut lits = Vec::new();

    // On a big board with many colours the formula alone takes seconds and can outgrow the
    // memory allowed: both are watched while it is written.
    let past = |sat: &Sat| {
        if sat.over_memory() {
            Some(Found::OutOfMemory)
        } else if deadline.is_some_and(|d| Instant::now() > d) {
            Some(Found::OutOfTime)
        } else {
            None
        }
    };
    for x in 0..n {
        if x % 1024 == 0 {
            if let Some(end) = past(&sat) {
                return end;
            }
        }
        let c = st.colours[x];
        if c.count_ones() > 1 {
            lits.clear();
            lits.extend(
                (0..colours)
                    .filter(|&k| c & (1 << k) != 0)
                    .map(|k| enc.colour(st, x, k)),
            );
            clause(&mut sat, &lits, &mut buf);
        }
        // Exactly `left` of the open edges: no `left + 1` of them on, no `open - left + 1`
        // of them off.
        let open: Vec<L> = g
            .adj(x)
            .iter()
            .filter(|&&(e, _)| st.edge[e as usize] == UNKNOWN)
            .map(|&(e, _)| enc.edge(st, e as usize))
            .collect();
        let left = (g.need[x] - st.on[x]) as usize;
        for mask in 1u32..1 << open.len() {
            let size = mask.count_ones() as usize;
            let chosen = || (0..open.len()).filter(move |&i| mask & (1 << i) != 0);
            if size == left + 1 {
                lits.clear();
                lits.extend(chosen().map(|i| open[i].not()));
                clause(&mut sat, &lits, &mut buf);
            }
            if left > 0 && size == open.len() - left + 1 {
                lits.clear();
                lits.extend(chosen().map(|i| open[i]));
                clause(&mut sat, &lits, &mut buf);
            }
        }
    }
    for (e, &(u, v)) in g.ends.iter().enumerate() {
        if e % 1024 == 0 {
            if let Some(end) = past(&sat) {
                return end;
            }
        }
        let (u, v) = (u as usize, v as usize);
        let both = st.colours[u] | st.colours[v];
        for k in (0..colours).filter(|&k| both & (1 << k) != 0) {
            let on = enc.edge(st, e);
            let (cu, cv) = (enc.colour(st, u, k), enc.colour(st, v, k));
            clause(&mut sat, &[on.not(), cu.not(), cv], &mut buf);
            clause(&mut sat, &[on.not(), cv.not(), cu], &mut buf);
            if rules == Rules::NoTouch {
                clause(&mut sat, &[on, cu.not(), cv.not()], &mut buf);
            }
        }
    }
    short_loops(st, &enc, &mut sat, &mut buf);
    if !avoid.is_empty() {
        lits.clear();
        lits.extend(avoid.iter().map(|&e| enc.edge(st, e as usize).not()));
        clause(&mut sat, &lits, &mut buf);
    }
    if let Some(end) = past(&sat) {
        return end;
    }

    loop {
        let answer = sat.solve(deadline);
        *decisions += sat.decisions;
        sat.decisions = 0;
        match answer {
            Answer::Unsat => return Found::Unsolvable,
            Answer::OutOfTime => return Found::OutOfTime,
            Answer::OutOfMemory => return Found::OutOfMemory,
            Answer::Sat => {}
        }
        let on: Vec<bool> = (0..g.ends.len())
            .map(|e| match st.edge[e] {
                ON => true,
                OFF => false,
                _ => sat.model(enc.edge_var[e]),
            })
            .collect();
        let loops = loops_in(st, &on);
        if loops.is_empty() {
            for (e, &is_on) in on.iter().enumerate() {
                st.edge[e] = if is_on { ON } else { OFF };
            }
            return Found::Solved;
        }
        for cycle in loops {
            // The loop's nodes lie on paths between endpoints in any solution, so some edge
            // leaving them is on: this forbids every way of closing them off, not just this
            // loop.
            let mut inside = vec![false; n];
            for &e in &cycle {
                let (u, v) = g.ends[e];
                inside[u as usize] = true;
                inside[v as usize] = true;
            }
            lits.clear();
            for x in (0..n).filter(|&x| inside[x]) {
                for &(e, y) in g.adj(x) {
                    if !inside[y as usize] {
                        lits.push(enc.edge(st, e as usize));
                    }
                }
            }
            clause(&mut sat, &lits, &mut buf);
        }
    }
}

/// Forbids every loop of three or four open edges, each found once from its least node.
fn short_loops(st: &State, enc: &Encoding, sat: &mut Sat, buf: &mut Vec<Lit>) {
    let g = st.g;
    let usable = |e: u32| st.edge[e as usize] != OFF;
    for a in 0..g.nodes() as u32 {
        let near: Vec<(u32, u32)> = g
            .adj(a as usize)
            .iter()
            .copied()
            .filter(|&(e, y)| usable(e) && y > a)
            .collect();
        for (i, &(e1, b)) in near.iter().enumerate() {
            for &(e2, d) in &near[i + 1..] {
                // Triangle a-b-d.
                for &(e3, y) in g.adj(b as usize) {
                    if y == d && usable(e3) {
                        let lits = [e1, e3, e2].map(|e| enc.edge(st, e as usize).not());
                        clause(sat, &lits, buf);
                    }
                }
                // Square a-b-c-d with c above a.
                for &(e3, c) in g.adj(b as usize) {
                    if c <= a || c == d || !usable(e3) {
                        continue;
                    }
                    for &(e4, y) in g.adj(d as usize) {
                        if y == c && usable(e4) {
                            let lits = [e1, e3, e4, e2].map(|e| enc.edge(st, e as usize).not());
                            clause(sat, &lits, buf);
                        }
                    }
                }
            }
        }
    }
}

/// The edge lists of the loops among the edges `on` (components holding no endpoint).
fn loops_in(st: &State, on: &[bool]) -> Vec<Vec<usize>> {
    let g = st.g;
    let n = g.nodes();
    let mut seen = vec![false; n];
    let walk = |start: usize, seen: &mut Vec<bool>| -> Vec<usize> {
        let mut edges = Vec::new();
        let (mut prev_edge, mut x) = (NONE, start);
        loop {
            seen[x] = true;
            let next = g
                .adj(x)
                .iter()
                .find(|&&(e, _)| on[e as usize] && e != prev_edge);
            match next {
                Some(&(e, y)) if !seen[y as usize] || y as usize == start => {
                    edges.push(e as usize);
                    if y as usize == start {
                        return edges;
                    }
                    (prev_edge, x) = (e, y as usize);
                }
                _ => return edges,
            }
        }
    };
    for &(s, _) in &g.terminals {
        walk(s as usize, &mut seen);
    }
    let mut loops = Vec::new();
    for x in 0..n {
        if !seen[x] && g.adj(x).iter().any(|&(e, _)| on[e as usize]) {
            loops.push(walk(x, &mut seen));
        }
    }
    loops
}
