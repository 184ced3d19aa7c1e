//! The Lagrangian closure network of [`super::super::one_pen`], kept for the whole island so
//! that a flow found at one search node is a valid start at its children.
//!
//! Each cell c has an in-pen node a = 2c and, when it takes walls, a node b = 2c + 1 (in the
//! pen or walled); s = 2m, t = 2m + 1. The closure (tile in ⇒ each neighbour in or walled)
//! weighs a pen tile w and a wall −p. As a min cut it would be s → a (w + p), a → b (∞),
//! b → t (p) plus a → neighbour (∞); here p units are pre-pushed along s → a → b → t for every
//! interior wallable cell, which leaves s → a (w), a → b (∞), b → a (p). The price p then sits
//! only on b → a (and b → t of wallable border cells), so a node's own constraints, which only
//! force arcs to ∞ (X in, walls and unreachable cells out), never shrink a capacity: the
//! parent's flow stays feasible and only the difference is augmented. Lowering p can shrink
//! b → a below its flow; that excess is cancelled along flow paths before augmenting again.
//!
//! Max closure value = Σ w⁺ − (flow of this network).

use super::arcs::Arcs;
use super::boykov_kolmogorov::{Csr, Trees};

const NIL: u32 = u32::MAX;
pub(crate) const INF: i32 = 1 << 28;

/// The flow state of one search node: residual capacities, the wall price they were built
/// for, and the flow value.
#[derive(Clone)]
pub(crate) struct Flow {
    pub(crate) res: Vec<i32>,
    pub(crate) p: i32,
    pub(crate) value: i64,
}

pub(crate) struct Closure {
    m: usize,
    start: Vec<u32>,
    to: Vec<u32>,
    rev: Vec<u32>,
    /// Forward arc of each edge (reverse arcs start at 0 and hold the edge's flow).
    fwd: Vec<bool>,
    /// Per cell: the arcs s → a, a → t, s → b and the priced arc (b → a inside, b → t on the
    /// border); NIL where the cell has none.
    sa: Vec<u32>,
    at: Vec<u32>,
    sb: Vec<u32>,
    priced: Vec<u32>,
    /// Σ w⁺.
    pub(crate) total: i64,
    trees: Trees,
    iter: Vec<u32>,
    mark: Vec<u32>,
    stamp: u32,
    path: Vec<u32>,
}

impl Closure {
    /// `w`: scaled cell values; `nbr(c)`: neighbours; `wallable`, `border` per cell.
    pub(crate) fn new(
        w: &[i32],
        wallable: &[bool],
        border: &[bool],
        nbrs: impl Fn(usize) -> Vec<u32>,
    ) -> (Closure, Flow) {
        let m = w.len();
        let (s, t) = (2 * m, 2 * m + 1);
        let nn = 2 * m + 2;
        let mut edges: Vec<(u32, u32, i32)> = Vec::new();
        let idx = |edges: &mut Vec<(u32, u32, i32)>, u: usize, v: usize, c: i32| {
            edges.push((u as u32, v as u32, c));
            (edges.len() - 1) as u32
        };
        let (mut sa, mut at, mut sb, mut priced) =
            (vec![NIL; m], vec![NIL; m], vec![NIL; m], vec![NIL; m]);
        for c in 0..m {
            let (a, b) = (2 * c, 2 * c + 1);
            sa[c] = idx(&mut edges, s, a, w[c].max(0));
            at[c] = idx(
                &mut edges,
                a,
                t,
                if border[c] { INF } else { (-w[c]).max(0) },
            );
            if wallable[c] {
                sb[c] = idx(&mut edges, s, b, 0);
                if border[c] {
                    priced[c] = idx(&mut edges, b, t, 0);
                } else {
                    idx(&mut edges, a, b, INF);
                    priced[c] = idx(&mut edges, b, a, 0);
                }
            }
            for d in nbrs(c) {
                let d = d as usize;
                idx(&mut edges, a, 2 * d + usize::from(wallable[d]), INF);
            }
        }
        let Arcs {
            start,
            to,
            rev,
            fwd,
            cap: res,
            of_edge: arc,
        } = Arcs::new(nn, &edges);
        let remap = |v: &mut Vec<u32>| {
            for e in v.iter_mut().filter(|e| **e != NIL) {
                *e = arc[*e as usize];
            }
        };
        remap(&mut sa);
        remap(&mut at);
        remap(&mut sb);
        remap(&mut priced);
        let total = w.iter().map(|&x| x.max(0) as i64).sum();
        let net = Closure {
            m,
            start,
            to,
            rev,
            fwd,
            sa,
            at,
            sb,
            priced,
            total,
            trees: Trees::new(nn),
            iter: vec![0; nn],
            mark: vec![0; nn],
            stamp: 0,
            path: Vec::new(),
        };
        let flow = Flow {
            res,
            p: 0,
            value: 0,
        };
        (net, flow)
    }

    fn force(f: &mut Flow, e: u32) {
        if e != NIL {
            f.res[e as usize] = INF;
        }
    }

