//! The quarrel round: horse and unicorn each in a pen of its own, both pens score.
//!
//! Two phases on one flow network (the one of [`super::sep`]: a node pair per tile, unit
//! arcs through wallable tiles, border tiles into the sink T, sources the horse and the
//! unicorn).
//! * Separation: while the horse still reaches the unicorn without crossing walls or border
//!   tiles, some tile of every such path must take a wall. Take the path crossing the fewest
//!   wallable tiles and branch on which of its tiles is the first wall (earlier ones are then
//!   forbidden), so the branches partition the wall sets. Pushing a pen outwards is not safe
//!   yet (it could swallow part of the other pen), so these nodes only bound and branch.
//!   Any order of the path's tiles partitions as well: each child's relaxation is looked at
//!   first (its pens are often the best incumbents, found long before the search would reach
//!   them), children whose bound is below the incumbent are skipped, and the rest go in
//!   order of falling bound, each starting from the closure flow of its look.
//! * Two pens: once the walls split them, the horse's and the unicorn's reachable parts are
//!   disjoint and no tile can wall both (a border tile touches at most one inner tile and a
//!   portal takes no wall), so the pair of pens is one pen with two sources: the
//!   important-separator search of `sep` applies unchanged (furthest min cut, branch on a cut
//!   tile: in or wall; bees in or out), each part of the pen holding the horse or the unicorn.
//!
//! Bounds at every node: the fewest walls still needed (max flow from both animals to T) and
//! the Lagrangian closure bound with both animals in the closure (a pair of separate pens is
//! such a closure with the same walls), tuned per node; its pens, when they split the animals
//! and fit the budget, are offered as solutions. The closure flow is the warm one of
//! [`super::closure`]: every constraint a node adds (walls, tiles in or out, walls forbidden
//! to later siblings of the separation phase) only raises capacities, so a child starts from
//! its parent's flow. So does the island flow: a separation wall cancels the unit it carried,
//! a forbidden wall opens its arc. The pieces shared with `sep` live in [`super::pens`].

use super::closure::{Closure, Flow};
use super::net::{Net, Residual, DEAD, FORBID, INF, IN_X, NIL, OUT};
use super::pens::{self, Relaxation, State, SC};
use super::split;
use crate::games::enclose::check;
use crate::games::enclose::model::{Level, Solution, SolveStatus, Tile};
use std::time::{Duration, Instant};

/// A search still open after this long looks for pairs of pens one by one ([`split`]): its
/// own relaxation's pens merge the animals on big maps, so its first answers are poor and
/// prune little. (Levels solved sooner are spared the look's cost.)
const SPLIT_AFTER: Duration = Duration::from_millis(30);

/// `Search::side` of a tile walled in by `offer_closure` (1 and 2: the two pens).
const WALL_SIDE: u8 = 3;

struct Search<'a> {
    level: &'a Level,
    net: &'a Net,
    st: Vec<State>,
    /// Region and scratch marks per cell.
    mark: Vec<u32>,
    mstamp: u32,
    /// Residual reachability to T per node (from the last `augment`).
    res: Residual,
    region: Vec<u32>,
    cut: Vec<u32>,
    /// Border tiles and bees kept out next to the reachable part (filled by `reach_bound`).
    bd: Vec<u32>,
    closure: Closure,
    k: usize,
    horse: usize,
    unicorn: usize,
    walls: Vec<u32>,
    /// Bees decided into the pen (their part of X need not touch the horse's yet).
    seeds: Vec<u32>,
    best: Option<(i32, Vec<u32>)>,
    root_bound: Option<i32>,
    reach_stamp: u32,
    swept: bool,
    pen: Vec<u32>,
    side: Vec<u8>,
    pstamp: u32,
    pen_q: Vec<u32>,
    /// Per depth of the separation phase: the closure flow of each child's look (see
    /// `probe`).
    probed: Vec<Vec<Flow>>,
    nodes: u64,
    start: Instant,
    split_done: bool,
    deadline: Option<Instant>,
    timed_out: bool,
}

impl<'a> Search<'a> {
    fn child(&mut self, d: usize) {
        pens::child(&mut self.st, d);
    }

