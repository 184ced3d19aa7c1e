//! Important-separator enumeration with bounds, for the main, lovebirds and costly-walls rounds.
//!
//! The graph: one node pair (in, out) per passable tile of the horse's island, joined by an
//! arc of capacity 1 when the tile takes a wall (grass) and ∞ otherwise; ∞ arcs from each out
//! to the neighbours' ins (portals included) and from border tiles to the sink T. A pen is the
//! source side of a vertex cut between the set X (tiles forced into the pen, at first the
//! horse, plus the unicorn in lovebirds) and T.
//!
//! Search node (X, Z = walls placed, k' = walls left): the max flow λ from X to T (kept
//! incrementally, unit augmenting paths) is the fewest walls still needed; λ > k' prunes. The
//! furthest minimum cut (tiles that cannot reach T in the residual graph, taken as the part
//! connected to X) is a pen P with λ walls: it is offered as a solution, and by submodularity
//! any solution of the subtree can be pushed out to contain P at no more walls and no lower
//! score (all tiles of P gained are worth ≥ 0: bees are decided first), so X := P. Then take a
//! tile v of the cut: either v joins X (λ rises) or v takes a wall (λ and k' fall by one); the
//! measure 2k' − λ falls in both, so the tree is at most 4^k, and in practice small once the
//! bounds prune against the incumbent:
//! * reach: P plus every positive tile reachable from it without crossing walls or border;
//! * Lagrangian: dropping connectivity and pricing each new wall at μ, the best pen is a
//!   maximum-weight closure (tile in ⇒ each neighbour in or walled), one min cut, plus
//!   μ per wall left. The cut's flow is kept per node ([`super::closure`]): a child only
//!   augments what its own constraints add. μ is swept at the root and tuned by a short
//!   descent per node, which the closure pen's walls steer (the bound's slope in μ is the
//!   budget less those walls). A node whose X lies inside the closure pen of an ancestor (and
//!   none of whose new walls or excluded bees is in it) inherits that bound: the same pen is
//!   still feasible, so its own relaxation at that μ could not prune.
//!
//! A search still open after a few hundred nodes runs a beam search over the same moves
//! ([`super::beam`]) from the root for a better incumbent, and a wider one after a few
//! thousand: on big open islands the bounds are weak, so pruning rests on the incumbent, and
//! depth-first order finds the best pens late.
//! A node whose flow already uses every wall left is a leaf: its pen is the furthest minimum
//! cut.
//!
//! Closure pens that fit the budget are offered as solutions (good incumbents early), and the
//! branching tile and direction follow the closure: a cut tile it takes in goes in first.
//! Lovebirds: X holds horse and unicorn; a node whose walls already split them is dropped.
//!
//! Bees: when P holds an undecided bee, branch: the bee is in (joins X) or out (joins T).

use super::beam::Beam;
use super::closure::Closure;
use super::net::{island_cells, Net, Residual, DEAD, INF, IN_X, NIL, OUT};
use super::pens::{self, Relaxation, State, SC};
use crate::games::enclose::check;
use crate::games::enclose::model::{Level, Solution, Variant, WALL_COST};
use std::time::Instant;

/// A search still open after this many nodes gets a beam search for a better incumbent, this
/// wide (easy levels are done sooner than the beam would run); one still open long after gets
/// a wider one (a narrow beam can miss the best pens by far, and a wide one costs as much as
/// a few thousand nodes).
const BEAMS: [(u64, usize); 2] = [(256, 8), (2048, 32)];
/// Islands from this size on get the fine price sweep at the root.
const FINE_SWEEP: usize = 200;
/// A quick search's nodes: its first pens (the sweep's) are most of what it finds.
const QUICK_NODES: u64 = 10;