    /// Cell `c` is in the pen (part of X).
    pub(crate) fn force_in(&self, f: &mut Flow, c: usize) {
        Self::force(f, self.sa[c]);
    }

    /// Cell `c` is not in the pen (unreachable, a bee kept out).
    pub(crate) fn force_out(&self, f: &mut Flow, c: usize) {
        Self::force(f, self.at[c]);
    }

    /// Cell `c` holds a wall (its price is paid: the caller adds it back).
    pub(crate) fn force_wall(&self, f: &mut Flow, c: usize) {
        Self::force(f, self.at[c]);
        Self::force(f, self.sb[c]);
    }

    /// Cell `c` takes no wall: in the pen or out of it (the quarrel search forbids walls on
    /// the tiles an earlier branch left unwalled).
    pub(crate) fn forbid_wall(&self, f: &mut Flow, c: usize) {
        Self::force(f, self.priced[c]);
    }

    /// Sets the wall price; flow over a lowered capacity is cancelled along flow paths.
    pub(crate) fn set_price(&mut self, f: &mut Flow, p: i32) {
        let t = 2 * self.m + 1;
        let delta = p - f.p;
        f.p = p;
        if delta == 0 {
            return;
        }
        for c in 0..self.m {
            let e = self.priced[c];
            if e == NIL {
                continue;
            }
            let e = e as usize;
            let r = f.res[e] + delta;
            if r >= 0 {
                f.res[e] = r;
                continue;
            }
            f.res[e] = 0;
            let excess = -r;
            let b = self.to[self.rev[e] as usize] as usize;
            let head = self.to[e] as usize;
            f.res[self.rev[e] as usize] -= excess;
            // b now has `excess` too much inflow and head as much too little: cancel flow from
            // s to b (or round a cycle from head to b), then from head to t.
            let (mut surplus, mut deficit) = (excess, if head == t { 0 } else { excess });
            while surplus > 0 {
                let alt = (deficit > 0).then_some(head);
                let (end, amt) = self.cancel(f, b, surplus, true, alt);
                surplus -= amt;
                if end == head {
                    deficit -= amt;
                } else {
                    f.value -= amt as i64;
                }
            }
            while deficit > 0 {
                deficit -= self.cancel(f, head, deficit, false, None).1;
            }
        }
    }

    /// Cancels up to `amount` of flow on one path of flow-carrying edges from `v` to t (or,
    /// `back`, from s to `v`), or to `alt` when it is reached first; returns where the path
    /// ended and how much was cancelled.
    fn cancel(
        &mut self,
        f: &mut Flow,
        v: usize,
        amount: i32,
        back: bool,
        alt: Option<usize>,
    ) -> (usize, i32) {
        let goal = if back { 2 * self.m } else { 2 * self.m + 1 };
        self.stamp += 1;
        let stamp = self.stamp;
        self.path.clear();
        self.mark[v] = stamp;
        self.iter[v] = self.start[v];
        let mut x = v;
        while x != goal && Some(x) != alt {
            let mut found = None;
            while self.iter[x] < self.start[x + 1] {
                let a = self.iter[x] as usize;
                self.iter[x] += 1;
                // An edge x → y with flow is a forward arc whose reverse has residual; an edge
                // y → x with flow shows at x as a reverse arc with residual.
                let ok = if back {
                    !self.fwd[a] && f.res[a] > 0
                } else {
                    self.fwd[a] && f.res[self.rev[a] as usize] > 0
                };
                let y = self.to[a] as usize;
                if ok && self.mark[y] != stamp {
                    found = Some((a, y));
                    break;
                }
            }
            match found {
                Some((a, y)) => {
                    self.mark[y] = stamp;
                    self.iter[y] = self.start[y];
                    self.path.push(a as u32);
                    x = y;
                }
                None => {
                    let a = self.path.pop().expect("flow conservation") as usize;
                    x = self.to[self.rev[a] as usize] as usize;
                }
            }
        }
        let mut amt = amount;
        for &a in &self.path {
            let a = a as usize;
            let fl = if back {
                f.res[a]
            } else {
                f.res[self.rev[a] as usize]
            };
            amt = amt.min(fl);
        }
        for &a in &self.path {
            let a = a as usize;
            let (edge, back_arc) = if back {
                (self.rev[a] as usize, a)
            } else {
                (a, self.rev[a] as usize)
            };
            f.res[edge] += amt;
            f.res[back_arc] -= amt;
        }
        (x, amt)
    }

    /// Augments until the flow value reaches `limit` or is maximum (then
    /// [`Closure::in_pen`] tells the min cut).
    pub(crate) fn run(&mut self, f: &mut Flow, limit: i64) {
        if f.value >= limit {
            return;
        }
        let g = Csr {
            start: &self.start,
            to: &self.to,
            rev: &self.rev,
        };
        let (s, t) = (2 * self.m, 2 * self.m + 1);
        f.value += self.trees.run(&g, &mut f.res, s, t, limit - f.value);
    }