    /// One augmenting path from X to T in state `d` (see [`Net::augment`]).
    fn augment(&mut self, d: usize) -> bool {
        let st = &mut self.st[d];
        self.net.augment(&mut st.cap, &st.flags, &mut self.res)
    }

    /// Removes the unit of flow through cut cell `v` in state `d`.
    fn cancel_through(&mut self, d: usize, v: usize) -> bool {
        let st = &mut self.st[d];
        self.net.cancel_through(&mut st.cap, &st.flags, v)
    }

    /// `apart`: the walls already split the horse from the unicorn (see [`Search::apart`]).
    /// `lambda`: the flow of state `d`.
    fn node(&mut self, d: usize, lambda: usize, mu: i64, up: i64, apart: bool) {
        self.nodes += 1;
        // Nodes are heavy (several flows each): the clock is cheap beside them.
        if self.deadline.is_some_and(|dl| Instant::now() >= dl) {
            self.timed_out = true;
        }
        if self.timed_out {
            return;
        }
        if !self.split_done && self.start.elapsed() >= SPLIT_AFTER {
            self.split_done = true;
            self.split();
        }
        let seeds = self.seeds.len();
        if apart {
            self.node_inner(d, lambda, mu, up);
        } else {
            self.node_together(d, lambda, mu, up);
        }
        self.seeds.truncate(seeds);
    }

    /// Offers the best pair of pens of [`split::pens_one_by_one`].
    fn split(&mut self) {
        let Some((score, walls)) = split::pens_one_by_one(self.level, self.deadline) else {
            return;
        };
        if self.best.as_ref().is_none_or(|b| score > b.0) {
            let cells = walls.iter().map(|&g| {
                let c = self.net.grid.binary_search(&g);
                c.expect("a new wall on the animals' islands") as u32
            });
            self.best = Some((score, cells.collect()));
        }
    }

    /// A node of the separation phase: bound, then branch on the first wall along the path
    /// from the horse to the unicorn that crosses the fewest wallable tiles.
    fn node_together(&mut self, d: usize, mut lambda: usize, mut mu: i64, mut up: i64) {
        let net = self.net;
        let kleft = self.k - self.walls.len();
        // The new wall may have carried no flow: the inherited flow alone can exceed the walls
        // left.
        if lambda > kleft {
            return;
        }
        while self.augment(d) {
            lambda += 1;
            if lambda > kleft {
                return;
            }
        }
        if self.apart(d) {
            self.node_inner(d, lambda, mu, up);
            return;
        }
        let (h, u) = (self.horse, self.unicorn);
        self.region.clear();
        self.region.extend([h as u32, u as u32]);
        let bound = self.reach_bound(d, net.value[h] + net.value[u]);
        if d == 0 {
            self.root_bound = Some(bound);
        }
        if self.best.as_ref().is_some_and(|b| bound <= b.0) {
            return;
        }
        if !self.swept {
            self.swept = true;
            mu = self.sweep(d, mu);
        }
        if let Some(b) = &self.best {
            if up < (b.0 as i64 + 1) * SC {
                return;
            }
        }
        let st = &self.st[d];
        if let Some(b) = self
            .best
            .as_ref()
            .filter(|_| !(st.pen_ok && st.pen[h] && st.pen[u]))
        {
            let target = (b.0 as i64 + 1) * SC;
            let (pruned, m, ub) = pens::tune(self, d, net.m, mu, target);
            if pruned {
                return;
            }
            mu = m;
            up = ub;
            if d == 0 {
                let b = up.div_euclid(SC) as i32;
                self.root_bound = Some(self.root_bound.map_or(b, |r| r.min(b)));
            }
        }
        // Inside the relaxation's pen, every branch cuts that pen: each child's bound moves.
        let inside = if self.st[d].pen_ok {
            self.path_between(d, true)
        } else {
            None
        };
        let Some(path) = inside.or_else(|| self.path_between(d, false)) else {
            return;
        };
        if self.walls.len() >= self.k {
            return;
        }
        // The order of the path is free (the first wall in any fixed order partitions the wall
        // sets): try the most promising wall first, after a look at each child's relaxation,
        // whose pens are often the best incumbents.
        // Each look's closure flow is kept for its child: the child only adds constraints
        // (its earlier siblings' forbidden walls) that raise capacities.
        if self.probed.len() <= d {
            self.probed.resize_with(d + 1, Vec::new);
        }
        let mut order = Vec::with_capacity(path.len());
        for (j, &v) in path.iter().enumerate() {
            order.push((self.probe(d, v as usize, mu), v, j));
            if self.probed[d].len() <= j {
                let f = self.st[d + 1].flow.clone();
                self.probed[d].push(f);
            } else {
                std::mem::swap(&mut self.st[d + 1].flow, &mut self.probed[d][j]);
            }
        }
        order.sort_by_key(|&(b, _, _)| std::cmp::Reverse(b));
        for (probed, v, j) in order {
            let v = v as usize;
            if self
                .best
                .as_ref()
                .is_none_or(|b| probed >= (b.0 as i64 + 1) * SC)
            {
                self.child(d);
                std::mem::swap(&mut self.st[d + 1].flow, &mut self.probed[d][j]);
                // The parent's flow stays, less the unit through the new wall if any.
                let through = self.st[d + 1].cap[net.through[v] as usize] == 0
                    && self.cancel_through(d + 1, v);
                self.st[d + 1].flags[v] |= DEAD;
                self.st[d + 1].pen_ok &= !self.st[d].pen[v];
                self.walls.push(v as u32);
                self.node(d + 1, lambda - usize::from(through), mu, up, false);
                self.walls.pop();
                if self.timed_out {
                    return;
                }
            }
            // Later siblings: walls sets without this one (it was the first wall on the path).
            // Its arc opens: the flow stays valid.
            self.st[d].flags[v] |= FORBID;
            self.st[d].cap[net.through[v] as usize] += INF - 1;
            self.st[d].pen_ok &= self.st[d].pen[v];
        }
    }

