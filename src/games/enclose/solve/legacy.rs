//! The first exact solver (escape-path branching), kept for the quarrel round.
//!
//! A pen is the horse's component once walls are placed, so a solution is a wall set and the
//! search is over wall sets. Depth-first branch and bound on "escape paths": while the horse
//! (or the unicorn, or the horse towards the unicorn in a quarrel) still gets out, take the
//! path out that crosses the fewest wallable tiles; some tile of it must get a wall, so branch
//! on each in turn, forbidding walls on the earlier ones (the branches then partition the
//! wall sets and nothing is searched twice). Pruning, at every node:
//! * budget: a unit-capacity vertex max-flow from the animals to the border (forbidden and
//!   non-grass tiles uncuttable) is the fewest walls still needed;
//! * score: a Lagrangian relaxation. Dropping connectivity and pricing each new wall at λ,
//!   "best pen minus λ per wall" is a maximum-weight closure (tile in ⇒ each neighbour in or
//!   walled), i.e. one min cut; that value plus λ·(walls left) bounds every completion. λ is
//!   tuned per node by a local descent started from the parent's λ. The closure's own pen,
//!   walled in, is also tried as a solution, which finds good incumbents early.
//!
//! A completed pen (all conditions met) is a candidate; adding walls can only raise its score
//! by cutting off negative tiles (bees), so the search goes on inside it only when it holds any.

use super::dinic::{Dinic, INF};
use crate::games::enclose::check::flood;
use crate::games::enclose::model::{Level, Solution, SolveStatus, Tile, Variant, WALL_COST};
use std::collections::VecDeque;
use std::time::Instant;

/// Scores are multiplied by this so that λ can take fractional values in integer arithmetic.
const SCALE: i64 = 4;

struct Search<'a> {
    level: &'a Level,
    adj: Vec<Vec<u32>>,
    /// Grid neighbours (any tile), for wall adjacency.
    adj4: Vec<Vec<u32>>,
    value: Vec<i32>,
    grass: Vec<bool>,
    border: Vec<bool>,
    horse: usize,
    unicorn: Option<usize>,
    /// Walls the solver may still place (budget minus pre-placed walls).
    k: u32,
    wall_cost: i32,
    wall: Vec<bool>,
    forbid: Vec<bool>,
    nwalls: u32,
    best: i32,
    best_walls: Option<Vec<usize>>,
    nodes: u64,
    deadline: Option<Instant>,
    timed_out: bool,
}

/// What a node's flood fills found.
struct Comps {
    /// 1 = horse's component, 2 = unicorn's (quarrel only, when apart), 0 = neither.
    mark: Vec<u8>,
    cells: Vec<usize>,
    h_escapes: bool,
    u_escapes: bool,
    together: bool,
}

impl<'a> Search<'a> {
    fn flood_from(&self, start: usize, tag: u8, mark: &mut [u8], cells: &mut Vec<usize>) -> bool {
        let mut escapes = false;
        let first = cells.len();
        mark[start] = tag;
        cells.push(start);
        let mut i = first;
        while i < cells.len() {
            let u = cells[i];
            i += 1;
            escapes |= self.border[u];
            for &v in &self.adj[u] {
                let v = v as usize;
                if mark[v] == 0 && !self.wall[v] {
                    mark[v] = tag;
                    cells.push(v);
                }
            }
        }
        escapes
    }

    fn comps(&self) -> Comps {
        let mut mark = vec![0u8; self.adj.len()];
        let mut cells = Vec::new();
        let h_escapes = self.flood_from(self.horse, 1, &mut mark, &mut cells);
        let (mut u_escapes, mut together) = (false, false);
        if let Some(u) = self.unicorn {
            together = mark[u] == 1;
            if !together && self.level.variant == Variant::Quarrel {
                u_escapes = self.flood_from(u, 2, &mut mark, &mut cells);
            }
        }
        Comps {
            mark,
            cells,
            h_escapes,
            u_escapes,
            together,
        }
    }

