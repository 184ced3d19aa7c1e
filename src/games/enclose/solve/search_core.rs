//! The pieces of the pen search that the single-pen search ([`super::one_pen`]) and the
//! quarrel search ([`super::quarrel`]) share: the node state, the pen of the furthest min cut
//! and its cut, the reach bound, the Lagrangian closure bound on the warm flow of
//! [`super::maxflow::closure`] with its multiplier descent, and the answer built from the best
//! walls found.

use super::maxflow::closure::{Closure, Flow};
use super::maxflow::island::{Net, Residual, DEAD, FORBID, INF, IN_X, NIL, OUT};
use crate::games::enclose::model::{Level, Solution};
use crate::solving::Outcome;
use std::cmp::Ordering;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Scores are scaled by this in the Lagrangian bound so that λ can be fractional.
pub(super) const SCALE: i64 = 4;
/// Wall prices (multipliers) tried for a node's first incumbents.
pub(super) const COARSE_PRICES: [i64; 16] =
    [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256];
/// Bound evaluations per node while tuning the multiplier.
pub(super) const TUNE_EVALS: usize = 3;
/// Near the root of a big island, where a better multiplier pays off over a larger subtree,
/// tune longer (on small islands the extra flows cost more than they save).
const SHALLOW: usize = 8;
const SHALLOW_EVALS: usize = 6;
const BIG: usize = 450;

/// A branch of the pen search (cells of the net), replayed to rebuild a node from the root.
#[derive(Clone, Copy, Debug)]
pub(super) enum Decision {
    Wall(u32),
    In(u32),
    BeeOut(u32),
    /// Taken at the same depth, after the bee-out child.
    BeeIn(u32),
}

impl Decision {
    /// The branch on cut tile `v`: a wall on it, or it joins the pen.
    pub(super) fn branch(v: usize, wall: bool) -> Decision {
        if wall {
            Decision::Wall(v as u32)
        } else {
            Decision::In(v as u32)
        }
    }
}

/// The state of one search node.
#[derive(Clone)]
pub(super) struct State {
    /// Residual capacities of the island flow ([`Net`]).
    pub(super) cap: Vec<i32>,
    pub(super) flags: Vec<u8>,
    /// The pen of the last exact relaxation on the path here (an ancestor's, inherited while
    /// it stays feasible for the node's relaxation: then that bound cannot be beaten at its
    /// multiplier and the node skips its own).
    pub(super) pen: Vec<bool>,
    pub(super) pen_ok: bool,
    /// The closure flow last computed on the path here.
    pub(super) flow: Flow,
}

impl State {
    /// What a copy of this state holds: what each level of search depth costs.
    pub(super) fn bytes(&self) -> usize {
        self.cap.len() * 4 + self.flags.len() + self.pen.len() + self.flow.res.len() * 4
    }
}

/// Makes state `d + 1` a copy of state `d` (the buffers of a deeper level are reused).
pub(super) fn child(states: &mut Vec<State>, d: usize) {
    if states.len() <= d + 1 {
        let s = states[d].clone();
        states.push(s);
    } else {
        let (a, b) = states.split_at_mut(d + 1);
        b[0].cap.copy_from_slice(&a[d].cap);
        b[0].flags.copy_from_slice(&a[d].flags);
        b[0].pen.copy_from_slice(&a[d].pen);
        b[0].pen_ok = a[d].pen_ok;
        b[0].flow.res.copy_from_slice(&a[d].flow.res);
        b[0].flow.p = a[d].flow.p;
        b[0].flow.value = a[d].flow.value;
    }
}

/// The pen: cells on the source side of the furthest min cut (after an `augment` that found
/// no path) that the seeds reach, into `region` (marked `stamp`). Returns whether every part
/// holds one of the first `roots` seeds (the parts that may stand apart).
#[allow(clippy::too_many_arguments)]
pub(super) fn flood_region(
    net: &Net,
    flags: &[u8],
    res: &Residual,
    mark: &mut [u32],
    stamp: u32,
    region: &mut Vec<u32>,
    seeds: impl Iterator<Item = usize>,
    roots: usize,
) -> bool {
    region.clear();
    let (vis, rs) = (&res.vis, res.stamp);
    let mut connected = true;
    for (i, src) in seeds.enumerate() {
        if mark[src] == stamp {
            continue;
        }
        if i >= roots {
            connected = false;
        }
        mark[src] = stamp;
        let first = region.len();
        region.push(src as u32);
        let mut qi = first;
        while qi < region.len() {
            let c = region[qi] as usize;
            qi += 1;
            for &e in net.nbrs(c) {
                let e = e as usize;
                if mark[e] != stamp
                    && vis[2 * e] != rs
                    && vis[2 * e + 1] != rs
                    && flags[e] & DEAD == 0
                {
                    mark[e] = stamp;
                    region.push(e as u32);
                }
            }
        }
    }
    connected
}