    /// The relaxation's bound (scaled) at price `mu` once `v` is walled, stopping early below
    /// the incumbent; its pens are offered as solutions.
    fn probe(&mut self, d: usize, v: usize, mu: i64) -> i64 {
        let (h, u) = (self.horse, self.unicorn);
        self.child(d);
        self.st[d + 1].flags[v] |= DEAD;
        self.walls.push(v as u32);
        self.region.clear();
        self.region.extend([h as u32, u as u32]);
        let reach = self.reach_bound(d + 1, self.net.value[h] + self.net.value[u]) as i64 * SC;
        let target = self
            .best
            .as_ref()
            .map_or(i64::MAX, |b| (b.0 as i64 + 1) * SC);
        let b = if reach < target {
            reach
        } else {
            self.lagrange(d + 1, mu, target).min(reach)
        };
        self.walls.pop();
        b
    }

    /// Pens of the relaxation at a range of wall prices (good first incumbents); returns the
    /// price with the least bound.
    fn sweep(&mut self, d: usize, mut mu: i64) -> i64 {
        let mut least = i64::MAX;
        for m in [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256] {
            let b = self.lagrange(d, m, i64::MAX);
            if b < least {
                least = b;
                mu = m;
            }
        }
        if d == 0 && self.seeds.is_empty() {
            // Exact flows at the root with no bee decided: a bound on the whole level.
            let b = least.div_euclid(SC) as i32;
            self.root_bound = Some(self.root_bound.map_or(b, |r| r.min(b)));
        }
        mu
    }

    /// Whether the horse no longer reaches the unicorn without crossing walls or border tiles
    /// (no pen holds a border tile, so paths through them need no wall).
    fn apart(&mut self, d: usize) -> bool {
        let net = self.net;
        let st = &self.st[d];
        self.pstamp += 1;
        let ps = self.pstamp;
        self.pen_q.clear();
        self.pen_q.push(self.horse as u32);
        self.pen[self.horse] = ps;
        let mut qi = 0;
        while qi < self.pen_q.len() {
            let c = self.pen_q[qi] as usize;
            qi += 1;
            for &e in net.nbrs(c) {
                let e = e as usize;
                if self.pen[e] != ps && st.flags[e] & DEAD == 0 && !net.border[e] {
                    if e == self.unicorn {
                        return false;
                    }
                    self.pen[e] = ps;
                    self.pen_q.push(e as u32);
                }
            }
        }
        true
    }

