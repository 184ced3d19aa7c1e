//! The quarrel round: horse and unicorn each in a pen of its own, both pens score.
//!
//! Two phases on one flow network (the island network of [`super::maxflow::island`]: a node pair
//! per tile, unit arcs through wallable tiles, border tiles into the sink T, sources the horse
//! and the unicorn).
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
//!   important-separator search of [`super::one_pen`] applies unchanged (furthest min cut,
//!   branch on a cut tile: in or wall; bees in or out), each part of the pen holding the horse
//!   or the unicorn.
//!
//! A separation node that the closure bound does not prune is also bounded exactly with the
//! parting dropped ([`Search::beats_best`]): the two-pen search run on a copy of the node,
//! where a part may hold both animals. Pushing is safe there (a pen grown to the furthest min
//! cut still holds only parts with an animal), so that search is exact for its problem, and
//! every pair of pens below the node is one of its answers. A pen holding both animals that
//! beats the best answer ends it (the node then branches on a path through that pen, which
//! every child cuts); parted pairs it meets are answers; and when it ends with neither, no
//! pair below the node beats the best answer, and the node is pruned. Why: on big open maps
//! the closure bound falls short by the budget's integrality gap far more than by the
//! parting (the best pen holding both animals is worth far less than the bound), so this
//! bound prunes separation nodes long before their walls part the animals. In that search the
//! pen's side of each branch goes first: a pen holding both animals, when there is one, comes
//! sooner.
//!
//! Bounds at every node: the fewest walls still needed (max flow from both animals to T) and
//! the Lagrangian closure bound with both animals in the closure (a pair of separate pens is
//! such a closure with the same walls), tuned per node; its pens, when they split the animals
//! and fit the budget, are offered as solutions. The closure flow is the warm one of
//! [`super::maxflow::closure`]: every constraint a node adds (walls, tiles in or out, walls
//! forbidden to later siblings of the separation phase) only raises capacities, so a child
//! starts from its parent's flow. So does the island flow: a separation wall cancels the unit
//! it carried, a forbidden wall opens its arc. The pieces shared with [`super::one_pen`] live
//! in [`super::search_core`].
//!
//! With more than one core, a thread that sees another one idle hands it the children of its
//! node that it has not searched yet, as tasks ([`super::tasks`]: the decisions from the root,
//! replayed on the root's state); the threads share the best answer, so one thread's answer
//! prunes the others' subtrees at once.
//!
//! Where the slowest levels spend their time, what paid and what was tried and dropped, with
//! the measurements: `docs/enclose-solver.md`.

use super::maxflow::closure::Flow;
use super::maxflow::island::{Net, DEAD, FORBID, INF, IN_X, NIL};
use super::quarrel_incumbent;
use super::search_core::{self, Core, Decision, Relaxation, State, COARSE_PRICES, SCALE};
use super::tasks::{self, Shared, HANDOFF_AFTER};
use crate::games::enclose::check;
use crate::games::enclose::model::{Level, Solution, Tile};
use crate::solving::{Limits, Outcome};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A search still open after this long also looks for pairs of pens one by one
/// ([`quarrel_incumbent`]), on a thread of its own: the search's relaxation draws pens that
/// merge the animals on big maps, so its first answers are poor and prune little. (Levels
/// solved sooner are spared the look's cost.) The look ends when the search does: its answers
/// only serve the pruning.
const PAIRS_AFTER: Duration = Duration::from_millis(30);

/// `Search::side` of a tile walled in by `offer_closure` (1 and 2: the two pens).
const WALL_SIDE: u8 = 3;

/// A branch taken on the way from the root to a node (cells of the search's net).
#[derive(Clone, Debug)]
enum Step {
    /// Separation phase: the walls forbidden to the node's earlier children, then the wall of
    /// the child taken.
    Part { forbid: Vec<u32>, wall: u32 },
    /// Two pens: a branch of the pen search.
    Pen(Decision),
}

type Task = tasks::Task<Step>;

/// Where [`Search::path_between`] may go.
#[derive(Clone, Copy)]
enum Within {
    Anywhere,
    /// The pen of the last exact relaxation.
    Relaxed,
    /// The pen that ended the last [`Search::beats_best`].
    Joined,
}

