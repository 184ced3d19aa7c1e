//! First answers for the quarrel round, from single-pen searches: one animal's best pen within
//! part of the budget, the other animal kept out of it, then the other animal's best pen in
//! what is left, the first pen's walls standing (the second pen may lean on them, which is
//! where a pair of pens saves walls). Each animal goes first in turn, with budgets from the
//! whole down; every single-pen search is a quick one (its price sweep and a few nodes).
//! A quick second pen is often far from the best (on a big map, the pen its relaxation
//! draws), so the pairs then get a full search of their second pen, for a moment each: a
//! small first pen followed by a big second one is often the optimum.
//!
//! The quarrel search proves optimality on its own; it needs a good answer early to prune,
//! and its own relaxation rarely offers one on big maps: its pens merge the two animals.

use super::one_pen;
use crate::games::enclose::check;
use crate::games::enclose::model::{Level, Tile, Variant};
use crate::solving::Limits;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a pair's second look at its second pen may take, and all of them together: on the
/// slowest generated levels the best pair comes within the whole look's time, and a longer
/// look keeps a core from the exact search for little (measured in `docs/enclose-solver.md`).
const REFINE_TIME: Duration = Duration::from_millis(60);
const REFINE_ALL: Duration = Duration::from_millis(200);

/// The best pair of pens found (by `deadline` if any, and until `stop` if any is set), as
/// (score, new walls as grid indices).
/// `found` hears of each better pair as soon as it is drawn, so that a search running beside
/// this one can prune with it at once.
pub(super) fn pens_one_by_one(
    level: &Level,
    limits: &Limits,
    stop: Option<&AtomicBool>,
    found: &mut dyn FnMut(i32, &[usize]),
) -> Option<(i32, Vec<usize>)> {
    let deadline = limits.deadline;
    let mut told = i32::MIN;
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let mut tell = |score: i32, walls: &[usize]| {
        if score > told {
            told = score;
            found(score, walls);
        }
    };
    let (horse, unicorn) = (level.horse(), level.unicorn()?);
    let k = level.budget.saturating_sub(level.preplaced_walls());
    let mut pairs: Vec<Pair> = Vec::new();
    'orders: for (first, second) in [(horse, unicorn), (unicorn, horse)] {
        // The biggest first pens first: they are the likeliest to pay. A pen found within k1
        // walls that needs only j is the one any budget from j to k1 would find: next, j - 1.
        let mut k1 = k;
        loop {
            if stopped() || deadline.is_some_and(|dl| Instant::now() >= dl) {
                break 'orders;
            }
            let Some(walls) = first_pen(level, first, second, k1, limits, stop) else {
                break;
            };
            let used = walls.len() as u32;
            let (all, more_score, more_bound) =
                second_pen(level, first, second, &walls, limits, stop, true);
            if let Some(score) = score(level, &all) {
                tell(score, &all);
                let room = more_bound - more_score;
                pairs.push(Pair {
                    score,
                    hope: score + room.max(0),
                    first,
                    second,
                    walls,
                    all,
                });
            }
            let Some(next) = used.min(k1).checked_sub(1) else {
                break;
            };
            k1 = next;
        }
    }
    // The quick second pens are often poor on big maps (a pen drawn by its relaxation alone):
    // each pair whose second pen's bound leaves room to beat the best gets a full search for
    // it, for a moment. Small first pens go first: a small pen for one animal and the rest for
    // the other is the usual optimum on big maps; then those with the most room.
    pairs.sort_by_key(|p| (p.walls.len(), std::cmp::Reverse(p.hope)));
    let mut best = pairs.iter().map(|p| p.score).max();
    let start = Instant::now();
    for p in pairs.iter_mut() {
        if stopped() || start.elapsed() >= REFINE_ALL {
            break;
        }
        if best.is_some_and(|b| p.hope <= b) {
            continue;
        }
        let now = Instant::now();
        let dl = deadline.map_or(now + REFINE_TIME, |d| d.min(now + REFINE_TIME));
        let refine = Limits {
            deadline: Some(dl),
            ..*limits
        };
        let (all, _, _) = second_pen(level, p.first, p.second, &p.walls, &refine, stop, false);
        if let Some(score) = score(level, &all) {
            if score > p.score {
                tell(score, &all);
                p.score = score;
                p.all = all;
                best = best.max(Some(score));
            }
        }
    }
    pairs
        .into_iter()
        .max_by_key(|p| p.score)
        .map(|p| (p.score, p.all))
}