struct Search<'a> {
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
    cost: i32,
    horse: usize,
    unicorn: Option<usize>,
    walls: Vec<u32>,
    /// Bees decided into the pen (their part of X need not touch the horse's yet).
    seeds: Vec<u32>,
    best: Option<(i32, Vec<u32>)>,
    root_bound: Option<i32>,
    reach_stamp: u32,
    swept: bool,
    /// Where the beam search starts: the flow, flags, flow value and walls left of the node that
    /// swept the prices (the root, or below it only bees kept out).
    beam_from: Option<(Vec<i32>, Vec<u8>, usize, usize)>,
    /// The beam searches of `BEAMS` run so far.
    beams: usize,
    pen: Vec<u32>,
    pstamp: u32,
    pen_q: Vec<u32>,
    nodes: u64,
    deadline: Option<Instant>,
    /// A quick look (see [`solve_keeping_out`]).
    quick: bool,
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
    fn cancel_through(&mut self, d: usize, v: usize) {
        let st = &mut self.st[d];
        self.net.cancel_through(&mut st.cap, &st.flags, v);
    }

    fn node(&mut self, d: usize, lambda: usize, mu: i64, up: i64) {
        let seeds = self.seeds.len();
        self.node_inner(d, lambda, mu, up);
        self.seeds.truncate(seeds);
    }

    /// `up`: the parent's Lagrangian bound (scaled), also valid here.
    fn node_inner(&mut self, d: usize, mut lambda: usize, mut mu: i64, mut up: i64) {
        self.nodes += 1;
        if self.quick && self.nodes > QUICK_NODES
            || self.nodes.is_multiple_of(16) && self.deadline.is_some_and(|dl| Instant::now() >= dl)
        {
            self.timed_out = true;
        }
        if self.timed_out {
            return;
        }
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
            self.node(d + 1, lambda, mu, up);
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
        let used = (self.walls.len() + lambda) as i32;
        if connected {
            let score = value - self.cost * used;
            if self.best.as_ref().is_none_or(|b| score > b.0) {
                let mut w = self.walls.clone();
                w.extend_from_slice(&self.cut);
                self.best = Some((score, w));
            }
        }
        let bound = self.reach_bound(d, value) - self.cost * used;
        if d == 0 && self.seeds.is_empty() {
            // No bee decided yet: the bound holds for the whole level.
            self.root_bound = Some(bound);
        }
        // No walls to spare: every pen of the subtree is a minimum cut, and the furthest one,
        // just offered, holds every other (and no tile of negative worth).
        if self.best.as_ref().is_some_and(|b| bound <= b.0) || lambda == 0 || lambda == kleft {
            return;
        }
        if !self.swept {
            // Pens of the relaxation at a range of wall prices: good first incumbents. The
            // pens shrink as the price rises, and the horse's part fits the budget only past
            // some price, where the best ones lie: a fine sweep finds them (rising prices
            // only add capacity, so each step augments the last flow). Small islands are
            // searched faster than swept.
            self.swept = true;
            let mut least = i64::MAX;
            let prices: Vec<i64> = if self.net.m >= FINE_SWEEP && !self.quick {
                (1..=64).chain((72..=256).step_by(8)).collect()
            } else {
                vec![1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256]
            };
            for m in prices {
                let b = self.lagrange(d, m, i64::MAX);
                if b < least {
                    least = b;
                    mu = m;
                }
            }
            if self.walls.is_empty() {
                let st = &self.st[d];
                self.beam_from = Some((st.cap.clone(), st.flags.clone(), lambda, kleft));
            }
        }
        if BEAMS.get(self.beams).is_some_and(|b| self.nodes >= b.0) {
            self.beam();
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
                self.node(d + 1, lambda - 1, mu, up);
                self.walls.pop();
            } else {
                // v joins the pen.
                self.st[d + 1].flags[v] |= IN_X;
                self.node(d + 1, lambda, mu, up);
            }
            if self.timed_out {
                return;
            }
        }
    }

    /// Runs the next beam search of [`super::beam`], from the state of the sweeping node.
    fn beam(&mut self) {
        let width = BEAMS[self.beams].1;
        self.beams += 1;
        let Some((cap, flags, lambda, kleft)) = &self.beam_from else {
            return;
        };
        let seeds = [Some(self.horse), self.unicorn].into_iter().flatten();
        let mut beam = Beam::new(self.net, *kleft, self.cost, seeds.collect());
        if let Some((score, w)) = beam.run(cap, flags, *lambda, width) {
            if self.best.as_ref().is_none_or(|b| score > b.0) {
                self.best = Some((score, w));
            }
        }
    }

    /// The Lagrangian bound (scaled) at multiplier `mu` per wall: dropping connectivity, the
    /// best pen minus `mu` (plus the wall cost) per wall is a maximum-weight closure (tile in ⇒
    /// each neighbour in or walled), one min cut; add `mu` per wall left. Uses the reachable
    /// part and its rim from the last `reach_bound`. Stops early once below `target`.
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
            (mu + self.cost as i64 * SC) as i32,
            limit,
        );
        let flow = st.flow.value;
        if flow < limit {
            self.offer_closure(d);
        }
        top - flow
    }

    /// After an exact closure cut: the closure's pen part holding the horse, walled in, as a
    /// solution when the walls fit the budget.
    fn offer_closure(&mut self, d: usize) {
        let net = self.net;
        let st = &self.st[d];
        self.pstamp += 1;
        let ps = self.pstamp;
        let in_pen = |c: usize, s: &Self| st.flags[c] & IN_X != 0 || s.closure.in_pen(c);
        self.pen_q.clear();
        self.pen_q.push(self.horse as u32);
        self.pen[self.horse] = ps;
        let mut new_walls = Vec::new();
        let mut value = 0;
        let mut qi = 0;
        while qi < self.pen_q.len() {
            let c = self.pen_q[qi] as usize;
            qi += 1;
            value += net.value[c];
            for &e in net.nbrs(c) {
                let e = e as usize;
                if self.pen[e] == ps || st.flags[e] & DEAD != 0 {
                    continue;
                }
                self.pen[e] = ps;
                if in_pen(e, self) {
                    self.pen_q.push(e as u32);
                } else {
                    if !net.wallable[e] {
                        return;
                    }
                    new_walls.push(e as u32);
                }
            }
        }
        if self.walls.len() + new_walls.len() > self.k
            || self
                .unicorn
                .is_some_and(|u| self.pen[u] != ps || !self.pen_q.contains(&(u as u32)))
        {
            return;
        }
        let score = value - self.cost * (self.walls.len() + new_walls.len()) as i32;
        if self.best.as_ref().is_none_or(|b| score > b.0) {
            let mut w = self.walls.clone();
            w.extend_from_slice(&new_walls);
            self.best = Some((score, w));
        }
    }

    /// Whether the parts of X can still be joined by one pen: the horse reaches every other
    /// part without crossing walls, border tiles or bees kept out.
    fn joinable(&mut self, d: usize) -> bool {
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
                if self.pen[e] != ps && st.flags[e] & (DEAD | OUT) == 0 && !net.border[e] {
                    self.pen[e] = ps;
                    self.pen_q.push(e as u32);
                }
            }
        }
        self.unicorn
            .into_iter()
            .chain(self.seeds.iter().map(|&b| b as usize))
            .all(|c| self.pen[c] == ps)
    }

    /// The pen: cells on the source side of the furthest min cut that X reaches (X is the
    /// union of the parts holding the horse, the unicorn and the bees decided in). Returns
    /// whether it is one piece.
    fn flood_region(&mut self, d: usize) -> bool {
        self.mstamp += 1;
        let seeds = [Some(self.horse), self.unicorn]
            .into_iter()
            .flatten()
            .chain(self.seeds.iter().map(|&b| b as usize));
        pens::flood_region(
            self.net,
            &self.st[d].flags,
            &self.res,
            &mut self.mark,
            self.mstamp,
            &mut self.region,
            seeds,
            1,
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
    solve_keeping_out(level, deadline, None, false)
}

/// As [`solve`], with the bee tile at grid index `out` (if any) kept out of the pen from the
/// start: the quarrel round's first guesses ([`super::split`]) place the other animal there.
/// A `quick` search only looks for a good pen: the coarse price sweep, and it stops (as on a
/// deadline) after [`QUICK_NODES`] nodes.
pub(super) fn solve_keeping_out(
    level: &Level,
    deadline: Option<Instant>,
    out: Option<usize>,
    quick: bool,
) -> Solution {
    let start = Instant::now();
    let horse = level.horse();
    let unicorn = if level.variant == Variant::Lovebirds {
        level.unicorn()
    } else {
        None
    };
    let cells = island_cells(level);
    let net = Net::new(level, &cells);
    let cell_of = |g: usize| cells.binary_search(&g).ok();
    let k = level.budget.saturating_sub(level.preplaced_walls()) as usize;
    let sc_values: Vec<i32> = net.value.iter().map(|&v| v * SC as i32).collect();
    let (closure, flow) = Closure::new(&sc_values, &net.wallable, &net.border, |c| {
        net.nbrs(c).to_vec()
    });
    let mut s = Search {
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
        cost: if level.variant == Variant::CostlyWalls {
            WALL_COST
        } else {
            0
        },
        horse: cell_of(horse).expect("horse on its island"),
        unicorn: None,
        walls: Vec::new(),
        seeds: Vec::new(),
        best: None,
        root_bound: None,
        reach_stamp: 0,
        swept: false,
        beam_from: None,
        beams: 0,
        pen: vec![0; net.m],
        pstamp: 0,
        pen_q: Vec::new(),
        nodes: 0,
        deadline,
        quick,
        timed_out: false,
    };
    let lovebirds_apart = level.variant == Variant::Lovebirds
        && match unicorn.and_then(cell_of) {
            Some(u) => {
                s.unicorn = Some(u);
                false
            }
            None => true,
        };
    if !lovebirds_apart && s.unicorn.is_some() {
        // Pens that hold both animals can be rare among the separators the search meets
        // first: start from one known pen so that the bounds prune from the first node.
        if let Some(walls) = super::probe::lovebirds_walls(level) {
            let rc: Vec<[usize; 2]> = walls
                .iter()
                .map(|&g| [g / level.cols, g % level.cols])
                .collect();
            if let (Ok(score), Some(cells)) = (
                check::score(level, &rc),
                walls
                    .iter()
                    .map(|&g| cell_of(g).map(|c| c as u32))
                    .collect::<Option<Vec<u32>>>(),
            ) {
                s.best = Some((score, cells));
            }
        }
    }
    if let Some(b) = out.and_then(cell_of) {
        debug_assert!(net.bee[b], "only a bee has an arc to T to open");
        s.st[0].flags[b] |= OUT;
        s.st[0].cap[net.bee_arc[b] as usize] = INF;
    }
    if !lovebirds_apart {
        s.st[0].flags[s.horse] |= IN_X;
        if let Some(u) = s.unicorn {
            s.st[0].flags[u] |= IN_X;
        }
        s.node(0, 0, 2 * SC, i64::MAX);
    }
    let best = s.best.take();
    pens::solution(level, &net, best, s.timed_out, s.root_bound, s.nodes, start)
}