struct Search<'a> {
    core: Core<'a>,
    horse: usize,
    unicorn: usize,
    side: Vec<u8>,
    /// Per depth of the separation phase: the closure flow of each child's look (see
    /// `probe`), as many as `probe_memory` bytes hold (`probed_bytes` so far).
    probed: Vec<Vec<Flow>>,
    probed_bytes: usize,
    probe_memory: usize,
    /// Searching a separation node's pairs of pens with the parting dropped (see
    /// [`Search::beats_best`]).
    bounding: bool,
    /// Set by that search when a pen holding both animals beats the best answer; the pen.
    beaten: bool,
    joined_pen: Vec<bool>,
    shared: &'a Shared<Task>,
    /// The decisions from the root to the node being searched.
    steps: Vec<Step>,
    /// State 0 as the search starts (each task is rebuilt from it).
    root: State,
}

impl<'a> Search<'a> {
    /// `apart`: the walls already split the horse from the unicorn (see [`Search::apart`]).
    /// `lambda`: the flow of state `d`.
    fn node(&mut self, d: usize, lambda: usize, mu: i64, up: i64, apart: bool) {
        self.core.nodes += 1;
        // Nodes are heavy (several flows each): the clock is cheap beside them.
        if self.core.deadline.is_some_and(|dl| Instant::now() >= dl) {
            self.core.timed_out = true;
        }
        if self.core.timed_out || self.beaten {
            return;
        }
        self.shared.sync(&mut self.core.best);
        let (seeds, steps) = (self.core.seeds.len(), self.steps.len());
        if apart {
            self.node_inner(d, lambda, mu, up);
        } else {
            self.node_together(d, lambda, mu, up);
        }
        self.core.seeds.truncate(seeds);
        self.steps.truncate(steps);
    }