    /// The tiles that may take a wall on a path from the horse to the unicorn (avoiding walls
    /// and border tiles) that crosses the fewest of them; 0-1 breadth-first search.
    /// With `in_pen`, the path stays inside the pen of the last exact relaxation (`None` when
    /// the pen does not join the two).
    fn path_between(&mut self, d: usize, in_pen: bool) -> Option<Vec<u32>> {
        let net = self.net;
        let st = &self.st[d];
        let cost = |c: usize| u32::from(net.wallable[c] && st.flags[c] & FORBID == 0);
        let mut dist = vec![u32::MAX; net.m];
        let mut par = vec![NIL; net.m];
        let mut dq = std::collections::VecDeque::new();
        dist[self.horse] = 0;
        dq.push_back(self.horse);
        while let Some(c) = dq.pop_front() {
            if c == self.unicorn {
                break;
            }
            for &e in net.nbrs(c) {
                let e = e as usize;
                if st.flags[e] & DEAD != 0 || net.border[e] || (in_pen && !st.pen[e]) {
                    continue;
                }
                let w = cost(e);
                if dist[c] + w < dist[e] {
                    dist[e] = dist[c] + w;
                    par[e] = c as u32;
                    if w == 0 {
                        dq.push_front(e);
                    } else {
                        dq.push_back(e);
                    }
                }
            }
        }
        if dist[self.unicorn] == u32::MAX {
            return None;
        }
        let mut path = Vec::new();
        let mut c = self.unicorn;
        while c != self.horse {
            if cost(c) == 1 {
                path.push(c as u32);
            }
            c = par[c] as usize;
        }
        path.reverse();
        Some(path)
    }

    /// `up`: the parent's Lagrangian bound (scaled), also valid here.
    fn node_inner(&mut self, d: usize, mut lambda: usize, mut mu: i64, mut up: i64) {
        let net = self.net;
        let kleft = self.k - self.walls.len();
        let connected = loop {
            while self.augment(d) {
                lambda += 1;
                if lambda > kleft {
                    return;
                }
            }
            let connected = self.flood_region(d);
            let undecided = self
                .region
                .iter()
                .map(|&c| c as usize)
                .find(|&c| net.bee[c] && self.st[d].flags[c] & IN_X == 0);
            let Some(b) = undecided else {
                break connected;
            };
            self.child(d);
            self.st[d + 1].flags[b] |= OUT;
            self.st[d + 1].pen_ok &= !self.st[d].pen[b];
            self.st[d + 1].cap[net.bee_arc[b] as usize] = INF;
            self.node(d + 1, lambda, mu, up, true);
            if self.timed_out {
                return;
            }
            self.st[d].flags[b] |= IN_X;
            self.seeds.push(b as u32);
        };
        if !connected && !self.joinable(d) {
            return;
        }
        let mut value = 0;
        for &c in &self.region {
            self.st[d].flags[c as usize] |= IN_X;
            value += net.value[c as usize];
        }
        self.mstamp += 1;
        pens::cut(
            net,
            &self.st[d].flags,
            &self.res,
            &mut self.mark,
            self.mstamp,
            &self.region,
            &mut self.cut,
        );
        debug_assert_eq!(self.cut.len(), lambda);
        if connected {
            let score = value;
            if self.best.as_ref().is_none_or(|b| score > b.0) {
                let mut w = self.walls.clone();
                w.extend_from_slice(&self.cut);
                self.best = Some((score, w));
            }
        }
        let bound = self.reach_bound(d, value);
        if d == 0 && self.seeds.is_empty() {
            // No bee decided yet: the bound holds for the whole level.
            self.root_bound = Some(bound);
        }
        if self.best.as_ref().is_some_and(|b| bound <= b.0) || lambda == 0 {
            return;
        }
        if !self.swept {
            self.swept = true;
            mu = self.sweep(d, mu);
        }
        if let Some(b) = &self.best {
            let target = (b.0 as i64 + 1) * SC;
            if up < target {
                return;
            }
            let st = &self.st[d];
            let inherited = st.pen_ok && self.region.iter().all(|&c| st.pen[c as usize]);
            if !inherited {
                let (pruned, m, ub) = pens::tune(self, d, net.m, mu, target);
                if pruned {
                    return;
                }
                mu = m;
                up = ub;
            }
        }
        let st = &self.st[d];
        let (v, wall_first) = pens::pick(st.pen_ok.then_some(&st.pen[..]), &self.cut);
        let v = v as usize;
        for wall_branch in [wall_first, !wall_first] {
            self.child(d);
            if wall_branch {
                // v takes a wall.
                self.cancel_through(d + 1, v);
                self.st[d + 1].flags[v] |= DEAD;
                self.st[d + 1].pen_ok &= !self.st[d].pen[v];
                self.walls.push(v as u32);
                self.node(d + 1, lambda - 1, mu, up, true);
                self.walls.pop();
            } else {
                // v joins the pen.
                self.st[d + 1].flags[v] |= IN_X;
                self.node(d + 1, lambda, mu, up, true);
            }
            if self.timed_out {
                return;
            }
        }
    }