/// The min cut around `region` (the pen of [`flood_region`]): its out-side neighbours.
pub(super) fn cut(
    net: &Net,
    flags: &[u8],
    res: &Residual,
    mark: &mut [u32],
    stamp: u32,
    region: &[u32],
    cut: &mut Vec<u32>,
) {
    cut.clear();
    for &c in region {
        for &e in net.nbrs(c as usize) {
            let e = e as usize;
            if mark[e] != stamp
                && res.vis[2 * e] != res.stamp
                && res.vis[2 * e + 1] == res.stamp
                && flags[e] & DEAD == 0
            {
                mark[e] = stamp;
                cut.push(e as u32);
            }
        }
    }
}

/// The tiles a pen grown from `region` could hold: the region and what it reaches without
/// crossing walls, border tiles or bees kept out, into `cells` (region first) and marked
/// `stamp`. Returns the sum of their positive values: no pen of the subtree holds more.
pub(super) fn reach(
    net: &Net,
    flags: &[u8],
    mark: &mut [u32],
    stamp: u32,
    region: &[u32],
    cells: &mut Vec<u32>,
) -> i32 {
    cells.clear();
    let mut total = 0;
    for &c in region {
        mark[c as usize] = stamp;
        cells.push(c);
        total += net.value[c as usize].max(0);
    }
    let mut qi = 0;
    while qi < cells.len() {
        let c = cells[qi] as usize;
        qi += 1;
        for &e in net.nbrs(c) {
            let e = e as usize;
            if mark[e] == stamp || flags[e] & DEAD != 0 {
                continue;
            }
            mark[e] = stamp;
            if flags[e] & OUT != 0 || net.border[e] {
                continue;
            }
            total += net.value[e].max(0);
            cells.push(e as u32);
        }
    }
    total
}

/// Puts a node's constraints on the closure flow inherited from an ancestor (walls, tiles in,
/// bees kept out, tiles `reach_bound` did not reach (not marked `reach`) out, walls
/// forbidden) and runs it at wall price `price` until the flow reaches `limit` or is maximum.
#[allow(clippy::too_many_arguments)]
pub(super) fn closure_flow(
    net: &Net,
    cl: &mut Closure,
    flow: &mut Flow,
    flags: &[u8],
    mark: &[u32],
    reach: u32,
    region: &[u32],
    price: i32,
    limit: i64,
) {
    for (c, &f) in flags.iter().enumerate() {
        if f & DEAD != 0 {
            cl.force_wall(flow, c);
        } else if f & IN_X != 0 {
            cl.force_in(flow, c);
        } else if f & OUT != 0 || mark[c] != reach {
            cl.force_out(flow, c);
        }
        if f & FORBID != 0 && net.wallable[c] {
            cl.forbid_wall(flow, c);
        }
    }
    for &c in region {
        cl.force_in(flow, c as usize);
    }
    cl.set_price(flow, price);
    cl.run(flow, limit);
}

/// Records the closure's pen just computed exactly: the region and the cells of `reached` (see
/// [`reach`]) the closure takes in.
pub(super) fn capture_pen(pen: &mut [bool], region: &[u32], reached: &[u32], cl: &Closure) {
    pen.iter_mut().for_each(|p| *p = false);
    for &c in region {
        pen[c as usize] = true;
    }
    for &c in reached {
        let c = c as usize;
        pen[c] = pen[c] || cl.in_pen(c);
    }
}

/// The cut tile to branch on, and whether its wall branch goes first. Guided by the last
/// exact relaxation of the node when there is one (`pen`): a tile its pen takes in goes in
/// first.
pub(super) fn pick(pen: Option<&[bool]>, cut: &[u32]) -> (u32, bool) {
    match pen {
        Some(pen) => match cut.iter().find(|&&c| pen[c as usize]) {
            Some(&c) => (c, false),
            None => (cut[0], true),
        },
        None => (cut[0], false),
    }
}