    /// A node of the separation phase: bound, then branch on the first wall along the path
    /// from the horse to the unicorn that crosses the fewest wallable tiles.
    fn node_together(&mut self, d: usize, mut lambda: usize, mut mu: i64, mut up: i64) {
        let net = self.core.net;
        let kleft = self.core.k - self.core.walls.len();
        // The new wall may have carried no flow: the inherited flow alone can exceed the walls
        // left.
        if lambda > kleft {
            return;
        }
        while self.core.augment(d) {
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
        self.core.region.clear();
        self.core.region.extend([h as u32, u as u32]);
        let bound = self.core.reach_bound(d, net.value[h] + net.value[u]);
        if d == 0 {
            self.core.root_bound = Some(bound);
        }
        if self.core.best.as_ref().is_some_and(|b| bound <= b.0) {
            return;
        }
        if !self.core.swept {
            self.core.swept = true;
            mu = self.sweep(d, mu);
        }
        if let Some(b) = &self.core.best {
            if up < (b.0 as i64 + 1) * SCALE {
                return;
            }
        }
        let state = &self.core.states[d];
        if let Some(b) = self
            .core
            .best
            .as_ref()
            .filter(|_| !(state.pen_ok && state.pen[h] && state.pen[u]))
        {
            let target = (b.0 as i64 + 1) * SCALE;
            // Not the longer tuning near the root of `one_pen`: here the exact bound below does
            // the pruning, and its price starts from this one.
            let (pruned, m, ub) =
                search_core::tune_evals(self, d, mu, target, search_core::TUNE_EVALS);
            if pruned {
                return;
            }
            mu = m;
            up = ub;
            if d == 0 {
                let b = up.div_euclid(SCALE) as i32;
                self.core.root_bound = Some(self.core.root_bound.map_or(b, |r| r.min(b)));
            }
        }
        // Its bounding search, its looks and its children are all states below it.
        if !self.core.room_below(d) {
            return;
        }
        // A path through a pen that joins the animals and beats the best answer: every branch
        // cuts that pen. Failing one, the relaxation's pen, when it joins them.
        let joined = if self.core.best.is_some() {
            if !self.beats_best(d, lambda, mu, up) {
                return;
            }
            self.path_between(d, Within::Joined)
        } else {
            None
        };
        let inside = joined.or_else(|| {
            self.core.states[d]
                .pen_ok
                .then(|| self.path_between(d, Within::Relaxed))
                .flatten()
        });
        let Some(path) = inside.or_else(|| self.path_between(d, Within::Anywhere)) else {
            return;
        };
        if self.core.walls.len() >= self.core.k {
            return;
        }
        // The order of the path is free (the first wall in any fixed order partitions the wall
        // sets): try the most promising wall first, after a look at each child's relaxation,
        // whose pens are often the best incumbents.
        // Each look's closure flow is kept for its child: the child only adds constraints
        // (its earlier siblings' forbidden walls) that raise capacities.
        // Flows past the memory share are not kept: their children start from this node's
        // flow, also valid (only slower).
        if self.probed.len() <= d {
            self.probed.resize_with(d + 1, Vec::new);
        }
        let mut order = Vec::with_capacity(path.len());
        for (j, &v) in path.iter().enumerate() {
            order.push((self.probe(d, v as usize, mu), v, j));
            if self.probed[d].len() <= j {
                let f = &self.core.states[d + 1].flow;
                if self.probed_bytes + f.res.len() * 4 <= self.probe_memory {
                    self.probed_bytes += f.res.len() * 4;
                    self.probed[d].push(f.clone());
                }
            } else {
                std::mem::swap(&mut self.core.states[d + 1].flow, &mut self.probed[d][j]);
            }
        }
        order.sort_by_key(|&(b, _, _)| std::cmp::Reverse(b));
        // Once another thread waits for work, the children left go to it as tasks.
        let mut tasks = Vec::new();
        let mut forbidden = Vec::new();
        for (i, (probed, v, j)) in order.into_iter().enumerate() {
            let v = v as usize;
            if self
                .core
                .best
                .as_ref()
                .is_none_or(|b| probed >= (b.0 as i64 + 1) * SCALE)
            {
                let step = Step::Part {
                    forbid: forbidden.clone(),
                    wall: v as u32,
                };
                if !tasks.is_empty() || i > 0 && self.handing_out() {
                    let mut steps = self.steps.clone();
                    steps.push(step);
                    tasks.push(Task { steps, mu, up });
                } else {
                    self.steps.push(step);
                    self.core.child(d);
                    if let Some(f) = self.probed[d].get_mut(j) {
                        std::mem::swap(&mut self.core.states[d + 1].flow, f);
                    }
                    // The parent's flow stays, less the unit through the new wall if any.
                    let through = self.core.states[d + 1].cap[net.through[v] as usize] == 0
                        && self.core.cancel_through(d + 1, v);
                    self.core.states[d + 1].flags[v] |= DEAD;
                    self.core.states[d + 1].pen_ok &= !self.core.states[d].pen[v];
                    self.core.walls.push(v as u32);
                    self.node(d + 1, lambda - usize::from(through), mu, up, false);
                    self.core.walls.pop();
                    self.steps.pop();
                    if self.core.timed_out {
                        return;
                    }
                }
            }
            // Later siblings: walls sets without this one (it was the first wall on the path).
            // Its arc opens: the flow stays valid.
            self.core.states[d].flags[v] |= FORBID;
            self.core.states[d].cap[net.through[v] as usize] += INF - 1;
            self.core.states[d].pen_ok &= self.core.states[d].pen[v];
            forbidden.push(v as u32);
        }
        // The first child on top of the stack.
        self.shared.push(tasks.into_iter().rev());
    }

    /// Whether a pair of pens within the node's walls, parted or not, beats the best answer:
    /// the two-pen search of [`Search::node_inner`] run on a copy of the node, where a pen
    /// holding both animals ends it at once (parted pairs are offered as answers).
    fn beats_best(&mut self, d: usize, lambda: usize, mu: i64, up: i64) -> bool {
        let (seeds, steps) = (self.core.seeds.len(), self.steps.len());
        self.core.child(d);
        self.bounding = true;
        // A bounding search cut short for memory proves nothing: the node is then searched
        // (and the proof stands, so the flag is the search's again).
        let cut_short = std::mem::take(&mut self.core.cut_short);
        self.node_inner(d + 1, lambda, mu, up);
        let short = std::mem::replace(&mut self.core.cut_short, cut_short);
        self.bounding = false;
        self.core.seeds.truncate(seeds);
        self.steps.truncate(steps);
        std::mem::take(&mut self.beaten) || self.core.timed_out || short
    }

    /// After `flood_region`: its region joins the horse and the unicorn.
    fn joined(&mut self) -> bool {
        let stamp = self.core.mark_stamp;
        let (from, goal) = ([self.horse], Some(self.unicorn));
        self.core
            .spread_pen(&from, goal, |mark, _, e| mark[e] == stamp)
    }

    /// Rebuilds the task's node from the root's state (with the flows from scratch) and
    /// searches it.
    fn run(&mut self, task: Task) {
        let net = self.core.net;
        self.core.restart(&self.root);
        let mut d = 0;
        for step in &task.steps {
            d = match *step {
                Step::Part { ref forbid, wall } => {
                    for &f in forbid {
                        self.core.states[d].flags[f as usize] |= FORBID;
                        self.core.states[d].cap[net.through[f as usize] as usize] += INF - 1;
                    }
                    self.core.replay(d, Decision::Wall(wall))
                }
                Step::Pen(decision) => self.core.replay(d, decision),
            };
        }
        // The root's sweep of prices is done; the task starts from its parent's.
        self.core.swept |= d > 0;
        self.steps = task.steps;
        // A node past the separation finds itself apart.
        self.node(d, 0, task.mu, task.up, false);
    }

    /// Whether to hand out the rest of the node's children: another thread waits and this one
    /// has searched enough to make a rebuilt task worth its cost.
    fn handing_out(&self) -> bool {
        self.core.nodes >= HANDOFF_AFTER && self.shared.hungry()
    }

    /// The relaxation's bound (scaled) at price `mu` once `v` is walled, stopping early below
    /// the incumbent; its pens are offered as solutions.
    fn probe(&mut self, d: usize, v: usize, mu: i64) -> i64 {
        let (h, u) = (self.horse, self.unicorn);
        self.core.child(d);
        self.core.states[d + 1].flags[v] |= DEAD;
        self.core.walls.push(v as u32);
        self.core.region.clear();
        self.core.region.extend([h as u32, u as u32]);
        let reach = self
            .core
            .reach_bound(d + 1, self.core.net.value[h] + self.core.net.value[u])
            as i64
            * SCALE;
        let target = self
            .core
            .best
            .as_ref()
            .map_or(i64::MAX, |b| (b.0 as i64 + 1) * SCALE);
        let b = if reach < target {
            reach
        } else {
            self.bound(d + 1, mu, target).min(reach)
        };
        self.core.walls.pop();
        b
    }

    /// Pens of the relaxation at a range of wall prices (good first incumbents); returns the
    /// price with the least bound.
    fn sweep(&mut self, d: usize, mu: i64) -> i64 {
        let Some((cheapest, least)) = self.cheapest(d, &COARSE_PRICES) else {
            return mu;
        };
        if d == 0 && self.core.seeds.is_empty() {
            // Exact flows at the root with no bee decided: a bound on the whole level.
            let b = least.div_euclid(SCALE) as i32;
            self.core.root_bound = Some(self.core.root_bound.map_or(b, |r| r.min(b)));
        }
        cheapest
    }

    /// Whether the horse no longer reaches the unicorn without crossing walls or border tiles
    /// (no pen holds a border tile, so paths through them need no wall).
    fn apart(&mut self, d: usize) -> bool {
        let net = self.core.net;
        let (from, goal) = ([self.horse], Some(self.unicorn));
        !self.core.spread_pen(&from, goal, |_, states, e| {
            states[d].flags[e] & DEAD == 0 && !net.border[e]
        })
    }

    /// The tiles that may take a wall on a path from the horse to the unicorn (avoiding walls
    /// and border tiles) that crosses the fewest of them; 0-1 breadth-first search.
    /// With `in_pen`, the path stays inside the pen of the last exact relaxation (`None` when
    /// the pen does not join the two).
    fn path_between(&self, d: usize, within: Within) -> Option<Vec<u32>> {
        let net = self.core.net;
        let state = &self.core.states[d];
        let cost = |c: usize| u32::from(net.wallable[c] && state.flags[c] & FORBID == 0);
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
                let outside = match within {
                    Within::Anywhere => false,
                    Within::Relaxed => !state.pen[e],
                    Within::Joined => !self.joined_pen[e],
                };
                if state.flags[e] & DEAD != 0 || net.border[e] || outside {
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
        let kleft = self.core.k - self.core.walls.len();
        let connected = loop {
            let Some(paths) = self.core.max_flow(d, lambda, kleft) else {
                return;
            };
            lambda = paths;
            let connected = self.core.flood_region(d, &[self.horse, self.unicorn], 2);
            let Some(b) = self.core.undecided_bee(d) else {
                break connected;
            };
            if !self.core.room_below(d) {
                return;
            }
            self.core.bee_out_child(d, b);
            self.steps.push(Step::Pen(Decision::BeeOut(b as u32)));
            self.node(d + 1, lambda, mu, up, true);
            self.steps.pop();
            if self.core.timed_out || self.beaten {
                return;
            }
            self.core.bee_in(d, b);
            self.steps.push(Step::Pen(Decision::BeeIn(b as u32)));
        };
        if !connected && !self.core.joinable(d, &[self.horse, self.unicorn], None) {
            return;
        }
        let joined = self.bounding && connected && self.joined();
        let value = self.core.take_region(d);
        debug_assert_eq!(self.core.cut.len(), lambda);
        if joined {
            if self.core.best.as_ref().is_none_or(|b| value > b.0) {
                self.beaten = true;
                self.joined_pen.fill(false);
                for &c in &self.core.region {
                    self.joined_pen[c as usize] = true;
                }
                return;
            }
        } else if connected {
            self.core.offer_cut(value);
        }
        let bound = self.core.reach_bound(d, value);
        if self.core.settled(d, bound, lambda, kleft) {
            return;
        }
        if !self.core.swept {
            self.core.swept = true;
            mu = self.sweep(d, mu);
        }
        // A bounding search keeps the price it was handed: its nodes are many and small, and
        // one flow at that price prunes them about as well as a descent that costs several.
        let evals = self.bounding.then_some(1);
        let Some((tuned_mu, tuned_up)) = self.tuned(d, mu, up, evals) else {
            return;
        };
        (mu, up) = (tuned_mu, tuned_up);
        let Some((v, wall_first)) = self.core.branch(d) else {
            return;
        };
        // A bounding search ends on the first pen joining the animals above the best answer:
        // growing the pen finds one sooner.
        let wall_first = wall_first && !self.bounding;
        for (i, wall_branch) in [wall_first, !wall_first].into_iter().enumerate() {
            let step = Step::Pen(Decision::branch(v, wall_branch));
            // A bounding search's branches are no quarrel nodes: they stay on this thread.
            if i == 1 && !self.bounding && self.handing_out() {
                let steps = [&self.steps[..], &[step]].concat();
                self.shared.push([Task { steps, mu, up }]);
                return;
            }
            self.core.enter_branch(d, v, wall_branch);
            self.steps.push(step);
            self.node(d + 1, lambda - usize::from(wall_branch), mu, up, true);
            self.core.leave_branch(wall_branch);
            self.steps.pop();
            if self.core.timed_out || self.beaten {
                return;
            }
        }
    }
}

impl<'a> Relaxation<'a> for Search<'a> {
    fn core(&mut self) -> &mut Core<'a> {
        &mut self.core
    }

