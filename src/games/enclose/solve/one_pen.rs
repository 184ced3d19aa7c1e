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
//!   μ per wall left. The cut's flow is kept per node ([`super::maxflow::closure`]): a child only
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
//!
//! With more than one core, a node whose thread sees another one idle hands it its second
//! branch as a task ([`super::tasks`]): the decisions from the root, replayed on the root's
//! state. The replayed node is the same node: the pens pushed out on the way are each inside
//! the furthest minimum cut of the decisions alone, so the node finds them again.

use super::beam::Beam;
use super::maxflow::island::{island_cells, Net, DEAD, INF, IN_X, OUT};
use super::search_core::{self, Core, Decision, Relaxation, State, SC};
use super::tasks::{self, Best, Shared, HANDOFF_AFTER};
use crate::games::enclose::check;
use crate::games::enclose::model::{Level, Solution, Variant, WALL_COST};
use crate::solving::{Limits, Outcome};
use std::sync::atomic::AtomicBool;
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

type Task = tasks::Task<Decision>;

struct Search<'a> {
    c: Core<'a>,
    cost: i32,
    horse: usize,
    unicorn: Option<usize>,
    /// Where the beam search starts: the flow, flags, flow value and walls left of the node that
    /// swept the prices (the root, or below it only bees kept out).
    beam_from: Option<(Vec<i32>, Vec<u8>, usize, usize)>,
    /// The beam searches of `BEAMS` run so far.
    beams: usize,
    /// A quick look (see [`solve_keeping_out`]).
    quick: bool,
    /// The bytes a beam search's states may take.
    beam_memory: usize,
    shared: &'a Shared<Task>,
    /// The decisions from the root to the node being searched.
    path: Vec<Decision>,
    /// State 0 as the search starts (each task is rebuilt from it).
    root: State,
}

impl<'a> Search<'a> {
    fn node(&mut self, d: usize, lambda: usize, mu: i64, up: i64) {
        let (seeds, path) = (self.c.seeds.len(), self.path.len());
        self.node_inner(d, lambda, mu, up);
        self.c.seeds.truncate(seeds);
        self.path.truncate(path);
    }

    /// Rebuilds the task's node from the root's state (with the flows from scratch) and
    /// searches it.
    fn run(&mut self, task: Task) {
        self.c.restart(&self.root);
        let mut d = 0;
        for &step in &task.steps {
            // Each step of a handed-over path runs its flows again: a long path on a large
            // map takes a good part of a second.
            if self.c.out_of_time() {
                self.c.timed_out = true;
                return;
            }
            d = self.c.replay(d, step);
        }
        // The root's sweep of prices is done; the task starts from its parent's.
        self.c.swept |= d > 0;
        self.path = task.steps;
        self.node(d, 0, task.mu, task.up);
    }