/// A search whose nodes bound with the Lagrangian closure relaxation on its [`Core`]. What
/// each search adds is the closure's price per wall and what it makes of an exact cut.
pub(super) trait Relaxation<'a> {
    fn core(&mut self) -> &mut Core<'a>;
    /// The closure's price per wall (scaled) at multiplier `mu`.
    fn wall_price(&self, mu: i64) -> i64;
    /// After an exact closure cut at depth `d`: the pen or pens it holds, walled in, offered
    /// as an answer when they are one.
    fn offer_closure(&mut self, d: usize);

    /// The bound (scaled) at multiplier `mu` per wall ([`Core::closure_bound`]), stopping
    /// early once below `target`; an exact cut is offered as an answer.
    fn bound(&mut self, d: usize, mu: i64, target: i64) -> i64 {
        let price = self.wall_price(mu);
        let (bound, exact) = self.core().closure_bound(d, mu, price, target);
        if exact {
            self.offer_closure(d);
        }
        bound
    }

    /// The price of `prices` with the least bound at depth `d`, and that bound; `None` once
    /// out of time.
    fn cheapest(&mut self, d: usize, prices: &[i64]) -> Option<(i64, i64)> {
        let mut cheapest: Option<(i64, i64)> = None;
        for &mu in prices {
            let b = self.bound(d, mu, i64::MAX);
            if self.core().timed_out {
                return None;
            }
            if cheapest.is_none_or(|(_, least)| b < least) {
                cheapest = Some((mu, b));
            }
        }
        cheapest
    }

    /// At a node whose parent's bound was `up` at multiplier `mu`: the multiplier to hand on
    /// and its bound, tuned with at most `evals` bounds (else [`tune`]'s count); `None` when
    /// the node cannot beat the best answer so far.
    fn tuned(&mut self, d: usize, mu: i64, up: i64, evals: Option<usize>) -> Option<(i64, i64)>
    where
        Self: Sized,
    {
        let core = self.core();
        let Some(best) = &core.best else {
            return Some((mu, up));
        };
        let target = (best.0 as i64 + 1) * SCALE;
        if up < target {
            return None;
        }
        let state = &core.states[d];
        if state.pen_ok && core.region.iter().all(|&c| state.pen[c as usize]) {
            return Some((mu, up));
        }
        let m = core.net.m;
        let (pruned, mu, up) = match evals {
            Some(evals) => tune_evals(self, d, mu, target, evals),
            None => tune(self, d, m, mu, target),
        };
        (!pruned).then_some((mu, up))
    }
}

/// Local descent on the multiplier from `mu` at depth `d` of an island of `m` cells;
/// `(true, _, _)` as soon as a bound falls below `target`, else `(false, best μ, its bound)`.
/// Guided by the bound's slope.
pub(super) fn tune<'a>(
    r: &mut impl Relaxation<'a>,
    d: usize,
    m: usize,
    mu: i64,
    target: i64,
) -> (bool, i64, i64) {
    let max_evals = if d <= SHALLOW && m >= BIG {
        SHALLOW_EVALS
    } else {
        TUNE_EVALS
    };
    tune_evals(r, d, mu, target, max_evals)
}

/// [`tune`] with at most `max_evals` bound evaluations (1: the bound at `mu` alone).
pub(super) fn tune_evals<'a>(
    r: &mut impl Relaxation<'a>,
    d: usize,
    mu: i64,
    target: i64,
    max_evals: usize,
) -> (bool, i64, i64) {
    let best = r.bound(d, mu, target);
    if best < target {
        return (true, mu, best);
    }
    r.core().capture(d);
    let slope = r.core().slope();
    cutting_planes(r, d, (mu, best, slope), target, max_evals)
}