    /// The Lagrangian bound (scaled) at multiplier `mu` per wall: dropping connectivity, the
    /// best pen minus `mu` per wall is a maximum-weight closure (tile in ⇒ each neighbour in or
    /// walled), one min cut; add `mu` per wall left. Tiles the last `reach_bound` did not
    /// reach stay out. Stops early once below `target`.
    fn lagrange(&mut self, d: usize, mu: i64, target: i64) -> i64 {
        let st = &mut self.st[d];
        let top = self.closure.total + mu * self.k as i64;
        // Pruned once top - flow < target.
        let limit = if target == i64::MAX {
            i64::MAX
        } else {
            top - target + 1
        };
        pens::closure_flow(
            self.net,
            &mut self.closure,
            &mut st.flow,
            &st.flags,
            &self.mark,
            self.reach_stamp,
            &self.region,
            mu as i32,
            limit,
        );
        let flow = st.flow.value;
        if flow < limit {
            self.offer_closure(d);
        }
        top - flow
    }

    /// After an exact closure cut: the closure's parts holding the horse and the unicorn,
    /// walled in, as a solution when they are apart and the walls fit the budget.
    fn offer_closure(&mut self, d: usize) {
        let net = self.net;
        let st = &self.st[d];
        self.pstamp += 1;
        let ps = self.pstamp;
        let in_pen = |c: usize, s: &Self| st.flags[c] & IN_X != 0 || s.closure.in_pen(c);
        let mut new_walls = Vec::new();
        let mut value = 0;
        for (tag, src) in [(1u8, self.horse), (2, self.unicorn)] {
            if self.pen[src] == ps {
                return;
            }
            self.pen[src] = ps;
            self.side[src] = tag;
            self.pen_q.clear();
            self.pen_q.push(src as u32);
            let mut qi = 0;
            while qi < self.pen_q.len() {
                let c = self.pen_q[qi] as usize;
                qi += 1;
                value += net.value[c];
                for &e in net.nbrs(c) {
                    let e = e as usize;
                    if st.flags[e] & DEAD != 0 {
                        continue;
                    }
                    if self.pen[e] == ps {
                        if self.side[e] != WALL_SIDE && self.side[e] != tag {
                            return;
                        }
                        continue;
                    }
                    self.pen[e] = ps;
                    if in_pen(e, self) {
                        self.side[e] = tag;
                        self.pen_q.push(e as u32);
                    } else {
                        if !net.wallable[e] || st.flags[e] & FORBID != 0 {
                            return;
                        }
                        self.side[e] = WALL_SIDE;
                        new_walls.push(e as u32);
                    }
                }
            }
        }
        if self.walls.len() + new_walls.len() > self.k {
            return;
        }
        if self.best.as_ref().is_none_or(|b| value > b.0) {
            let mut w = self.walls.clone();
            w.extend_from_slice(&new_walls);
            self.best = Some((value, w));
        }
    }