    fn wall_price(&self, mu: i64) -> i64 {
        mu
    }

    /// After an exact closure cut: the closure's parts holding the horse and the unicorn,
    /// walled in, as a solution when they are apart and the walls fit the budget.
    fn offer_closure(&mut self, d: usize) {
        let net = self.core.net;
        let state = &self.core.states[d];
        self.core.pen_stamp += 1;
        let ps = self.core.pen_stamp;
        let in_pen = |c: usize, s: &Self| state.flags[c] & IN_X != 0 || s.core.closure.in_pen(c);
        let mut new_walls = Vec::new();
        let mut value = 0;
        for (tag, src) in [(1u8, self.horse), (2, self.unicorn)] {
            if self.core.pen[src] == ps {
                return;
            }
            self.core.pen[src] = ps;
            self.side[src] = tag;
            self.core.pen_q.clear();
            self.core.pen_q.push(src as u32);
            let mut qi = 0;
            while qi < self.core.pen_q.len() {
                let c = self.core.pen_q[qi] as usize;
                qi += 1;
                value += net.value[c];
                for &e in net.nbrs(c) {
                    let e = e as usize;
                    if state.flags[e] & DEAD != 0 {
                        continue;
                    }
                    if self.core.pen[e] == ps {
                        if self.side[e] != WALL_SIDE && self.side[e] != tag {
                            return;
                        }
                        continue;
                    }
                    self.core.pen[e] = ps;
                    if in_pen(e, self) {
                        self.side[e] = tag;
                        self.core.pen_q.push(e as u32);
                    } else {
                        if !net.wallable[e] || state.flags[e] & FORBID != 0 {
                            return;
                        }
                        self.side[e] = WALL_SIDE;
                        new_walls.push(e as u32);
                    }
                }
            }
        }
        if self.core.walls.len() + new_walls.len() > self.core.k {
            return;
        }
        self.core.offer(value, &new_walls);
    }
}

