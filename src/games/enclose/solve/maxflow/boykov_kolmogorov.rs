//! Boykov–Kolmogorov maximum flow for the closure network of [`super::closure`].
//!
//! Why not Dinic: the closure's augmenting paths run from a pen tile to the border, through
//! every tile in between, so a warm flow still needs paths of many lengths and Dinic pays a
//! breadth-first search of the whole network per length. Here a search tree grows from s and
//! one from t; after each augmentation only the nodes cut off by a saturated arc look for a
//! new parent, so the trees are built about once per run. When no path is left the s tree is
//! exactly what s reaches in the residual graph: the source side of the min cut.

use std::collections::VecDeque;

const FREE: u8 = 0;
const S: u8 = 1;
const T: u8 = 2;
/// `parent` of the two roots, and of an orphan waiting for adoption.
const ROOT: u32 = u32::MAX - 1;
const ORPHAN: u32 = u32::MAX;

/// A residual network in compressed rows: node v's arcs are `start[v]..start[v + 1]`, arc a
/// goes to `to[a]` and `rev[a]` is its reverse.
pub(super) struct Csr<'a> {
    pub(super) start: &'a [u32],
    pub(super) to: &'a [u32],
    pub(super) rev: &'a [u32],
}

/// The search trees and their scratch, reused from run to run.
pub(super) struct Trees {
    tree: Vec<u8>,
    /// Per tree node: its arc towards its parent (the residual arc used is its reverse in the
    /// s tree, the arc itself in the t tree).
    parent: Vec<u32>,
    /// The augmentation at which a node's path to its root was last seen whole, and its length
    /// then: adoption prefers short paths and checks each path once.
    ts: Vec<u32>,
    dist: Vec<u32>,
    time: u32,
    active: VecDeque<u32>,
    is_active: Vec<bool>,
    orphans: VecDeque<u32>,
}

impl Trees {
    pub(super) fn new(n: usize) -> Trees {
        Trees {
            tree: vec![FREE; n],
            parent: vec![ROOT; n],
            ts: vec![0; n],
            dist: vec![0; n],
            time: 0,
            active: VecDeque::new(),
            is_active: vec![false; n],
            orphans: VecDeque::new(),
        }
    }

    /// Augments `res` from `s` to `t` by up to `want`; returns the amount. When it is less, the
    /// flow is maximum and [`Trees::source_side`] tells the min cut.
    pub(super) fn run(&mut self, g: &Csr, res: &mut [i32], s: usize, t: usize, want: i64) -> i64 {
        self.tree.fill(FREE);
        self.is_active.fill(false);
        self.active.clear();
        self.orphans.clear();
        self.time += 1;
        for (r, side) in [(s, S), (t, T)] {
            self.tree[r] = side;
            self.parent[r] = ROOT;
            self.ts[r] = self.time;
            self.dist[r] = 0;
            self.activate(r);
        }
        let mut flow = 0;
        while flow < want {
            let Some(a) = self.grow(g, res) else {
                break;
            };
            let cap = (want - flow).min(i64::from(i32::MAX / 2)) as i32;
            flow += i64::from(self.augment(g, res, a, cap));
            self.adopt(g, res);
        }
        flow
    }

    /// After a run that stopped short of its `want`: `v` is on the source side of the min cut.
    pub(super) fn source_side(&self, v: usize) -> bool {
        self.tree[v] == S
    }

    fn activate(&mut self, v: usize) {
        if !self.is_active[v] {
            self.is_active[v] = true;
            self.active.push_back(v as u32);
        }
    }

    /// Grows the trees until they touch; returns the residual arc from the s tree to the t tree.
    fn grow(&mut self, g: &Csr, res: &[i32]) -> Option<usize> {
        while let Some(&p) = self.active.front() {
            let p = p as usize;
            let side = self.tree[p];
            if side != FREE {
                for a in g.start[p] as usize..g.start[p + 1] as usize {
                    let back = g.rev[a] as usize;
                    if (if side == S { res[a] } else { res[back] }) <= 0 {
                        continue;
                    }
                    let q = g.to[a] as usize;
                    if self.tree[q] == FREE {
                        self.tree[q] = side;
                        self.parent[q] = back as u32;
                        self.ts[q] = self.ts[p];
                        self.dist[q] = self.dist[p] + 1;
                        self.activate(q);
                    } else if self.tree[q] != side {
                        // p stays active: it may touch the other tree again.
                        return Some(if side == S { a } else { back });
                    }
                }
            }
            self.active.pop_front();
            self.is_active[p] = false;
        }
        None
    }