/// Descent guided by the slope: the bound is convex in μ and its slope at an exact evaluation
/// is the budget less the walls of the relaxation's pen, so the tangents bound it from below.
/// With tangents on one side of the minimum only, the step goes downhill and doubles; with
/// both, the next μ is where they meet, and the descent stops once they prove that no μ
/// reaches `target`. `at`: μ, its bound and slope.
///
/// Not a jump at once to where a tangent would reach `target`: from a bound far above it the
/// jump lands far past the minimum, and the μ handed to the children is worse.
fn cutting_planes<'a>(
    r: &mut impl Relaxation<'a>,
    d: usize,
    at: (i64, i64, i64),
    target: i64,
    max_evals: usize,
) -> (bool, i64, i64) {
    let (mut lam, mut best, _) = at;
    // The nearest evaluations left of the minimum (slope < 0) and right of it (slope > 0).
    let (mut left, mut right) = (None, None);
    let mut step = SCALE;
    let mut p = at;
    for _ in 1..max_evals {
        let (mu, b, g) = p;
        match g.cmp(&0) {
            Ordering::Equal => break,
            Ordering::Less => left = Some(p),
            Ordering::Greater => right = Some(p),
        }
        let next = match (left, right) {
            (Some((ml, bl, gl)), Some((mr, br, gr))) => {
                // Where bl + gl (x − ml) = br + gr (x − mr); the tangents' least value there.
                let x = (br - bl + gl * ml - gr * mr) as f64 / (gl - gr) as f64;
                if bl as f64 + gl as f64 * (x - ml as f64) >= target as f64 {
                    break;
                }
                let x = x.round() as i64;
                if x <= ml || x >= mr {
                    break;
                }
                x
            }
            _ => {
                // Below 0 the tangent cannot reach `target` (μ stays ≥ 0).
                if g > 0 && b - g * mu >= target {
                    break;
                }
                let x = (mu - g.signum() * step).max(0);
                step *= 2;
                x
            }
        };
        let bn = r.bound(d, next, target);
        if bn < target {
            return (true, next, bn);
        }
        let gn = r.core().slope();
        if bn < best {
            r.core().capture(d);
            best = bn;
            lam = next;
        }
        p = (next, bn, gn);
    }
    (false, lam, best)
}

/// The answer: the best walls found (cells of `net`) in grid coordinates, how the search
/// ended, and the bound (the score when proven, else the root's bound, else every positive
/// inner tile). A search that gave up keeps a solution even with no pen found (no walls,
/// score 0): its bound still tells how far the optimum may lie.
fn solution(
    level: &Level,
    net: &Net,
    best: Option<(i32, Vec<u32>)>,
    gave_up: bool,
    root_bound: Option<i32>,
    nodes: u64,
    start: Instant,
) -> Outcome<Solution> {
    let mut walls: Vec<[usize; 2]> = best
        .as_ref()
        .map(|b| {
            b.1.iter()
                .map(|&c| {
                    let g = net.grid[c as usize];
                    [g / level.cols, g % level.cols]
                })
                .collect()
        })
        .unwrap_or_default();
    walls.sort();
    let score = best.as_ref().map_or(0, |b| b.0);
    let answer = |bound| Solution {
        score,
        bound,
        walls,
        elapsed_ms: start.elapsed().as_secs_f64() * 1000.0,
        nodes,
    };
    match (&best, gave_up) {
        (_, true) => {
            let bound = root_bound.unwrap_or_else(|| {
                (0..net.m)
                    .filter(|&c| !net.border[c])
                    .map(|c| net.value[c].max(0))
                    .sum()
            });
            Outcome::GaveUp(Some(answer(bound.max(score))))
        }
        (Some(_), false) => Outcome::Optimal(answer(score)),
        (None, false) => Outcome::Unsolvable,
    }
}

/// `placed` and `new` walls as the best answer, if `score` beats the one kept.
fn keep_best(best: &mut Option<(i32, Vec<u32>)>, placed: &[u32], new: &[u32], score: i32) {
    if best.as_ref().is_none_or(|b| score > b.0) {
        let mut w = placed.to_vec();
        w.extend_from_slice(new);
        *best = Some((score, w));
    }
}

/// What both searches keep: the island, the per-depth states, the scratch of the flows and
/// floods, the walls placed and the best answer so far.
pub(super) struct Core<'a> {
    pub(super) net: &'a Net,
    pub(super) states: Vec<State>,
    /// Region and scratch marks per cell.
    pub(super) mark: Vec<u32>,
    pub(super) mark_stamp: u32,
    /// Residual reachability to T per node (from the last `augment`).
    pub(super) res: Residual,
    pub(super) region: Vec<u32>,
    pub(super) cut: Vec<u32>,
    pub(super) closure: Closure,
    /// Walls the budget leaves for the search.
    pub(super) k: usize,
    pub(super) walls: Vec<u32>,
    /// Bees decided into the pen (their part of X need not touch the animals' yet).
    pub(super) seeds: Vec<u32>,
    pub(super) best: Option<(i32, Vec<u32>)>,
    pub(super) root_bound: Option<i32>,
    /// The tiles of the last [`Core::reach_bound`] (see [`reach`]): marked `reach_stamp` in
    /// `reach_mark`, listed in `reach_cells`, their positive values summing to `reach_sum`;
    /// computed at depth `reach_at`.
    pub(super) reach_mark: Vec<u32>,
    pub(super) reach_stamp: u32,
    reach_cells: Vec<u32>,
    reach_sum: i32,
    reach_at: Option<usize>,
    /// The depth of a child just forced in that may take its parent's reach (see
    /// [`Core::force_in_child`]).
    reach_reuse: Option<usize>,
    pub(super) swept: bool,
    /// Stamps and queue of the pens built from closures.
    pub(super) pen: Vec<u32>,
    pub(super) pen_stamp: u32,
    pub(super) pen_q: Vec<u32>,
    pub(super) nodes: u64,
    /// The stamp and depth of the last residual search, if it found no path (see
    /// [`Core::augment`]).
    failed: Option<(u32, usize)>,
    /// A tile forced in whose child has not searched yet.
    fresh_in: Option<usize>,
    pub(super) deadline: Option<Instant>,
    /// Set from outside to end the search as a deadline would.
    pub(super) stop: Option<&'a AtomicBool>,
    pub(super) timed_out: bool,
    /// How many states (depths) the memory share allows: `states` never grows past it.
    pub(super) max_depth: usize,
    /// A node was left unsearched for want of memory: the answer is no proof.
    pub(super) cut_short: bool,
}