pub(super) fn solve(level: &Level, limits: &Limits) -> Outcome<Solution> {
    solve_with(level, limits, tasks::threads())
}

/// `limits.memory` is shared by the `threads` and the look for pairs of pens; each thread
/// gives half its share to its states and half to the flows of its looks.
fn solve_with(level: &Level, limits: &Limits, threads: usize) -> Outcome<Solution> {
    let deadline = limits.deadline;
    let share = limits.memory / (threads + 1);
    let start = Instant::now();
    let Some(unicorn) = level.unicorn() else {
        return Outcome::Unsolvable;
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
    let shared = Shared::new(Task {
        steps: Vec::new(),
        mu: 2 * SCALE,
        up: i64::MAX,
    });
    let search = || {
        let mut core = Core::new(&net, k, deadline, share / 2);
        let (h, u) = (cell_of(horse), cell_of(unicorn));
        core.states[0].flags[h] |= IN_X;
        core.states[0].flags[u] |= IN_X;
        let root = core.states[0].clone();
        Search {
            core,
            horse: h,
            unicorn: u,
            side: vec![0; net.m],
            probed: Vec::new(),
            probed_bytes: 0,
            probe_memory: share / 2,
            bounding: false,
            beaten: false,
            joined_pen: vec![false; net.m],
            shared: &shared,
            steps: Vec::new(),
            root,
        }
    };
    let stop = AtomicBool::new(false);
    let look_limits = Limits {
        memory: share,
        ..*limits
    };
    let searches = std::thread::scope(|scope| {
        let look = scope.spawn(|| pairs_of_pens(level, &net, &look_limits, &shared, &stop));
        let searches = tasks::run(threads, &shared, search, Search::run, |s| &mut s.core.best);
        stop.store(true, Ordering::Relaxed);
        look.thread().unpark();
        look.join().expect("pairs of pens");
        searches
    });
    search_core::finish_shared(
        searches.into_iter().map(|s| s.core),
        shared.best(),
        level,
        start,
    )
}

/// After [`PAIRS_AFTER`], unless `stop` comes first: the pairs of pens of
/// [`quarrel_incumbent::pens_one_by_one`], each better one shared with the search as it is
/// drawn.
fn pairs_of_pens(
    level: &Level,
    net: &Net,
    limits: &Limits,
    shared: &Shared<Task>,
    stop: &AtomicBool,
) {
    let start = Instant::now();
    // Woken early when the search ends.
    while let Some(left) = PAIRS_AFTER.checked_sub(start.elapsed()) {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        std::thread::park_timeout(left);
    }
    let mut best = None;
    let mut found = |score: i32, walls: &[usize]| {
        shared.sync(&mut best);
        if best.as_ref().is_none_or(|b: &(i32, Vec<u32>)| score > b.0) {
            let cells = walls.iter().map(|&g| {
                let c = net.grid.binary_search(&g);
                c.expect("a new wall on the animals' islands") as u32
            });
            best = Some((score, cells.collect()));
            shared.sync(&mut best);
        }
    };
    quarrel_incumbent::pens_one_by_one(level, limits, Some(stop), &mut found);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::enclose::format::parse;
    use crate::games::enclose::solve::account;
    use crate::report::Status;

    fn run(text: &str) -> (Status, Solution) {
        let level = parse(text, "t", None).unwrap();
        let (status, sol) = account(solve(&level, &Limits::default()));
        if status == Status::Optimal {
            assert_eq!(check::score(&level, &sol.walls), Ok(sol.score), "{text}");
        }
        (status, sol)
    }

    #[test]
    fn animals_side_by_side_cannot_be_parted() {
        let (status, _) = run("budget: 9\nvariant: quarrel\n~~~~~~\n~.HU.~\n~....~\n~~~~~~\n");
        assert_eq!(status, Status::Unsolvable);
    }

    #[test]
    fn one_wall_between_serves_both_pens() {
        // The wall between them is shared; two more, on the border tiles, close the ends.
        let (status, sol) = run(
            "budget: 3\nvariant: quarrel\n~~~~~~~~~\n~~~~~~~~~\n..H...U..\n~~~~~~~~~\n~~~~~~~~~\n",
        );
        assert_eq!(status, Status::Optimal);
        assert_eq!(sol.score, 6);
        assert_eq!(sol.walls.len(), 3);
    }

    #[test]
    fn a_portal_joins_the_pens_unless_walled() {
        // Two rooms linked by portal 0: each animal's room must be split from the portal.
        let text = "budget: 2\nvariant: quarrel\n~~~~~~~~~\n~H.0~U.0~\n~~~~~~~~~\n";
        let (status, sol) = run(text);
        assert_eq!(status, Status::Optimal);
        // One wall cuts one animal off the portals; the other keeps both rooms' portal ends.
        assert_eq!(sol.score, 1 + 4);
        assert_eq!(sol.walls.len(), 1);
        let (status, _) = run(&text.replace("budget: 2", "budget: 0"));
        assert_eq!(status, Status::Unsolvable);
    }

    #[test]
    fn bees_are_walled_off_or_taken() {
        // The bee costs 5 and its tile alone is worth 1: wall it off when a wall is left.
        let text = "budget: 2\nvariant: quarrel\n~~~~~~~\n~H.~U.~\n~~S~~~~\n~~.~~~~\n~~~~~~~\n";
        let (status, sol) = run(text);
        assert_eq!(status, Status::Optimal);
        assert_eq!(sol.score, 1 + 2, "{sol:?}");
        let (_, sol) = run(&text.replace("budget: 2", "budget: 0"));
        assert_eq!(sol.score, 2 - 4 + 1 + 2);
    }

    #[test]
    fn no_unicorn_is_unsolvable() {
        let mut level = parse("budget: 2\n~~~~\n~H.~\n~~~~\n", "t", None).unwrap();
        level.variant = crate::games::enclose::model::Variant::Quarrel;
        assert_eq!(
            solve(&level, &Limits::default()).status(),
            Status::Unsolvable
        );
    }

    #[test]
    fn threads_agree_with_one_thread() {
        use crate::games::enclose::generate::{generate, Params};
        for seed in [1, 2, 3, 5, 7] {
            let params = Params {
                variant: crate::games::enclose::model::Variant::Quarrel,
                ..Params::for_seed(seed)
            };
            let level = generate(seed, &params);
            let one = account(solve_with(&level, &Limits::default(), 1));
            let (two_status, two) = account(solve_with(&level, &Limits::default(), 2));
            assert_eq!(one.0, Status::Optimal, "seed {seed}");
            assert_eq!((two_status, two.score), (one.0, one.1.score), "seed {seed}");
            assert_eq!(
                check::score(&level, &two.walls),
                Ok(two.score),
                "seed {seed}"
            );
        }
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
        let (status, sol) = account(solve(
            &level,
            &Limits {
                deadline: Some(Instant::now()),
                ..Limits::default()
            },
        ));
        assert_eq!(status, Status::GaveUp);
        assert!(sol.bound >= sol.score);
        let (status, full) = account(solve(&level, &Limits::default()));
        assert_eq!(status, Status::Optimal);
        assert!(full.score <= sol.bound);
    }
}