    fn cuttable(&self, v: usize) -> bool {
        self.grass[v] && !self.forbid[v] && !self.wall[v]
    }

    fn sources(&self) -> Vec<usize> {
        match (self.level.variant, self.unicorn) {
            (Variant::Lovebirds | Variant::Quarrel, Some(u)) => vec![self.horse, u],
            _ => vec![self.horse],
        }
    }

    /// Fewest more walls that separate `from` from `to` (border when `to` is None), capped at
    /// `limit + 1`.
    fn min_cut(&self, c: &Comps, from: &[usize], to: Option<usize>, limit: u32) -> u32 {
        let n = self.adj.len();
        let (s, t) = (2 * n, 2 * n + 1);
        let mut f = Dinic::default();
        f.reset(2 * n + 2);
        for &u in &c.cells {
            f.edge(2 * u, 2 * u + 1, if self.cuttable(u) { 1 } else { INF });
            for &v in &self.adj[u] {
                if !self.wall[v as usize] {
                    f.edge(2 * u + 1, 2 * v as usize, INF);
                }
            }
            if to.is_none() && self.border[u] {
                f.edge(2 * u + 1, t, INF);
            }
        }
        if let Some(x) = to {
            f.edge(2 * x + 1, t, INF);
        }
        for &x in from {
            f.edge(s, 2 * x, INF);
        }
        f.run(s, t, limit as i64 + 1) as u32
    }

    /// The Lagrangian bound at `lambda` (scaled), and the pen of the closure walled in as a
    /// candidate when it fits the budget.
    fn relaxation(&self, c: &Comps, lambda: i64) -> (i64, Vec<usize>) {
        let n = self.adj.len();
        let (s, t) = (2 * n, 2 * n + 1);
        let mut f = Dinic::default();
        f.reset(2 * n + 2);
        let price = lambda + self.wall_cost as i64 * SCALE;
        let mut positive = 0;
        let mut profit = |f: &mut Dinic, node: usize, p: i64| {
            if p > 0 {
                positive += p;
                f.edge(s, node, p);
            } else if p < 0 {
                f.edge(node, t, -p);
            }
        };
        for &u in &c.cells {
            let w = self.value[u] as i64 * SCALE;
            if self.cuttable(u) {
                profit(&mut f, 2 * u, w + price);
                profit(&mut f, 2 * u + 1, -price);
                f.edge(2 * u, 2 * u + 1, INF);
            } else {
                profit(&mut f, 2 * u, w);
            }
            if self.border[u] {
                f.edge(2 * u, t, INF);
            }
            for &v in &self.adj[u] {
                let v = v as usize;
                if self.wall[v] {
                    continue;
                }
                let target = if self.cuttable(v) { 2 * v + 1 } else { 2 * v };
                f.edge(2 * u, target, INF);
            }
        }
        for x in self.sources() {
            f.edge(s, 2 * x, INF);
        }
        let cut = f.run(s, t, INF);
        let left = (self.k - self.nwalls) as i64;
        let bound =
            positive - cut + lambda * left - self.wall_cost as i64 * SCALE * self.nwalls as i64;
        let new: Vec<usize> = c
            .cells
            .iter()
            .copied()
            .filter(|&v| self.cuttable(v) && f.source_side(2 * v + 1) && !f.source_side(2 * v))
            .collect();
        (bound, new)
    }

