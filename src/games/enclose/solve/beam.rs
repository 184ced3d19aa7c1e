//! A first incumbent for [`super::one_pen`] on big islands: a beam search over the same moves
//! as the exact search (a cut tile joins the pen, or takes a wall), each state judged by its
//! furthest minimum cut, with only the cheap unit flows and no bounds.
//!
//! Why: on open maps the bounds are weak (a big pen costs many walls, and pricing walls
//! linearly cannot tell that it does not fit), so the exact search prunes mostly against the
//! incumbent, and its depth-first order finds the best pens late. States are ranked by their
//! pen's score, then by walls left: a rank that credits walls left at the root relaxation's
//! price keeps walls in hand and finds much worse pens.

use super::maxflow::island::{Net, Residual, DEAD, IN_X};
use crate::rng::Rng;

/// Keys of states met kept at most, about 32 MB.
const SEEN_MAX: usize = 1 << 20;

/// One state: the flow, the flags (X, walls) and the walls placed.
#[derive(Clone)]
struct State {
    cap: Vec<i32>,
    flags: Vec<u8>,
    walls: Vec<u32>,
    /// The flow value: walls still needed.
    lambda: usize,
}

/// What a state's flow tells: the pen (its cells), its cut, and whether it is one piece.
struct Pen {
    cells: Vec<u32>,
    cut: Vec<u32>,
    value: i32,
    connected: bool,
}

pub(super) struct Beam<'a> {
    net: &'a Net,
    /// Walls allowed, cost per wall (costly walls), the cells forced in at the start.
    pub(super) k: usize,
    pub(super) cost: i32,
    pub(super) seeds: Vec<usize>,
    res: Residual,
    mark: Vec<u32>,
    mark_stamp: u32,
    key_in: Vec<u64>,
    key_wall: Vec<u64>,
    /// The search's time limit: a beam over a large map runs for seconds.
    pub(super) deadline: Option<std::time::Instant>,
}