/// A pair of pens drawn one by one.
struct Pair {
    score: i32,
    /// The score if the second pen reached its search's bound.
    hope: i32,
    first: usize,
    second: usize,
    /// The first pen's new walls, then all new walls (grid indices).
    walls: Vec<usize>,
    all: Vec<usize>,
}

/// The game's score of new walls `walls` (grid indices), if they are legal.
fn score(level: &Level, walls: &[usize]) -> Option<i32> {
    let rc: Vec<[usize; 2]> = walls
        .iter()
        .map(|&g| [g / level.cols, g % level.cols])
        .collect();
    check::score(level, &rc).ok()
}

/// The new walls of `first`'s best pen found within `k1` new walls with `second` outside it.
fn first_pen(
    level: &Level,
    first: usize,
    second: usize,
    k1: u32,
    limits: &Limits,
    stop: Option<&AtomicBool>,
) -> Option<Vec<usize>> {
    let mut one = level.clone();
    one.variant = Variant::Main;
    one.tiles[first] = Tile::Horse;
    // A bee is the one tile a single-pen search can be told to keep out.
    one.tiles[second] = Tile::Bees;
    one.budget = level.preplaced_walls() + k1;
    let sol =
        one_pen::solve_keeping_out(&one, limits, stop, Some(second), true, 1).into_solution()?;
    if sol.walls.is_empty() && sol.score == 0 {
        return None;
    }
    Some(sol.walls.iter().map(|&[r, c]| r * level.cols + c).collect())
}

/// `walls` and the new walls of `second`'s best pen found with the budget left once `walls`
/// stand, with that pen's score and the search's bound on it (`quick`: see
/// [`one_pen::solve_keeping_out`]).
fn second_pen(
    level: &Level,
    first: usize,
    second: usize,
    walls: &[usize],
    limits: &Limits,
    stop: Option<&AtomicBool>,
    quick: bool,
) -> (Vec<usize>, i32, i32) {
    let mut two = level.clone();
    two.variant = Variant::Main;
    for &g in walls {
        two.tiles[g] = Tile::Wall;
    }
    two.tiles[second] = Tile::Horse;
    // Walled in by now; as water it cannot count as a second horse.
    two.tiles[first] = Tile::Water;
    // Unsolvable: no walls, no score, no room.
    let sol = one_pen::solve_keeping_out(&two, limits, stop, None, quick, 1)
        .into_solution()
        .unwrap_or_default();
    let mut all = walls.to_vec();
    all.extend(sol.walls.iter().map(|&[r, c]| r * level.cols + c));
    (all, sol.score, sol.bound)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::enclose::format::parse;
    use crate::games::enclose::generate::{generate, Params};
    use crate::games::enclose::solve::account;
    use crate::report::Status;

    #[test]
    fn the_second_pen_leans_on_the_first() {
        // Apart, each pen needs two walls (four in all); the shared one makes three do.
        let text = "budget: 3\nvariant: quarrel\n~~~~~~~~~\n~~~~~~~~~\n..H...U..\n~~~~~~~~~\n";
        let level = parse(text, "t", None).unwrap();
        let mut heard = Vec::new();
        let (score, walls) = pens_one_by_one(&level, &Limits::default(), None, &mut |s, w| {
            heard.push((s, w.len()))
        })
        .unwrap();
        // Each pair told was better than the one before, the last scores the answer's score.
        assert!(heard.windows(2).all(|w| w[0].0 < w[1].0), "{heard:?}");
        assert_eq!(heard.last().map(|h| h.0), Some(score));
        assert_eq!((score, walls.len()), (6, 3));
    }

    #[test]
    fn pairs_are_legal_and_never_beat_the_optimum() {
        let mut optimal = 0;
        for seed in 0..12 {
            let params = Params {
                variant: Variant::Quarrel,
                rows: 8,
                cols: 9,
                ..Params::for_seed(seed)
            };
            let level = generate(seed, &params);
            let (status, exact) = account(super::super::solve(&level, &Limits::default()));
            assert_eq!(status, Status::Optimal, "seed {seed}");
            if let Some((score, walls)) =
                pens_one_by_one(&level, &Limits::default(), None, &mut |_, _| {})
            {
                let rc: Vec<[usize; 2]> = walls
                    .iter()
                    .map(|&g| [g / level.cols, g % level.cols])
                    .collect();
                assert_eq!(check::score(&level, &rc), Ok(score), "seed {seed}");
                assert!(score <= exact.score, "seed {seed}");
                optimal += usize::from(score == exact.score);
            }
        }
        // A construction this simple still finds most small optima.
        assert!(optimal >= 6, "{optimal} of 12");
    }
}