    /// Scores the current walls plus `extra` as the round requires; `None` when they fail it.
    fn evaluate(&self, extra: &[usize]) -> Option<i32> {
        let mut wall: Vec<bool> = self.level.tiles.iter().map(|&t| t == Tile::Wall).collect();
        for (i, w) in self.wall.iter().enumerate() {
            wall[i] |= *w;
        }
        for &e in extra {
            wall[e] = true;
        }
        let nw = self.nwalls as i32 + extra.len() as i32;
        let (h, esc) = flood(self.level, &wall, self.horse);
        if esc {
            return None;
        }
        let sum = |cells: &[usize]| cells.iter().map(|&i| self.value[i]).sum::<i32>();
        match self.level.variant {
            Variant::Main => Some(sum(&h)),
            Variant::CostlyWalls => Some(sum(&h) - WALL_COST * nw),
            Variant::Lovebirds => h.contains(&self.unicorn?).then(|| sum(&h)),
            Variant::Quarrel => {
                let u = self.unicorn?;
                if h.contains(&u) {
                    return None;
                }
                let (uc, uesc) = flood(self.level, &wall, u);
                (!uesc).then(|| sum(&h) + sum(&uc))
            }
        }
    }

    fn offer(&mut self, extra: &[usize]) {
        if let Some(score) = self.evaluate(extra) {
            if self.best_walls.is_none() || score > self.best {
                self.best = score;
                let mut walls: Vec<usize> =
                    (0..self.wall.len()).filter(|&i| self.wall[i]).collect();
                walls.extend_from_slice(extra);
                self.best_walls = Some(walls);
            }
        }
    }

    fn beaten(&self, bound: i64) -> bool {
        self.best_walls.is_some() && bound.div_euclid(SCALE) <= self.best as i64
    }

    /// Minimises the Lagrangian bound over λ by local descent from `start`; stops as soon as
    /// the bound cannot beat the incumbent. Returns (bound, λ, the walls of the closure there).
    fn bound(&mut self, c: &Comps, start: i64) -> (i64, i64, Vec<usize>) {
        let mut walls_at_best = Vec::new();
        let mut eval = |s: &mut Self, l: i64, keep: bool| {
            let (b, new) = s.relaxation(c, l);
            if new.len() as u32 <= s.k - s.nwalls {
                s.offer(&new);
            }
            if keep {
                walls_at_best = new;
            }
            b
        };
        let mut lam = start.max(0);
        let mut best = eval(self, lam, true);
        let mut step = SCALE;
        let mut evals = 1;
        while step > 0 && !self.beaten(best) && evals < 4 {
            let mut moved = false;
            for dir in [1i64, -1] {
                let l = lam + dir * step;
                if l < 0 {
                    continue;
                }
                let (b, new) = self.relaxation(c, l);
                if new.len() as u32 <= self.k - self.nwalls {
                    self.offer(&new);
                }
                evals += 1;
                if b < best {
                    walls_at_best = new;
                    best = b;
                    lam = l;
                    moved = true;
                    step *= 2;
                    break;
                }
            }
            if !moved {
                step /= 2;
            }
        }
        (best, lam, walls_at_best)
    }