impl<'a> Beam<'a> {
    pub(super) fn new(net: &'a Net, k: usize, cost: i32, seeds: Vec<usize>) -> Beam<'a> {
        let mut r = Rng::new(0x6ea3);
        Beam {
            net,
            k,
            cost,
            seeds,
            res: Residual {
                vis: vec![0; 2 * net.m + 1],
                par: vec![0; 2 * net.m + 1],
                stamp: 0,
                queue: Vec::new(),
            },
            mark: vec![0; net.m],
            mark_stamp: 0,
            deadline: None,
            key_in: (0..net.m).map(|_| r.next_u64()).collect(),
            key_wall: (0..net.m).map(|_| r.next_u64()).collect(),
        }
    }

    /// Augments `s` to a maximum flow; `None` once it needs more walls than are left.
    fn settle(&mut self, s: &mut State) -> Option<()> {
        let left = self.k.checked_sub(s.walls.len())?;
        while self.net.augment(&mut s.cap, &s.flags, &mut self.res) {
            s.lambda += 1;
            if s.lambda > left {
                return None;
            }
        }
        Some(())
    }

    /// The pen of a settled state: cells that cannot reach T, joined to a seed.
    fn pen(&mut self, s: &State) -> Pen {
        let net = self.net;
        self.mark_stamp += 1;
        let ms = self.mark_stamp;
        let (vis, stamp) = (&self.res.vis, self.res.stamp);
        let mut cells = Vec::new();
        let mut cut = Vec::new();
        let mut connected = true;
        for (i, &src) in self.seeds.iter().enumerate() {
            if self.mark[src] == ms {
                continue;
            }
            connected &= i == 0;
            self.mark[src] = ms;
            let first = cells.len();
            cells.push(src as u32);
            let mut qi = first;
            while qi < cells.len() {
                let c = cells[qi] as usize;
                qi += 1;
                for &e in net.nbrs(c) {
                    let e = e as usize;
                    if self.mark[e] == ms || s.flags[e] & DEAD != 0 {
                        continue;
                    }
                    self.mark[e] = ms;
                    if vis[2 * e] != stamp && vis[2 * e + 1] != stamp {
                        cells.push(e as u32);
                    } else {
                        cut.push(e as u32);
                    }
                }
            }
        }
        let value = cells.iter().map(|&c| net.value[c as usize]).sum();
        Pen {
            cells,
            cut,
            value,
            connected,
        }
    }

    /// Applies a move to a copy of `s` and settles it: the child and its pen, `None` when it
    /// needs too many walls.
    fn child(&mut self, s: &State, v: usize, wall: bool, into: &mut State) -> Option<Pen> {
        into.cap.copy_from_slice(&s.cap);
        into.flags.copy_from_slice(&s.flags);
        into.walls.clone_from(&s.walls);
        into.lambda = s.lambda;
        if wall {
            into.lambda -= 1;
            self.net.cancel_through(&mut into.cap, &into.flags, v);
            into.flags[v] |= DEAD;
            into.walls.push(v as u32);
        } else {
            into.flags[v] |= IN_X;
        }
        self.settle(into)?;
        Some(self.pen(into))
    }

    /// The widest beam whose states fit in `memory` bytes: a run holds the beam, the next
    /// one and a scratch state, each a copy of the flow and the flags.
    pub(super) fn width_within(net: &Net, memory: usize) -> usize {
        let state = net.cap0.len() * 4 + net.m;
        (memory / (2 * state.max(1))).saturating_sub(1).max(1)
    }

    /// Runs the beam of `width` states from the given maximum flow (of value `lambda`) and
    /// flags. Returns the best pen found as (score, walls).
    pub(super) fn run(
        &mut self,
        cap: &[i32],
        flags: &[u8],
        lambda: usize,
        width: usize,
    ) -> Option<(i32, Vec<u32>)> {
        let mut best: Option<(i32, Vec<u32>)> = None;
        let mut root = State {
            cap: cap.to_vec(),
            flags: flags.to_vec(),
            walls: Vec::new(),
            lambda,
        };
        self.settle(&mut root)?;
        let cut = self.pen(&root).cut;
        let mut beam = vec![(root, cut)];
        let mut scratch = beam[0].0.clone();
        let mut seen = std::collections::HashSet::new();
        while !beam.is_empty() {
            // (worth, parent, tile, wall) of every new child, its pen offered on the way.
            let mut next: Vec<((i32, usize), usize, u32, bool)> = Vec::new();
            for (i, (s, cut)) in beam.iter().enumerate() {
                if self
                    .deadline
                    .is_some_and(|d| std::time::Instant::now() >= d)
                {
                    return best;
                }
                for &v in cut {
                    for wall in [false, true] {
                        let Some(p) = self.child(s, v as usize, wall, &mut scratch) else {
                            continue;
                        };
                        let used = scratch.walls.len() + p.cut.len();
                        debug_assert_eq!(p.cut.len(), scratch.lambda);
                        let score = p.value - self.cost * used as i32;
                        if p.connected
                            && used <= self.k
                            && best.as_ref().is_none_or(|b| score > b.0)
                        {
                            let mut w = scratch.walls.clone();
                            w.extend_from_slice(&p.cut);
                            best = Some((score, w));
                        }
                        let key = p
                            .cells
                            .iter()
                            .map(|&x| self.key_in[x as usize])
                            .chain(scratch.walls.iter().map(|&x| self.key_wall[x as usize]))
                            .fold(0u64, |a, b| a ^ b);
                        // States met once are not met again; past this many keys the
                        // oldest matter least, and the set would outgrow the beam.
                        if seen.len() >= SEEN_MAX {
                            seen.clear();
                        }
                        if seen.insert(key) {
                            let worth = (score, self.k.saturating_sub(used));
                            next.push((worth, i, v, wall));
                        }
                    }
                }
            }
            next.sort_by_key(|e| std::cmp::Reverse(e.0));
            next.truncate(width);
            let mut kept = Vec::with_capacity(next.len());
            for &(_, i, v, wall) in &next {
                let mut c = scratch.clone();
                let p = self
                    .child(&beam[i].0, v as usize, wall, &mut c)
                    .expect("a child that settled before");
                kept.push((c, p.cut));
            }
            beam = kept;
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::enclose::check;
    use crate::games::enclose::generate::{generate, Params};
    use crate::games::enclose::model::{Tile, Variant, WALL_COST};

    /// On generated levels of every single-pen variant, the beam's pen is what the game's
    /// flood fill scores its walls at, within the budget, and no better than the optimum.
    #[test]
    fn beam_pens_are_legal_and_scored_right() {
        for seed in 0..40u64 {
            for variant in [Variant::Main, Variant::Lovebirds, Variant::CostlyWalls] {
                let params = Params {
                    variant,
                    ..Params::for_seed(seed)
                };
                let level = generate(seed, &params);
                if level.rows * level.cols > 300 {
                    continue;
                }
                let horse = level.horse();
                let (island, _) = check::flood(&level, &vec![false; level.tiles.len()], horse);
                let mut cells: Vec<usize> = island
                    .into_iter()
                    .filter(|&g| level.tiles[g] != Tile::Wall)
                    .collect();
                cells.sort_unstable();
                let net = Net::new(&level, &cells);
                let cell = |g: usize| cells.binary_search(&g).ok();
                let mut seeds = vec![cell(horse).unwrap()];
                if variant == Variant::Lovebirds {
                    match level.unicorn().and_then(cell) {
                        Some(u) => seeds.push(u),
                        None => continue,
                    }
                }
                let mut flags = vec![0u8; net.m];
                for &s in &seeds {
                    flags[s] |= IN_X;
                }
                let k = level.budget.saturating_sub(level.preplaced_walls()) as usize;
                let cost = if variant == Variant::CostlyWalls {
                    WALL_COST
                } else {
                    0
                };
                let mut beam = Beam::new(&net, k, cost, seeds);
                let Some((score, walls)) = beam.run(&net.cap0, &flags, 0, 4) else {
                    continue;
                };
                assert!(walls.len() <= k, "seed {seed} {variant}");
                let walls: Vec<[usize; 2]> = walls
                    .iter()
                    .map(|&c| {
                        let g = net.grid[c as usize];
                        [g / level.cols, g % level.cols]
                    })
                    .collect();
                assert_eq!(
                    check::score(&level, &walls),
                    Ok(score),
                    "seed {seed} {variant}"
                );
                let (_, best) = crate::games::enclose::solve::account(super::super::solve(
                    &level,
                    &crate::solving::Limits::default(),
                ));
                assert!(score <= best.score, "seed {seed} {variant}");
            }
        }
    }
}