    /// Whether every bee decided in can still join the horse's or the unicorn's pen: one of
    /// them reaches it without crossing walls, border tiles or bees kept out.
    fn joinable(&mut self, d: usize) -> bool {
        let net = self.net;
        let st = &self.st[d];
        self.pstamp += 1;
        let ps = self.pstamp;
        self.pen_q.clear();
        for a in [self.horse, self.unicorn] {
            self.pen_q.push(a as u32);
            self.pen[a] = ps;
        }
        let mut qi = 0;
        while qi < self.pen_q.len() {
            let c = self.pen_q[qi] as usize;
            qi += 1;
            for &e in net.nbrs(c) {
                let e = e as usize;
                if self.pen[e] != ps && st.flags[e] & (DEAD | OUT) == 0 && !net.border[e] {
                    self.pen[e] = ps;
                    self.pen_q.push(e as u32);
                }
            }
        }
        self.seeds.iter().all(|&c| self.pen[c as usize] == ps)
    }

    /// The pens: cells on the source side of the furthest min cut that X reaches (X is the
    /// union of the parts holding the horse, the unicorn and the bees decided in). Returns
    /// whether every part holds the horse or the unicorn (the two are apart here).
    fn flood_region(&mut self, d: usize) -> bool {
        self.mstamp += 1;
        let seeds = [self.horse, self.unicorn]
            .into_iter()
            .chain(self.seeds.iter().map(|&b| b as usize));
        pens::flood_region(
            self.net,
            &self.st[d].flags,
            &self.res,
            &mut self.mark,
            self.mstamp,
            &mut self.region,
            seeds,
            2,
        )
    }

    /// See [`pens::reach_bound`]; the reached cells stay in `res.queue`.
    fn reach_bound(&mut self, d: usize, value: i32) -> i32 {
        self.mstamp += 1;
        self.reach_stamp = self.mstamp;
        pens::reach_bound(
            self.net,
            &self.st[d].flags,
            &mut self.mark,
            self.mstamp,
            &self.region,
            &mut self.res.queue,
            &mut self.bd,
            value,
        )
    }
}

impl Relaxation for Search<'_> {
    fn bound(&mut self, d: usize, mu: i64, target: i64) -> i64 {
        self.lagrange(d, mu, target)
    }

    /// Records the pen of the relaxation just solved exactly (see [`State::pen`]).
    fn capture(&mut self, d: usize) {
        let st = &mut self.st[d];
        let reached = &self.res.queue[self.region.len()..];
        pens::capture_pen(&mut st.pen, &self.region, reached, &self.closure);
        st.pen_ok = true;
    }

    fn slope(&self) -> Option<i64> {
        Some(self.k as i64 - self.closure.walls() as i64)
    }
}