impl<'a> Core<'a> {
    /// The root state: no walls, nothing forced, the closure flow at its start. `memory`:
    /// the bytes its per-depth states may take (see [`Core::max_depth`]).
    pub(super) fn new(
        net: &'a Net,
        k: usize,
        deadline: Option<Instant>,
        memory: usize,
    ) -> Core<'a> {
        let sc_values: Vec<i32> = net.value.iter().map(|&v| v * SCALE as i32).collect();
        let (closure, flow) = Closure::new(&sc_values, &net.wallable, &net.border, |c| {
            net.nbrs(c).to_vec()
        });
        let root = State {
            cap: net.cap0.clone(),
            flags: vec![0; net.m],
            pen: vec![false; net.m],
            pen_ok: false,
            flow,
        };
        // The root and one child at least: a node is searched and offers its pen.
        let max_depth = (memory / root.bytes().max(1)).max(2);
        Core {
            net,
            states: vec![root],
            mark: vec![0; net.m],
            mark_stamp: 0,
            res: Residual {
                vis: vec![0; 2 * net.m + 1],
                par: vec![NIL; 2 * net.m + 1],
                stamp: 0,
                queue: Vec::new(),
            },
            region: Vec::new(),
            cut: Vec::new(),
            closure,
            k,
            walls: Vec::new(),
            seeds: Vec::new(),
            best: None,
            root_bound: None,
            reach_mark: vec![0; net.m],
            reach_stamp: 0,
            reach_cells: Vec::new(),
            reach_sum: 0,
            reach_at: None,
            reach_reuse: None,
            swept: false,
            pen: vec![0; net.m],
            pen_stamp: 0,
            pen_q: Vec::new(),
            nodes: 0,
            failed: None,
            fresh_in: None,
            deadline,
            stop: None,
            timed_out: false,
            max_depth,
            cut_short: false,
        }
    }

    /// The cut tile to branch on at depth `d` ([`pick`]) and whether its wall branch goes
    /// first; `None` when the node may have no children ([`Core::room_below`]).
    pub(super) fn branch(&mut self, d: usize) -> Option<(usize, bool)> {
        if !self.room_below(d) {
            return None;
        }
        let state = &self.states[d];
        let (v, wall_first) = pick(state.pen_ok.then_some(&state.pen[..]), &self.cut);
        Some((v as usize, wall_first))
    }

    /// Whether state `d` may have children within the memory share; when not, the node's
    /// subtree goes unsearched and the answer can no longer be proven best.
    pub(super) fn room_below(&mut self, d: usize) -> bool {
        let room = d + 1 < self.max_depth;
        self.cut_short |= !room;
        room
    }

    /// Whether the deadline has passed or the search was told to stop.
    pub(super) fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|dl| Instant::now() >= dl)
            || self
                .stop
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Makes state `d + 1` a copy of state `d` (after [`Core::room_below`] said there is room).
    pub(super) fn child(&mut self, d: usize) {
        debug_assert!(d + 1 < self.max_depth, "a state past the memory share");
        child(&mut self.states, d);
    }

    /// One augmenting path from X to T in state `d` (see [`Net::augment`]).
    ///
    /// The first one of a child whose cut tile `v` was just forced in (see
    /// [`Core::force_in_child`]) needs no search when the last search is its parent's (the
    /// last one at the parent's depth, which found no path): that search reached v's
    /// out-node from T in the same residual graph, and its tree holds the path back to T.
    pub(super) fn augment(&mut self, d: usize) -> bool {
        let state = &mut self.states[d];
        let r = &mut self.res;
        let parents = d.checked_sub(1).map(|p| (r.stamp, p));
        if let Some(v) = self.fresh_in.take() {
            let out = 2 * v + 1;
            if parents.is_some() && self.failed == parents && r.vis[out] == r.stamp {
                self.failed = None;
                self.net.push_back_to_t(&mut state.cap, r, out);
                return true;
            }
        }
        let found = self.net.augment(&mut state.cap, &state.flags, r);
        self.failed = (!found).then_some((r.stamp, d));
        found
    }

    /// State `d + 1`, already a copy of state `d` after its last [`Core::augment`], with cut
    /// tile `v` forced into the pen; its first augment reuses that search.
    ///
    /// Its reach is its parent's when the parent's is the last one taken: forcing a tile in
    /// walls nothing off, and the child's region lies in the parent's reach.
    pub(super) fn force_in_child(&mut self, d: usize, v: usize) {
        self.states[d + 1].flags[v] |= IN_X;
        self.fresh_in = Some(v);
        self.reach_reuse = (self.reach_at == Some(d)).then_some(d + 1);
    }

    /// Back from a child made by [`Core::force_in_child`]: what it left unused must not serve
    /// a later node.
    pub(super) fn end_in_child(&mut self) {
        self.fresh_in = None;
        self.reach_reuse = None;
    }

    /// Removes the unit of flow through cut cell `v` in state `d` (see
    /// [`Net::cancel_through`]).
    pub(super) fn cancel_through(&mut self, d: usize, v: usize) -> bool {
        let state = &mut self.states[d];
        self.net.cancel_through(&mut state.cap, &state.flags, v)
    }

    /// See [`flood_region`]: the seeds are the `animals` (the first `roots` of them may stand
    /// apart) and the bees decided in.
    pub(super) fn flood_region(&mut self, d: usize, animals: &[usize], roots: usize) -> bool {
        self.mark_stamp += 1;
        let seeds = animals
            .iter()
            .copied()
            .chain(self.seeds.iter().map(|&b| b as usize));
        flood_region(
            self.net,
            &self.states[d].flags,
            &self.res,
            &mut self.mark,
            self.mark_stamp,
            &mut self.region,
            seeds,
            roots,
        )
    }

    /// A bee in the region of state `d` not yet decided in, if any.
    pub(super) fn undecided_bee(&self, d: usize) -> Option<usize> {
        let (net, flags) = (self.net, &self.states[d].flags);
        self.region
            .iter()
            .map(|&c| c as usize)
            .find(|&c| net.bee[c] && flags[c] & IN_X == 0)
    }

    /// State `d + 1`: state `d` with bee `b` kept out of the pens (its arc to T opened).
    pub(super) fn bee_out_child(&mut self, d: usize, b: usize) {
        self.child(d);
        let keep_pen = !self.states[d].pen[b];
        let state = &mut self.states[d + 1];
        state.flags[b] |= OUT;
        state.pen_ok &= keep_pen;
        state.cap[self.net.bee_arc[b] as usize] = INF;
    }

    /// Bee `b` decided into the pens of state `d`.
    pub(super) fn bee_in(&mut self, d: usize, b: usize) {
        self.states[d].flags[b] |= IN_X;
        self.seeds.push(b as u32);
    }

    /// Whether the cells `from` reach every cell of `to` and every bee decided in, in state
    /// `d`, without crossing walls, border tiles or bees kept out: whether the parts of X can
    /// still join pens grown from `from`.
    pub(super) fn joinable(&mut self, d: usize, from: &[usize], to: Option<usize>) -> bool {
        let net = self.net;
        self.spread_pen(from, None, |_, states, e| {
            states[d].flags[e] & (DEAD | OUT) == 0 && !net.border[e]
        });
        let ps = self.pen_stamp;
        to.into_iter()
            .chain(self.seeds.iter().map(|&b| b as usize))
            .all(|c| self.pen[c] == ps)
    }

    /// [`spread`] under a new pen stamp from `from` through the tiles `open` lets in (it sees
    /// the region marks and the per-depth states); whether it reaches `goal`.
    pub(super) fn spread_pen(
        &mut self,
        from: &[usize],
        goal: Option<usize>,
        open: impl Fn(&[u32], &[State], usize) -> bool,
    ) -> bool {
        self.pen_stamp += 1;
        let (mark, states) = (&self.mark, &self.states);
        let (pen, queue, stamp) = (&mut self.pen, &mut self.pen_q, self.pen_stamp);
        spread(pen, queue, stamp, self.net, from, goal, |e| {
            open(mark, states, e)
        })
    }

    /// Forces the region of state `d` into X and fills `cut` with the walls of its furthest
    /// min cut; returns the region's value.
    pub(super) fn take_region(&mut self, d: usize) -> i32 {
        let net = self.net;
        let mut value = 0;
        for &c in &self.region {
            self.states[d].flags[c as usize] |= IN_X;
            value += net.value[c as usize];
        }
        self.mark_stamp += 1;
        cut(
            net,
            &self.states[d].flags,
            &self.res,
            &mut self.mark,
            self.mark_stamp,
            &self.region,
            &mut self.cut,
        );
        value
    }

    /// Keeps the walls placed plus the cut as the best answer if `score` beats it.
    pub(super) fn offer_cut(&mut self, score: i32) {
        keep_best(&mut self.best, &self.walls, &self.cut, score);
    }

    /// Keeps the walls placed plus `new` as the best answer if `score` beats it.
    pub(super) fn offer(&mut self, score: i32, new: &[u32]) {
        keep_best(&mut self.best, &self.walls, new, score);
    }

    /// `value` (the region's) plus every positive tile of the region's reach (see [`reach`])
    /// outside it: no pen of the subtree can hold more. The reach stays for the closure
    /// bound and [`Core::capture`].
    pub(super) fn reach_bound(&mut self, d: usize, value: i32) -> i32 {
        let reuse = self.reach_reuse.take() == Some(d) && self.reach_at == Some(d - 1);
        if !reuse {
            self.reach_stamp += 1;
            self.reach_sum = reach(
                self.net,
                &self.states[d].flags,
                &mut self.reach_mark,
                self.reach_stamp,
                &self.region,
                &mut self.reach_cells,
            );
        }
        self.reach_at = Some(d);
        let net = self.net;
        let in_region: i32 = self
            .region
            .iter()
            .map(|&c| {
                debug_assert_eq!(self.reach_mark[c as usize], self.reach_stamp);
                net.value[c as usize].max(0)
            })
            .sum();
        value + self.reach_sum - in_region
    }

    /// The Lagrangian bound (scaled) at multiplier `mu` per wall: dropping connectivity, the
    /// best pen minus `price` per wall is a maximum-weight closure (tile in ⇒ each neighbour
    /// in or walled), one min cut; add `mu` per wall left. Tiles the last `reach_bound` did
    /// not reach stay out. Stops early once below `target`; with the bound, whether the cut is
    /// exact (not stopped early). Past the deadline the node is pruned (`i64::MIN`): one bound
    /// is a max-flow over the whole island, and a node may ask for dozens.
    pub(super) fn closure_bound(
        &mut self,
        d: usize,
        mu: i64,
        price: i64,
        target: i64,
    ) -> (i64, bool) {
        if self.out_of_time() {
            self.timed_out = true;
            return (i64::MIN, false);
        }
        let state = &mut self.states[d];
        let top = self.closure.total + mu * self.k as i64;
        // Pruned once top - flow < target.
        let limit = if target == i64::MAX {
            i64::MAX
        } else {
            top - target + 1
        };
        closure_flow(
            self.net,
            &mut self.closure,
            &mut state.flow,
            &state.flags,
            &self.reach_mark,
            self.reach_stamp,
            &self.region,
            price as i32,
            limit,
        );
        let flow = state.flow.value;
        (top - flow, flow < limit)
    }

    /// After a node's pen (of `lambda` walls, `kleft` left) and its bound: the bound is the
    /// level's while no bee is decided at the root. Whether the node's subtree is done: it
    /// cannot beat the best answer, or has no walls to spare (every pen of the subtree is then
    /// a minimum cut, and the furthest one, just looked at, holds every other and no tile of
    /// negative worth).
    pub(super) fn settled(&mut self, d: usize, bound: i32, lambda: usize, kleft: usize) -> bool {
        if d == 0 && self.seeds.is_empty() {
            self.root_bound = Some(bound);
        }
        self.best.as_ref().is_some_and(|b| bound <= b.0) || lambda == 0 || lambda == kleft
    }

    /// Augments the flow at depth `d` to a maximum from `lambda` paths; `None` once they pass
    /// `kleft`: the walls left cannot cut the pen off.
    pub(super) fn max_flow(&mut self, d: usize, mut lambda: usize, kleft: usize) -> Option<usize> {
        while self.augment(d) {
            lambda += 1;
            if lambda > kleft {
                return None;
            }
        }
        Some(lambda)
    }

    /// Makes the child at `d + 1` for the branch on cut tile `v`: a wall on it (`wall`), or
    /// it forced into the pen. [`Core::leave_branch`] undoes it once the child is searched.
    pub(super) fn enter_branch(&mut self, d: usize, v: usize, wall: bool) {
        self.child(d);
        if wall {
            self.cancel_through(d + 1, v);
            self.states[d + 1].flags[v] |= DEAD;
            self.states[d + 1].pen_ok &= !self.states[d].pen[v];
            self.walls.push(v as u32);
        } else {
            self.force_in_child(d, v);
        }
    }

    pub(super) fn leave_branch(&mut self, wall: bool) {
        if wall {
            self.walls.pop();
        } else {
            self.end_in_child();
        }
    }

    /// Records the pen of the relaxation just solved exactly (see [`State::pen`]).
    pub(super) fn capture(&mut self, d: usize) {
        let state = &mut self.states[d];
        capture_pen(
            &mut state.pen,
            &self.region,
            &self.reach_cells,
            &self.closure,
        );
        state.pen_ok = true;
    }

    /// The bound's slope in μ after an exact relaxation: the budget less its pen's walls.
    pub(super) fn slope(&self) -> i64 {
        self.k as i64 - self.closure.walls() as i64
    }

    /// Back at the root (state `root`, no walls, no bees decided), to rebuild a task's node.
    pub(super) fn restart(&mut self, root: &State) {
        self.states[0].clone_from(root);
        self.walls.clear();
        self.seeds.clear();
        self.reach_at = None;
        self.reach_reuse = None;
        self.failed = None;
    }

    /// Takes `step` from state `d` as the search took it (the flows aside: they restart from
    /// what state `d` holds); returns the depth reached.
    pub(super) fn replay(&mut self, d: usize, step: Decision) -> usize {
        match step {
            Decision::Wall(v) => {
                self.child(d);
                self.states[d + 1].flags[v as usize] |= DEAD;
                self.walls.push(v);
                d + 1
            }
            Decision::In(v) => {
                self.child(d);
                self.states[d + 1].flags[v as usize] |= IN_X;
                d + 1
            }
            Decision::BeeOut(b) => {
                self.bee_out_child(d, b as usize);
                d + 1
            }
            Decision::BeeIn(b) => {
                self.bee_in(d, b as usize);
                d
            }
        }
    }

    /// The search's answer once it has ended (see [`solution`]); `start`: when it began.
    pub(super) fn finish(&mut self, level: &Level, start: Instant) -> Outcome<Solution> {
        let best = self.best.take();
        solution(
            level,
            self.net,
            best,
            self.timed_out || self.cut_short,
            self.root_bound,
            self.nodes,
            start,
        )
    }
}