    /// Walls in the closure's pen for the smallest λ whose walls fit the budget: a good first
    /// incumbent, since the wall count falls as λ grows.
    fn seed_incumbent(&mut self, c: &Comps) {
        let left = self.k - self.nwalls;
        let (mut lo, mut hi) = (0i64, 64 * SCALE);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let (_, new) = self.relaxation(c, mid);
            if new.len() as u32 <= left {
                self.offer(&new);
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
    }

    /// The wallable tiles of the path out (or towards the unicorn) that crosses fewest of them.
    fn branch_path(&self, c: &Comps) -> Vec<usize> {
        let mut best: Option<Vec<usize>> = None;
        let mut consider = |from: &[usize], to: Option<usize>| {
            let p = self.cheapest_path(c, from, to);
            if best.as_ref().is_none_or(|b| p.len() < b.len()) {
                best = Some(p);
            }
        };
        if c.h_escapes {
            let from = if self.level.variant == Variant::Lovebirds {
                self.sources()
            } else {
                vec![self.horse]
            };
            consider(&from, None);
        }
        if let (Variant::Quarrel, Some(u)) = (self.level.variant, self.unicorn) {
            if c.together {
                consider(&[self.horse], Some(u));
            }
            if c.u_escapes {
                consider(&[u], None);
            }
        }
        best.unwrap_or_default()
    }

    /// 0-1 BFS: cost 1 to enter a tile that may take a wall.
    fn cheapest_path(&self, c: &Comps, from: &[usize], to: Option<usize>) -> Vec<usize> {
        let n = self.adj.len();
        let mut dist = vec![u32::MAX; n];
        let mut parent = vec![usize::MAX; n];
        let mut dq = VecDeque::new();
        for &x in from {
            dist[x] = 0;
            dq.push_back(x);
        }
        let mut end = None;
        while let Some(u) = dq.pop_front() {
            if (to.is_none() && self.border[u]) || to == Some(u) {
                end = Some(u);
                break;
            }
            for &v in &self.adj[u] {
                let v = v as usize;
                if self.wall[v] || c.mark[v] == 0 {
                    continue;
                }
                let w = u32::from(self.cuttable(v));
                if dist[u] + w < dist[v] {
                    dist[v] = dist[u] + w;
                    parent[v] = u;
                    if w == 0 {
                        dq.push_front(v);
                    } else {
                        dq.push_back(v);
                    }
                }
            }
        }
        let mut path = Vec::new();
        let mut cur = end.unwrap_or(usize::MAX);
        while cur != usize::MAX {
            if self.cuttable(cur) {
                path.push(cur);
            }
            cur = parent[cur];
        }
        path
    }

    fn node(&mut self, lambda: i64) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(64) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.timed_out = true;
        }
        if self.timed_out {
            return;
        }
        let c = self.comps();
        if self.level.variant == Variant::Lovebirds && !c.together {
            return;
        }
        // A wall that no longer touches a pen is useless in every completion here, and each of
        // those completions minus that wall is searched in a later sibling branch.
        let touches = |w: usize| self.adj4[w].iter().any(|&v| c.mark[v as usize] != 0);
        if (0..self.wall.len()).any(|w| self.wall[w] && !touches(w)) {
            return;
        }
        let quick: i64 = c
            .cells
            .iter()
            .filter(|&&v| !self.border[v])
            .map(|&v| self.value[v].max(0) as i64)
            .sum::<i64>()
            - (self.wall_cost * self.nwalls as i32) as i64;
        if self.beaten(quick * SCALE) {
            return;
        }
        let left = self.k - self.nwalls;
        let violated =
            c.h_escapes || c.u_escapes || (self.level.variant == Variant::Quarrel && c.together);
        if violated {
            if c.h_escapes || c.u_escapes {
                let from = self.sources();
                if self.min_cut(&c, &from, None, left) > left {
                    return;
                }
            }
            if self.level.variant == Variant::Quarrel && c.together {
                let u = self.unicorn.expect("quarrel has a unicorn");
                if self.min_cut(&c, &[self.horse], Some(u), left) > left {
                    return;
                }
            }
        } else {
            self.offer(&[]);
        }
        let (bound, lam, relaxed_walls) = self.bound(&c, lambda);
        if self.beaten(bound) {
            return;
        }
        let branch = if violated {
            // Walls the relaxation wants go first: the dive then meets good pens early.
            let mut path = self.branch_path(&c);
            path.sort_by_key(|v| !relaxed_walls.contains(v));
            path
        } else if left > 0 && c.cells.iter().any(|&v| self.value[v] < 0) {
            c.cells
                .iter()
                .copied()
                .filter(|&v| self.cuttable(v))
                .collect()
        } else {
            Vec::new()
        };
        let mut forbidden = Vec::new();
        for &p in &branch {
            if self.nwalls >= self.k {
                break;
            }
            self.wall[p] = true;
            self.nwalls += 1;
            self.node(lam);
            self.nwalls -= 1;
            self.wall[p] = false;
            if self.timed_out {
                break;
            }
            self.forbid[p] = true;
            forbidden.push(p);
        }
        for p in forbidden {
            self.forbid[p] = false;
        }
    }
}