pub(super) fn solve(level: &Level, deadline: Option<Instant>) -> Solution {
    let start = Instant::now();
    let Some(unicorn) = level.unicorn() else {
        return Solution {
            status: SolveStatus::Unsolvable,
            score: 0,
            bound: 0,
            walls: Vec::new(),
            elapsed_ms: start.elapsed().as_secs_f64() * 1000.0,
            nodes: 0,
        };
    };
    let horse = level.horse();
    let open = vec![false; level.tiles.len()];
    let mut cells: Vec<usize> = check::flood(level, &open, horse).0;
    cells.extend(check::flood(level, &open, unicorn).0);
    cells.retain(|&g| level.tiles[g] != Tile::Wall);
    cells.sort_unstable();
    cells.dedup();
    let net = Net::new(level, &cells);
    let cell_of = |g: usize| cells.binary_search(&g).expect("animal on its island");
    let k = level.budget.saturating_sub(level.preplaced_walls()) as usize;
    let sc_values: Vec<i32> = net.value.iter().map(|&v| v * SC as i32).collect();
    let (closure, flow) = Closure::new(&sc_values, &net.wallable, &net.border, |c| {
        net.nbrs(c).to_vec()
    });
    let mut s = Search {
        level,
        net: &net,
        st: vec![State {
            cap: net.cap0.clone(),
            flags: vec![0; net.m],
            pen: vec![false; net.m],
            pen_ok: false,
            flow,
        }],
        mark: vec![0; net.m],
        mstamp: 0,
        res: Residual {
            vis: vec![0; 2 * net.m + 1],
            par: vec![NIL; 2 * net.m + 1],
            stamp: 0,
            queue: Vec::new(),
        },
        region: Vec::new(),
        cut: Vec::new(),
        bd: Vec::new(),
        closure,
        k,
        horse: cell_of(horse),
        unicorn: cell_of(unicorn),
        walls: Vec::new(),
        seeds: Vec::new(),
        best: None,
        root_bound: None,
        reach_stamp: 0,
        swept: false,
        pen: vec![0; net.m],
        side: vec![0; net.m],
        pstamp: 0,
        pen_q: Vec::new(),
        probed: Vec::new(),
        nodes: 0,
        start,
        split_done: false,
        deadline,
        timed_out: false,
    };
    s.st[0].flags[s.horse] |= IN_X;
    s.st[0].flags[s.unicorn] |= IN_X;
    s.node(0, 0, 2 * SC, i64::MAX, false);
    let best = s.best.take();
    pens::solution(level, &net, best, s.timed_out, s.root_bound, s.nodes, start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::enclose::format::parse;

    fn run(text: &str) -> Solution {
        let level = parse(text, "t", None).unwrap();
        let sol = solve(&level, None);
        if sol.status == SolveStatus::Optimal {
            assert_eq!(check::score(&level, &sol.walls), Ok(sol.score), "{text}");
        }
        sol
    }

    #[test]
    fn animals_side_by_side_cannot_be_parted() {
        let sol = run("budget: 9\nvariant: quarrel\n~~~~~~\n~.HU.~\n~....~\n~~~~~~\n");
        assert_eq!(sol.status, SolveStatus::Unsolvable);
    }

    #[test]
    fn one_wall_between_serves_both_pens() {
        // The wall between them is shared; two more, on the border tiles, close the ends.
        let sol = run(
            "budget: 3\nvariant: quarrel\n~~~~~~~~~\n~~~~~~~~~\n..H...U..\n~~~~~~~~~\n~~~~~~~~~\n",
        );
        assert_eq!(sol.status, SolveStatus::Optimal);
        assert_eq!(sol.score, 6);
        assert_eq!(sol.walls.len(), 3);
    }

    #[test]
    fn a_portal_joins_the_pens_unless_walled() {
        // Two rooms linked by portal 0: each animal's room must be split from the portal.
        let text = "budget: 2\nvariant: quarrel\n~~~~~~~~~\n~H.0~U.0~\n~~~~~~~~~\n";
        let sol = run(text);
        assert_eq!(sol.status, SolveStatus::Optimal);
        // One wall cuts one animal off the portals; the other keeps both rooms' portal ends.
        assert_eq!(sol.score, 1 + 4);
        assert_eq!(sol.walls.len(), 1);
        let sol = run(&text.replace("budget: 2", "budget: 0"));
        assert_eq!(sol.status, SolveStatus::Unsolvable);
    }

    #[test]
    fn bees_are_walled_off_or_taken() {
        // The bee costs 5 and its tile alone is worth 1: wall it off when a wall is left.
        let text = "budget: 2\nvariant: quarrel\n~~~~~~~\n~H.~U.~\n~~S~~~~\n~~.~~~~\n~~~~~~~\n";
        let sol = run(text);
        assert_eq!(sol.status, SolveStatus::Optimal);
        assert_eq!(sol.score, 1 + 2, "{sol:?}");
        let sol = run(&text.replace("budget: 2", "budget: 0"));
        assert_eq!(sol.score, 2 - 4 + 1 + 2);
    }

    #[test]
    fn no_unicorn_is_unsolvable() {
        let mut level = parse("budget: 2\n~~~~\n~H.~\n~~~~\n", "t", None).unwrap();
        level.variant = crate::games::enclose::model::Variant::Quarrel;
        assert_eq!(solve(&level, None).status, SolveStatus::Unsolvable);
    }

    #[test]
    fn deadline_gives_a_valid_bound() {
        let level = crate::games::enclose::generate::generate(
            0,
            &crate::games::enclose::generate::Params {
                variant: crate::games::enclose::model::Variant::Quarrel,
                ..crate::games::enclose::generate::Params::for_seed(0)
            },
        );
        let sol = solve(&level, Some(Instant::now()));
        assert_eq!(sol.status, SolveStatus::GaveUp);
        assert!(sol.bound >= sol.score);
        let full = solve(&level, None);
        assert_eq!(full.status, SolveStatus::Optimal);
        assert!(full.score <= sol.bound);
    }
}