    /// Pushes the bottleneck (at most `cap`) along the path through arc `a`; the nodes below
    /// a saturated tree arc become orphans.
    fn augment(&mut self, g: &Csr, res: &mut [i32], a: usize, cap: i32) -> i32 {
        let (p, q) = (g.to[g.rev[a] as usize] as usize, g.to[a] as usize);
        let mut d = cap.min(res[a]);
        for (mut v, side) in [(p, S), (q, T)] {
            while self.parent[v] != ROOT {
                let e = self.parent[v] as usize;
                let r = if side == S { g.rev[e] as usize } else { e };
                d = d.min(res[r]);
                v = g.to[e] as usize;
            }
        }
        res[a] -= d;
        res[g.rev[a] as usize] += d;
        for (mut v, side) in [(p, S), (q, T)] {
            while self.parent[v] != ROOT {
                let e = self.parent[v] as usize;
                let (r, back) = if side == S {
                    (g.rev[e] as usize, e)
                } else {
                    (e, g.rev[e] as usize)
                };
                res[r] -= d;
                res[back] += d;
                if res[r] == 0 {
                    self.parent[v] = ORPHAN;
                    self.orphans.push_back(v as u32);
                }
                v = g.to[e] as usize;
            }
        }
        d
    }

    /// The length of `q`'s path to its root, `None` when an orphan cuts it off; marks the path.
    fn rooted(&mut self, g: &Csr, q: usize) -> Option<u32> {
        let mut d = 0;
        let mut j = q;
        loop {
            if self.ts[j] == self.time {
                d += self.dist[j];
                break;
            }
            match self.parent[j] {
                ORPHAN => return None,
                ROOT => {
                    self.ts[j] = self.time;
                    self.dist[j] = 0;
                    break;
                }
                e => {
                    d += 1;
                    j = g.to[e as usize] as usize;
                }
            }
        }
        let (mut j, mut dj) = (q, d);
        while self.ts[j] != self.time {
            self.ts[j] = self.time;
            self.dist[j] = dj;
            dj -= 1;
            j = g.to[self.parent[j] as usize] as usize;
        }
        Some(d)
    }

    /// Finds each orphan a new parent in its tree, or frees it (its children become orphans).
    fn adopt(&mut self, g: &Csr, res: &[i32]) {
        self.time += 1;
        while let Some(p) = self.orphans.pop_front() {
            let p = p as usize;
            let side = self.tree[p];
            let arcs = g.start[p] as usize..g.start[p + 1] as usize;
            // The residual arc from q's side to p: q → p in the s tree, p → q in the t tree.
            let feeds = |a: usize| {
                if side == S {
                    res[g.rev[a] as usize] > 0
                } else {
                    res[a] > 0
                }
            };
            let mut best: Option<(u32, usize)> = None;
            for a in arcs.clone() {
                let q = g.to[a] as usize;
                if self.tree[q] != side || !feeds(a) {
                    continue;
                }
                if let Some(d) = self.rooted(g, q) {
                    if best.is_none_or(|b| d < b.0) {
                        best = Some((d, a));
                    }
                }
            }
            if let Some((d, a)) = best {
                self.parent[p] = a as u32;
                self.ts[p] = self.time;
                self.dist[p] = d + 1;
                continue;
            }
            for a in arcs {
                let q = g.to[a] as usize;
                if self.tree[q] != side {
                    continue;
                }
                if feeds(a) {
                    self.activate(q);
                }
                let e = self.parent[q];
                if e != ROOT && e != ORPHAN && g.to[e as usize] as usize == p {
                    self.parent[q] = ORPHAN;
                    self.orphans.push_back(q as u32);
                }
            }
            self.tree[p] = FREE;
        }
    }
}