/// Solves the level to proven optimality, or until `deadline` (then `GaveUp` with the best
/// walls found and the root's proven bound).
pub(super) fn solve(level: &Level, deadline: Option<Instant>) -> Solution {
    let start = Instant::now();
    let n = level.tiles.len();
    let mut s = Search {
        level,
        adj: level.adjacency(),
        adj4: (0..n)
            .map(|i| {
                grid_neighbours(level, i)
                    .into_iter()
                    .map(|j| j as u32)
                    .collect()
            })
            .collect(),
        value: level.tiles.iter().map(|t| t.value()).collect(),
        grass: level.tiles.iter().map(|t| t.wallable()).collect(),
        border: (0..n).map(|i| level.is_border(i)).collect(),
        horse: level.horse(),
        unicorn: level.unicorn(),
        k: level.budget.saturating_sub(level.preplaced_walls()),
        wall_cost: if level.variant == Variant::CostlyWalls {
            WALL_COST
        } else {
            0
        },
        wall: vec![false; n],
        forbid: vec![false; n],
        nwalls: 0,
        best: i32::MIN,
        best_walls: None,
        nodes: 0,
        deadline,
        timed_out: false,
    };
    let root = s.comps();
    let lovebirds_apart = level.variant == Variant::Lovebirds && !root.together;
    let (root_bound, lam) = if lovebirds_apart {
        (i64::MIN, 0)
    } else {
        s.seed_incumbent(&root);
        let (b, l, _) = s.bound(&root, SCALE);
        (b, l)
    };
    if !lovebirds_apart {
        s.node(lam);
    }
    let elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    let mut walls: Vec<usize> = s.best_walls.clone().unwrap_or_default();
    prune_useless(level, &mut walls);
    let to_rc = |v: &Vec<usize>| {
        let mut w: Vec<[usize; 2]> = v
            .iter()
            .map(|&i| [i / level.cols, i % level.cols])
            .collect();
        w.sort();
        w
    };
    let status = match (&s.best_walls, s.timed_out) {
        (_, true) => SolveStatus::GaveUp,
        (Some(_), false) => SolveStatus::Optimal,
        (None, false) => SolveStatus::Unsolvable,
    };
    let score = if s.best_walls.is_some() { s.best } else { 0 };
    let bound = match status {
        SolveStatus::Optimal => score,
        SolveStatus::Unsolvable => 0,
        SolveStatus::GaveUp => root_bound.div_euclid(SCALE).max(score as i64) as i32,
    };
    Solution {
        status,
        score,
        bound,
        walls: to_rc(&walls),
        elapsed_ms,
        nodes: s.nodes,
    }
}

/// Drops walls that touch no pen: they change nothing but the wall count.
fn prune_useless(level: &Level, walls: &mut Vec<usize>) {
    let mut wall: Vec<bool> = level.tiles.iter().map(|&t| t == Tile::Wall).collect();
    for &w in walls.iter() {
        wall[w] = true;
    }
    let mut inside = vec![false; level.tiles.len()];
    for start in [Some(level.horse()), level.unicorn()].into_iter().flatten() {
        for i in flood(level, &wall, start).0 {
            inside[i] = true;
        }
    }
    walls.retain(|&w| grid_neighbours(level, w).into_iter().any(|j| inside[j]));
}

fn grid_neighbours(level: &Level, i: usize) -> Vec<usize> {
    let (r, c) = (i / level.cols, i % level.cols);
    let mut v = Vec::with_capacity(4);
    if r > 0 {
        v.push(i - level.cols);
    }
    if r + 1 < level.rows {
        v.push(i + level.cols);
    }
    if c > 0 {
        v.push(i - 1);
    }
    if c + 1 < level.cols {
        v.push(i + 1);
    }
    v
}
