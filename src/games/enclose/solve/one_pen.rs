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
use super::search_core::{self, Core, Decision, Relaxation, State, COARSE_PRICES, SCALE};
use super::tasks::{self, Shared, HANDOFF_AFTER};
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
    core: Core<'a>,
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
        let (seeds, path) = (self.core.seeds.len(), self.path.len());
        self.node_inner(d, lambda, mu, up);
        self.core.seeds.truncate(seeds);
        self.path.truncate(path);
    }

    /// Rebuilds the task's node from the root's state (with the flows from scratch) and
    /// searches it.
    fn run(&mut self, task: Task) {
        self.core.restart(&self.root);
        let mut d = 0;
        for &step in &task.steps {
            // Each step of a handed-over path runs its flows again: a long path on a large
            // map takes a good part of a second.
            if self.core.out_of_time() {
                self.core.timed_out = true;
                return;
            }
            d = self.core.replay(d, step);
        }
        // The root's sweep of prices is done; the task starts from its parent's.
        self.core.swept |= d > 0;
        self.path = task.steps;
        self.node(d, 0, task.mu, task.up);
    }

    /// `up`: the parent's Lagrangian bound (scaled), also valid here.
    fn node_inner(&mut self, d: usize, mut lambda: usize, mut mu: i64, mut up: i64) {
        self.core.nodes += 1;
        // The clock is read at every node: on maps of thousands of cells one node's flows take
        // milliseconds, and sixteen of them overran a short `--timeout` by a third of a second.
        if self.quick && self.core.nodes > QUICK_NODES || self.core.out_of_time() {
            self.core.timed_out = true;
        }
        if self.core.timed_out {
            return;
        }
        self.shared.sync(&mut self.core.best);
        let kleft = self.core.k - self.core.walls.len();
        let connected = loop {
            let Some(paths) = self.core.max_flow(d, lambda, kleft) else {
                return;
            };
            lambda = paths;
            let animals: &[usize] = match self.unicorn {
                Some(u) => &[self.horse, u],
                None => &[self.horse],
            };
            // The unicorn's part must join the horse's.
            let connected = self.core.flood_region(d, animals, 1);
            let Some(b) = self.core.undecided_bee(d) else {
                break connected;
            };
            if !self.core.room_below(d) {
                return;
            }
            self.core.bee_out_child(d, b);
            self.path.push(Decision::BeeOut(b as u32));
            self.node(d + 1, lambda, mu, up);
            self.path.pop();
            if self.core.timed_out {
                return;
            }
            self.core.bee_in(d, b);
            self.path.push(Decision::BeeIn(b as u32));
        };
        if !connected && !self.core.joinable(d, &[self.horse], self.unicorn) {
            return;
        }
        let value = self.core.take_region(d);
        debug_assert_eq!(self.core.cut.len(), lambda);
        let used = (self.core.walls.len() + lambda) as i32;
        if connected {
            self.core.offer_cut(value - self.cost * used);
        }
        let bound = self.core.reach_bound(d, value) - self.cost * used;
        if self.core.settled(d, bound, lambda, kleft) {
            return;
        }
        if !self.core.swept {
            // Pens of the relaxation at a range of wall prices: good first incumbents. The
            // pens shrink as the price rises, and the horse's part fits the budget only past
            // some price, where the best ones lie: a fine sweep finds them (rising prices
            // only add capacity, so each step augments the last flow). Small islands are
            // searched faster than swept.
            self.core.swept = true;
            let prices: Vec<i64> = if self.core.net.m >= FINE_SWEEP && !self.quick {
                (1..=64).chain((72..=256).step_by(8)).collect()
            } else {
                COARSE_PRICES.to_vec()
            };
            // On maps of tens of thousands of tiles one price takes tens of milliseconds.
            let Some((cheapest, _)) = self.cheapest(d, &prices) else {
                return;
            };
            mu = cheapest;
            if self.core.walls.is_empty() {
                let state = &self.core.states[d];
                self.beam_from = Some((state.cap.clone(), state.flags.clone(), lambda, kleft));
            }
        }
        if BEAMS
            .get(self.beams)
            .is_some_and(|b| self.core.nodes >= b.0)
        {
            // One thread runs each beam.
            if self.beam_from.is_some() && self.shared.claim(self.beams as u32) {
                self.beam();
            } else {
                self.beams += 1;
            }
        }
        let Some((tuned_mu, tuned_up)) = self.tuned(d, mu, up, None) else {
            return;
        };
        (mu, up) = (tuned_mu, tuned_up);
        let Some((v, wall_first)) = self.core.branch(d) else {
            return;
        };
        for (i, wall_branch) in [wall_first, !wall_first].into_iter().enumerate() {
            let step = Decision::branch(v, wall_branch);
            if i == 1 && self.core.nodes >= HANDOFF_AFTER && self.shared.hungry() {
                let steps = [&self.path[..], &[step]].concat();
                self.shared.push([Task { steps, mu, up }]);
                return;
            }
            self.core.enter_branch(d, v, wall_branch);
            self.path.push(step);
            self.node(d + 1, lambda - usize::from(wall_branch), mu, up);
            self.core.leave_branch(wall_branch);
            self.path.pop();
            if self.core.timed_out {
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
        let mut beam = Beam::new(self.core.net, *kleft, self.cost, seeds.collect());
        beam.deadline = self.core.deadline;
        let width = width.min(Beam::width_within(self.core.net, self.beam_memory));
        if let Some((score, w)) = beam.run(cap, flags, *lambda, width) {
            if self.core.best.as_ref().is_none_or(|b| score > b.0) {
                self.core.best = Some((score, w));
            }
        }
    }
}

impl<'a> Relaxation<'a> for Search<'a> {
    fn core(&mut self) -> &mut Core<'a> {
        &mut self.core
    }

    fn wall_price(&self, mu: i64) -> i64 {
        mu + self.cost as i64 * SCALE
    }

    /// After an exact closure cut: the closure's pen part holding the horse, walled in, as a
    /// solution when the walls fit the budget.
    fn offer_closure(&mut self, d: usize) {
        let net = self.core.net;
        let state = &self.core.states[d];
        self.core.pen_stamp += 1;
        let ps = self.core.pen_stamp;
        let in_pen = |c: usize, s: &Self| state.flags[c] & IN_X != 0 || s.core.closure.in_pen(c);
        self.core.pen_q.clear();
        self.core.pen_q.push(self.horse as u32);
        self.core.pen[self.horse] = ps;
        let mut new_walls = Vec::new();
        let mut value = 0;
        let mut qi = 0;
        while qi < self.core.pen_q.len() {
            let c = self.core.pen_q[qi] as usize;
            qi += 1;
            value += net.value[c];
            for &e in net.nbrs(c) {
                let e = e as usize;
                if self.core.pen[e] == ps || state.flags[e] & DEAD != 0 {
                    continue;
                }
                self.core.pen[e] = ps;
                if in_pen(e, self) {
                    self.core.pen_q.push(e as u32);
                } else {
                    if !net.wallable[e] {
                        return;
                    }
                    new_walls.push(e as u32);
                }
            }
        }
        if self.core.walls.len() + new_walls.len() > self.core.k
            || self
                .unicorn
                .is_some_and(|u| self.core.pen[u] != ps || !self.core.pen_q.contains(&(u as u32)))
        {
            return;
        }
        let score = value - self.cost * (self.core.walls.len() + new_walls.len()) as i32;
        self.core.offer(score, &new_walls);
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
        mu: 2 * SCALE,
        up: i64::MAX,
    });
    let share = limits.memory / threads.max(1);
    let search = || {
        let mut core = Core::new(&net, k, limits.deadline, share / 4 * 3);
        core.stop = stop;
        core.best.clone_from(&first);
        if let Some(b) = out.and_then(cell_of) {
            debug_assert!(net.bee[b], "only a bee has an arc to T to open");
            core.states[0].flags[b] |= OUT;
            core.states[0].cap[net.bee_arc[b] as usize] = INF;
        }
        core.states[0].flags[horse] |= IN_X;
        if let Some(u) = unicorn {
            core.states[0].flags[u] |= IN_X;
        }
        let root = core.states[0].clone();
        Search {
            core,
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
        return search().core.finish(level, start);
    }
    let searches = tasks::run(threads, &shared, search, Search::run, |s| &mut s.core.best);
    debug_assert!(searches
        .iter()
        .all(|s| s.core.states.len() <= s.core.max_depth));
    search_core::finish_shared(
        searches.into_iter().map(|s| s.core),
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