    /// After a `run` that reached the maximum: the walls of the closure's pen (forced ones
    /// included).
    pub(crate) fn walls(&self) -> usize {
        (0..self.m)
            .filter(|&c| {
                self.priced[c] != NIL
                    && self.trees.source_side(2 * c + 1)
                    && !self.trees.source_side(2 * c)
            })
            .count()
    }

    /// After a `run` that reached the maximum: cell `c` is in the closure's pen.
    pub(crate) fn in_pen(&self, c: usize) -> bool {
        self.trees.source_side(2 * c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1×5 strip, cells 0 and 4 on the border: with a cheap price the middle is fenced
    /// (value 3·w − 2p), with a dear one nothing is; lowering the price again after a flow
    /// was found at the dear one gives the same cut as a fresh start.
    #[test]
    fn warm_price_changes_match_cold_runs() {
        let w = vec![4, 4, 4, 4, 4];
        let wallable = vec![true; 5];
        let border = vec![true, false, false, false, true];
        let nbrs = |c: usize| {
            let mut v = Vec::new();
            if c > 0 {
                v.push(c as u32 - 1);
            }
            if c < 4 {
                v.push(c as u32 + 1);
            }
            v
        };
        let closure = |p: i32, warm_from: Option<i32>| {
            let (mut net, mut f) = Closure::new(&w, &wallable, &border, nbrs);
            if let Some(q) = warm_from {
                net.set_price(&mut f, q);
                net.run(&mut f, i64::MAX);
            }
            net.set_price(&mut f, p);
            net.run(&mut f, i64::MAX);
            net.total - f.value
        };
        // Cheap walls: fence cells 1..=3 with walls on the two border cells, 12 − 2p.
        assert_eq!(closure(2, None), 8);
        // Dear walls: wall cells 1 and 3 to keep cell 2 (4 − 2p) or take nothing (0).
        assert_eq!(closure(40, None), 0);
        assert_eq!(closure(2, Some(40)), 8);
        assert_eq!(closure(40, Some(2)), 0);
        assert_eq!(closure(3, Some(1)), closure(3, None));
    }

    /// Random grids, random sequences of constraints and price moves: the warm flow always
    /// ends at the value of a flow computed from scratch.
    #[test]
    fn warm_flow_matches_cold_on_random_sequences() {
        use crate::rng::Rng;
        for seed in 0..300u64 {
            let mut r = Rng::new(seed);
            let (rows, cols) = (3 + r.below(4) as usize, 3 + r.below(4) as usize);
            let m = rows * cols;
            let border: Vec<bool> = (0..m)
                .map(|c| {
                    c / cols == 0 || c / cols == rows - 1 || c % cols == 0 || c % cols == cols - 1
                })
                .collect();
            let wallable: Vec<bool> = (0..m).map(|c| border[c] || r.below(5) > 0).collect();
            let w: Vec<i32> = (0..m)
                .map(|c| match (wallable[c], r.below(4)) {
                    (true, _) => 4,
                    (false, 0) => -20,
                    (false, _) => 4 * (1 + r.below(11) as i32),
                })
                .collect();
            let nbrs = |c: usize| {
                let (y, x) = (c / cols, c % cols);
                let mut v = Vec::new();
                if y > 0 {
                    v.push((c - cols) as u32);
                }
                if y + 1 < rows {
                    v.push((c + cols) as u32);
                }
                if x > 0 {
                    v.push(c as u32 - 1);
                }
                if x + 1 < cols {
                    v.push(c as u32 + 1);
                }
                v
            };
            let (mut warm, mut f) = Closure::new(&w, &wallable, &border, nbrs);
            // 0 free, 1 in, 2 out, 3 wall.
            let mut state = vec![0u8; m];
            for _ in 0..12 {
                let c = r.below(m as u64) as usize;
                if state[c] == 0 && !border[c] {
                    state[c] = match r.below(3) {
                        0 => 1,
                        1 if wallable[c] => 2,
                        2 if wallable[c] => 3,
                        _ => 0,
                    };
                }
                let p = 1 + r.below(60) as i32;
                let apply = |net: &Closure, f: &mut Flow| {
                    for (c, &s) in state.iter().enumerate() {
                        match s {
                            1 => net.force_in(f, c),
                            2 => net.force_out(f, c),
                            3 => net.force_wall(f, c),
                            _ => {}
                        }
                    }
                };
                apply(&warm, &mut f);
                warm.set_price(&mut f, p);
                if r.below(2) == 0 {
                    // A run cut short (a pruned node) leaves a flow to start from.
                    let stop = f.value + r.below(40) as i64;
                    warm.run(&mut f, stop);
                    warm.set_price(&mut f, 1 + r.below(60) as i32);
                    warm.set_price(&mut f, p);
                }
                warm.run(&mut f, i64::MAX);
                let (mut cold, mut g) = Closure::new(&w, &wallable, &border, nbrs);
                apply(&cold, &mut g);
                cold.set_price(&mut g, p);
                cold.run(&mut g, i64::MAX);
                assert_eq!(f.value, g.value, "seed {seed}");
                assert!(
                    (0..m).all(|c| warm.in_pen(c) == cold.in_pen(c)),
                    "seed {seed}"
                );
            }
        }
    }
}