/// The answer of a search shared by threads: the first core's, with the nodes, deadline and
/// root bound of them all and the best answer they shared.
pub(super) fn finish_shared<'a>(
    cores: impl IntoIterator<Item = Core<'a>>,
    best: Option<(i32, Vec<u32>)>,
    level: &Level,
    start: Instant,
) -> Outcome<Solution> {
    let mut cores = cores.into_iter();
    let mut first = cores.next().expect("a search per thread");
    for c in cores {
        first.nodes += c.nodes;
        first.timed_out |= c.timed_out;
        first.cut_short |= c.cut_short;
        first.root_bound = first.root_bound.or(c.root_bound);
    }
    first.best = best;
    first.finish(level, start)
}

/// Spreads the pen stamp `stamp` from the cells `from` through every neighbour that `open`
/// lets in, with `queue` as the work list; whether it reached `goal` (it stops there).
pub(super) fn spread(
    pen: &mut [u32],
    queue: &mut Vec<u32>,
    stamp: u32,
    net: &Net,
    from: &[usize],
    goal: Option<usize>,
    open: impl Fn(usize) -> bool,
) -> bool {
    queue.clear();
    for &a in from {
        queue.push(a as u32);
        pen[a] = stamp;
    }
    let mut qi = 0;
    while qi < queue.len() {
        let c = queue[qi] as usize;
        qi += 1;
        for &e in net.nbrs(c) {
            let e = e as usize;
            if pen[e] != stamp && open(e) {
                if Some(e) == goal {
                    return true;
                }
                pen[e] = stamp;
                queue.push(e as u32);
            }
        }
    }
    false
}