    /// `up`: the parent's Lagrangian bound (scaled), also valid here.
    fn node_inner(&mut self, d: usize, mut lambda: usize, mut mu: i64, mut up: i64) {
        self.c.nodes += 1;
        // The clock is read at every node: on maps of thousands of cells one node's flows take
        // milliseconds, and sixteen of them overran a short `--timeout` by a third of a second.
        if self.quick && self.c.nodes > QUICK_NODES || self.c.out_of_time() {
            self.c.timed_out = true;
        }
        if self.c.timed_out {
            return;
        }
        self.shared.sync(&mut self.c.best);
        let net = self.c.net;
        let kleft = self.c.k - self.c.walls.len();
        let connected = loop {
            while self.c.augment(d) {
                lambda += 1;
                if lambda > kleft {
                    return;
                }
            }
            let animals: &[usize] = match self.unicorn {
                Some(u) => &[self.horse, u],
                None => &[self.horse],
            };
            // The unicorn's part must join the horse's.
            let connected = self.c.flood_region(d, animals, 1);
            let Some(b) = self.c.undecided_bee(d) else {
                break connected;
            };
            if !self.c.room_below(d) {
                return;
            }
            self.c.bee_out_child(d, b);
            self.path.push(Decision::BeeOut(b as u32));
            self.node(d + 1, lambda, mu, up);
            self.path.pop();
            if self.c.timed_out {
                return;
            }
            self.c.bee_in(d, b);
            self.path.push(Decision::BeeIn(b as u32));
        };
        if !connected && !self.c.joinable(d, &[self.horse], self.unicorn) {
            return;
        }
        let value = self.c.take_region(d);
        debug_assert_eq!(self.c.cut.len(), lambda);
        let used = (self.c.walls.len() + lambda) as i32;
        if connected {
            self.c.offer_cut(value - self.cost * used);
        }
        let bound = self.c.reach_bound(d, value) - self.cost * used;
        if d == 0 && self.c.seeds.is_empty() {
            // No bee decided yet: the bound holds for the whole level.
            self.c.root_bound = Some(bound);
        }
        // No walls to spare: every pen of the subtree is a minimum cut, and the furthest one,
        // just offered, holds every other (and no tile of negative worth).
        if self.c.best.as_ref().is_some_and(|b| bound <= b.0) || lambda == 0 || lambda == kleft {
            return;
        }
        if !self.c.swept {
            // Pens of the relaxation at a range of wall prices: good first incumbents. The
            // pens shrink as the price rises, and the horse's part fits the budget only past
            // some price, where the best ones lie: a fine sweep finds them (rising prices
            // only add capacity, so each step augments the last flow). Small islands are
            // searched faster than swept.
            self.c.swept = true;
            let mut least = i64::MAX;
            let prices: Vec<i64> = if self.c.net.m >= FINE_SWEEP && !self.quick {
                (1..=64).chain((72..=256).step_by(8)).collect()
            } else {
                vec![1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256]
            };
            for m in prices {
                // On maps of tens of thousands of tiles one price takes tens of milliseconds.
                if self.c.out_of_time() {
                    self.c.timed_out = true;
                    return;
                }
                let b = self.lagrange(d, m, i64::MAX);
                if b < least {
                    least = b;
                    mu = m;
                }
            }
            if self.c.walls.is_empty() {
                let st = &self.c.st[d];
                self.beam_from = Some((st.cap.clone(), st.flags.clone(), lambda, kleft));
            }
        }
        if BEAMS.get(self.beams).is_some_and(|b| self.c.nodes >= b.0) {
            // One thread runs each beam.
            if self.beam_from.is_some() && self.shared.claim(self.beams as u32) {
                self.beam();
            } else {
                self.beams += 1;
            }
        }
        if let Some(b) = &self.c.best {
            let target = (b.0 as i64 + 1) * SC;
            if up < target {
                return;
            }
            let st = &self.c.st[d];
            let inherited = st.pen_ok && self.c.region.iter().all(|&c| st.pen[c as usize]);
            if !inherited {
                let (pruned, m, ub) = search_core::tune(self, d, net.m, mu, target);
                if pruned {
                    return;
                }
                mu = m;
                up = ub;
            }
        }
        if !self.c.room_below(d) {
            return;
        }
        let st = &self.c.st[d];
        let (v, wall_first) = search_core::pick(st.pen_ok.then_some(&st.pen[..]), &self.c.cut);
        let v = v as usize;
        for (i, wall_branch) in [wall_first, !wall_first].into_iter().enumerate() {
            let step = if wall_branch {
                Decision::Wall(v as u32)
            } else {
                Decision::In(v as u32)
            };
            if i == 1 && self.c.nodes >= HANDOFF_AFTER && self.shared.hungry() {
                let mut steps = self.path.clone();
                steps.push(step);
                self.shared.push([Task { steps, mu, up }]);
                return;
            }
            self.c.child(d);
            self.path.push(step);
            if wall_branch {
                // v takes a wall.
                self.c.cancel_through(d + 1, v);
                self.c.st[d + 1].flags[v] |= DEAD;
                self.c.st[d + 1].pen_ok &= !self.c.st[d].pen[v];
                self.c.walls.push(v as u32);
                self.node(d + 1, lambda - 1, mu, up);
                self.c.walls.pop();
            } else {
                // v joins the pen.
                self.c.force_in_child(d, v);
                self.node(d + 1, lambda, mu, up);
                self.c.end_in_child();
            }
            self.path.pop();
            if self.c.timed_out {
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
        let mut beam = Beam::new(self.c.net, *kleft, self.cost, seeds.collect());
        beam.deadline = self.c.deadline;
        let width = width.min(Beam::width_within(self.c.net, self.beam_memory));
        if let Some((score, w)) = beam.run(cap, flags, *lambda, width) {
            if self.c.best.as_ref().is_none_or(|b| score > b.0) {
                self.c.best = Some((score, w));
            }
        }
    }

    /// The Lagrangian bound (scaled) at multiplier `mu` per wall: dropping connectivity, the
    /// best pen minus `mu` (plus the wall cost) per wall is a maximum-weight closure (tile in ⇒
    /// each neighbour in or walled), one min cut; add `mu` per wall left. Uses the reachable
    /// part and its rim from the last `reach_bound`. Stops early once below `target`.
    fn lagrange(&mut self, d: usize, mu: i64, target: i64) -> i64 {
        // One bound is a max-flow over the whole island, and a node may ask for dozens: past
        // the deadline the search is over, so the node is pruned and the answer is `gave_up`.
        if self.c.out_of_time() {
            self.c.timed_out = true;
            return i64::MIN;
        }
        let st = &mut self.c.st[d];
        let top = self.c.closure.total + mu * self.c.k as i64;
        // Pruned once top - flow < target.
        let limit = if target == i64::MAX {
            i64::MAX
        } else {
            top - target + 1
        };
        search_core::closure_flow(
            self.c.net,
            &mut self.c.closure,
            &mut st.flow,
            &st.flags,
            &self.c.reach_mark,
            self.c.reach_stamp,
            &self.c.region,
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
        let net = self.c.net;
        let st = &self.c.st[d];
        self.c.pstamp += 1;
        let ps = self.c.pstamp;
        let in_pen = |c: usize, s: &Self| st.flags[c] & IN_X != 0 || s.c.closure.in_pen(c);
        self.c.pen_q.clear();
        self.c.pen_q.push(self.horse as u32);
        self.c.pen[self.horse] = ps;
        let mut new_walls = Vec::new();
        let mut value = 0;
        let mut qi = 0;
        while qi < self.c.pen_q.len() {
            let c = self.c.pen_q[qi] as usize;
            qi += 1;
            value += net.value[c];
            for &e in net.nbrs(c) {
                let e = e as usize;
                if self.c.pen[e] == ps || st.flags[e] & DEAD != 0 {
                    continue;
                }
                self.c.pen[e] = ps;
                if in_pen(e, self) {
                    self.c.pen_q.push(e as u32);
                } else {
                    if !net.wallable[e] {
                        return;
                    }
                    new_walls.push(e as u32);
                }
            }
        }
        if self.c.walls.len() + new_walls.len() > self.c.k
            || self
                .unicorn
                .is_some_and(|u| self.c.pen[u] != ps || !self.c.pen_q.contains(&(u as u32)))
        {
            return;
        }
        let score = value - self.cost * (self.c.walls.len() + new_walls.len()) as i32;
        self.c.offer(score, &new_walls);
    }
}

impl Best for Search<'_> {
    fn best(&mut self) -> &mut Option<(i32, Vec<u32>)> {
        &mut self.c.best
    }
}

impl Relaxation for Search<'_> {
    fn bound(&mut self, d: usize, mu: i64, target: i64) -> i64 {
        self.lagrange(d, mu, target)
    }

    fn capture(&mut self, d: usize) {
        self.c.capture(d);
    }

    fn slope(&self) -> Option<i64> {
        Some(self.c.slope())
    }
}

pub(super) fn solve(level: &Level, limits: &Limits) -> Outcome<Solution> {
    solve_keeping_out(level, limits, None, None, false, tasks::threads())
}

/// As [`solve`], ending also once `stop` (if any) is set, with the bee tile at grid index
/// `out` (if any) kept out of the pen from the start: the quarrel round's first guesses
/// ([`super::quarrel_incumbent`]) place the other animal there.
/// A `quick` search only looks for a good pen: the coarse price sweep, and it stops (as on a
/// deadline) after [`QUICK_NODES`] nodes. `threads`: how many share the search, and
/// `limits.memory` (each thread a share: three quarters for its states, one for its beams).
pub(super) fn solve_keeping_out(
    level: &Level,
    limits: &Limits,
    stop: Option<&AtomicBool>,
    out: Option<usize>,
    quick: bool,
    threads: usize,
) -> Outcome<Solution> {
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
    let horse = cell_of(horse).expect("horse on its island");
    // Lovebirds with the unicorn off the horse's island: no pen holds both.
    let (unicorn, lovebirds_apart) = match (level.variant, unicorn.and_then(cell_of)) {
        (Variant::Lovebirds, Some(u)) => (Some(u), false),
        (Variant::Lovebirds, None) => (None, true),
        _ => (None, false),
    };
    let mut first = None;
    if unicorn.is_some() {
        // Pens that hold both animals can be rare among the separators the search meets
        // first: start from one known pen so that the bounds prune from the first node.
        if let Some(walls) = super::feasibility::lovebirds_walls(level) {
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
                first = Some((score, cells));
            }
        }
    }
    let shared = Shared::new(Task {
        steps: Vec::new(),
        mu: 2 * SC,
        up: i64::MAX,
    });
    let share = limits.memory / threads.max(1);
    let search = || {
        let mut c = Core::new(&net, k, limits.deadline, share / 4 * 3);
        c.stop = stop;
        c.best.clone_from(&first);
        if let Some(b) = out.and_then(cell_of) {
            debug_assert!(net.bee[b], "only a bee has an arc to T to open");
            c.st[0].flags[b] |= OUT;
            c.st[0].cap[net.bee_arc[b] as usize] = INF;
        }
        c.st[0].flags[horse] |= IN_X;
        if let Some(u) = unicorn {
            c.st[0].flags[u] |= IN_X;
        }
        let root = c.st[0].clone();
        Search {
            c,
            cost: if level.variant == Variant::CostlyWalls {
                WALL_COST
            } else {
                0
            },
            horse,
            unicorn,
            beam_from: None,
            beams: 0,
            quick,
            beam_memory: share / 4,
            shared: &shared,
            path: Vec::new(),
            root,
        }
    };
    if lovebirds_apart {
        return search().c.finish(level, start);
    }
    let searches = tasks::run(threads, &shared, search, Search::run);
    debug_assert!(searches.iter().all(|s| s.c.st.len() <= s.c.max_depth));
    search_core::finish_shared(
        searches.into_iter().map(|s| s.c),
        shared.best(),
        level,
        start,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::enclose::generate::{generate, Params};
    use crate::games::enclose::solve::account;
    use crate::report::Status;

    /// With memory for two states only, the search keeps to them (`Core::child` asserts it in
    /// test builds) and gives up with a legal pen no better than the optimum.
    #[test]
    fn a_search_short_of_memory_stays_within_it_and_gives_up() {
        let mut gave_up = 0;
        for seed in [2, 50, 51, 52] {
            let level = generate(seed, &Params::for_seed(seed));
            let (status, full) = account(solve_keeping_out(
                &level,
                &Limits::default(),
                None,
                None,
                false,
                1,
            ));
            assert_eq!(status, Status::Optimal, "seed {seed}");
            let tiny = Limits {
                memory: 1,
                ..Limits::default()
            };
            for threads in [1, 2] {
                let (status, short) =
                    account(solve_keeping_out(&level, &tiny, None, None, false, threads));
                assert_ne!(status, Status::Unsolvable, "seed {seed}");
                assert!(short.score <= full.score, "seed {seed}");
                if status == Status::GaveUp {
                    gave_up += 1;
                    assert!(short.bound >= full.score, "seed {seed}");
                } else {
                    assert_eq!(short.score, full.score, "seed {seed}");
                }
                if !short.walls.is_empty() {
                    assert_eq!(
                        check::score(&level, &short.walls),
                        Ok(short.score),
                        "seed {seed}"
                    );
                }
            }
        }
        assert!(gave_up > 0, "no level needed a deeper search");
    }

    #[test]
    fn threads_agree_with_one_thread() {
        for (variant, seed) in [
            (Variant::Main, 2),
            (Variant::Main, 50),
            (Variant::Lovebirds, 50),
            (Variant::CostlyWalls, 2),
            (Variant::CostlyWalls, 50),
        ] {
            let params = Params {
                variant,
                ..Params::for_seed(seed)
            };
            let level = generate(seed, &params);
            let limits = Limits::default();
            let one = account(solve_keeping_out(&level, &limits, None, None, false, 1));
            let (two_status, two) =
                account(solve_keeping_out(&level, &limits, None, None, false, 2));
            assert_eq!(one.0, Status::Optimal, "{variant:?} {seed}");
            assert_eq!(
                (two_status, two.score),
                (one.0, one.1.score),
                "{variant:?} {seed}"
            );
            assert_eq!(
                check::score(&level, &two.walls),
                Ok(two.score),
                "{variant:?} {seed}"
            );
        }
    }
}
