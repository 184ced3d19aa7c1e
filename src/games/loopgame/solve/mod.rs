//! Exact Loop solver. The search itself (shape domains, propagation, depth-first search with
//! a trail) is in `engine`; this module runs it and keeps going after the first loop to prove
//! uniqueness, within a node budget (see [`Options::proof_nodes`]).
//!
//! The search scans in reading order, and how long it takes depends a lot on where it starts:
//! a wrong choice near the top may only fail a dozen rows further down, and the same puzzle
//! turned a quarter may need a tenth of the nodes, or ten times as many. So the four rotations
//! of the puzzle are searched in turns of [`SLICE_NODES`] nodes each, every search going on
//! where it paused, and the first to find a loop (or to exhaust its tree) answers. A puzzle
//! the first search settles within its first slice never starts the others.

mod engine;
mod orient;

use super::model::{Cell, Cycle, Puzzle};
use crate::solving::{Limits, Outcome};
use engine::{Solver, Stop};
use orient::Rotation;

/// The rules a loop must meet beyond the hints, and how hard to look for a second one.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Any closed loop meeting the hints; otherwise the loop must visit every cell.
    pub any_loop: bool,
    /// Search nodes spent after the first loop to prove it is the only one; `None` picks
    /// [`DEFAULT_PROOF_NODES`]. When the budget runs out, `unique` is reported false.
    pub proof_nodes: Option<u64>,
}

/// The default budget for the uniqueness proof, in search nodes after the first solution.
pub const DEFAULT_PROOF_NODES: u64 = 500;

/// A loop found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub cycle: Cycle,
    /// False for a hint's stretch (`play --moves`): the cells are an open path along the
    /// loop, not the whole loop.
    pub closed: bool,
    /// True only when the search proved no other loop exists (false when a second loop was
    /// found or the proof ran out of budget or time).
    pub unique: bool,
}

/// Search statistics, for the bench and the notes: nodes summed over every rotation that
/// took a turn.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stats {
    pub nodes: u64,
    /// Nodes until the first loop (all of them when none was found).
    pub nodes_to_first: u64,
}

pub fn solve(p: &Puzzle, opts: &Options, limits: &Limits) -> Outcome<Found> {
    solve_with_stats(p, opts, limits).0
}

/// Nodes one rotation searches before the next one takes its turn.
pub const SLICE_NODES: u64 = 256;

/// How many rotations take turns (all four).
const ROTATIONS: usize = 4;

pub fn solve_with_stats(p: &Puzzle, opts: &Options, limits: &Limits) -> (Outcome<Found>, Stats) {
    let n = p.cells();
    // The grid is bipartite: a loop alternates colours, so one through every cell needs an
    // even number of cells; and no loop fits in a single row or column.
    if p.cols < 2 || p.rows < 2 || (!opts.any_loop && !n.is_multiple_of(2)) {
        return (Outcome::Unsolvable, Stats::default());
    }
    let mut runs: Vec<(Rotation, Solver)> = Vec::new();
    let mut turn = 0;
    let (winner, mut stop) = loop {
        if turn == runs.len() {
            let rotation = Rotation(turn as u8);
            runs.push((rotation, Solver::new(&rotation.puzzle(p), opts, limits)));
        }
        let stop = runs[turn].1.step(SLICE_NODES);
        if stop.is_some() || !runs[turn].1.found.is_empty() {
            break (turn, stop);
        }
        turn = (turn + 1) % ROTATIONS;
    };
    let others: u64 = (runs.iter().enumerate())
        .filter(|&(i, _)| i != winner)
        .map(|(_, (_, s))| s.nodes)
        .sum();
    let (rotation, s) = &mut runs[winner];
    if stop.is_none() {
        // A loop was found: only this search goes on, to prove it is the only one.
        stop = s.step(u64::MAX);
    }
    let stats = Stats {
        nodes: others + s.nodes,
        nodes_to_first: others + s.nodes_to_first.unwrap_or(s.nodes),
    };
    let unique = s.found.len() == 1 && stop == Some(Stop::Done);
    let outcome = match s.found.first() {
        Some(cycle) => Outcome::Solved(Found {
            cycle: canonical(cycle.iter().map(|&c| rotation.back(c, p)).collect()),
            closed: true,
            unique,
        }),
        None if stop == Some(Stop::Done) => Outcome::Unsolvable,
        None => Outcome::GaveUp(None),
    };
    (outcome, stats)
}

/// The loop from its first cell in reading order, first step to the right (that cell has
/// no loop cell above it or to its left), whichever rotation found it.
fn canonical(mut cycle: Cycle) -> Cycle {
    let first = (0..cycle.len()).min_by_key(|&i| cycle[i]).unwrap_or(0);
    cycle.rotate_left(first);
    let right: Cell = [cycle[0][0], cycle[0][1] + 1];
    if cycle.get(1) != Some(&right) {
        cycle[1..].reverse();
    }
    cycle
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::loopgame::check::check;
    use crate::games::loopgame::format::parse;
    use std::time::Instant;

    fn solved(text: &str, any_loop: bool) -> (Cycle, bool) {
        let p = parse(text, "test").unwrap();
        let opts = Options {
            any_loop,
            ..Default::default()
        };
        match solve(&p, &opts, &Limits::default()) {
            Outcome::Solved(Found { cycle, unique, .. }) => {
                check(&p, &cycle, any_loop).expect("the answer passes the checker");
                (cycle, unique)
            }
            other => panic!("expected a loop, got {other:?}"),
        }
    }

    #[test]
    fn canonical_starts_top_left_going_right() {
        let ring = vec![[1, 1], [1, 0], [0, 0], [0, 1], [0, 2], [1, 2]];
        assert_eq!(
            canonical(ring),
            vec![[0, 0], [0, 1], [0, 2], [1, 2], [1, 1], [1, 0]]
        );
    }

    /// Each rotation's own search finds a loop that, turned back, answers the puzzle.
    #[test]
    fn every_rotation_answers_after_turning_back() {
        use crate::games::loopgame::generate::{generate, Hints};
        let g = generate(10, 8, &Hints::Fraction(0.3), 5).unwrap();
        for turns in 0..4 {
            let rotation = Rotation(turns);
            let mut s = Solver::new(
                &rotation.puzzle(&g.puzzle),
                &Options::default(),
                &Limits::default(),
            );
            assert!(s.step(u64::MAX).is_some());
            let cycle = canonical(
                s.found[0]
                    .iter()
                    .map(|&c| rotation.back(c, &g.puzzle))
                    .collect(),
            );
            check(&g.puzzle, &cycle, false).unwrap_or_else(|e| panic!("{turns} turns: {e}"));
            assert_eq!(cycle[0], [0, 0]);
        }
    }

    /// Pausing after every node and going on gives the very same search.
    #[test]
    fn a_paused_search_goes_on_where_it_stopped() {
        use crate::games::loopgame::generate::{generate, Hints};
        let g = generate(10, 10, &Hints::Fraction(0.2), 2).unwrap();
        let opts = Options::default();
        let mut whole = Solver::new(&g.puzzle, &opts, &Limits::default());
        let stop = whole.step(u64::MAX);
        let mut paused = Solver::new(&g.puzzle, &opts, &Limits::default());
        let mut pauses = 0;
        let stop_paused = loop {
            if let Some(stop) = paused.step(1) {
                break stop;
            }
            pauses += 1;
        };
        assert_eq!(Some(stop_paused), stop);
        assert_eq!(paused.nodes, whole.nodes);
        assert_eq!(paused.found, whole.found);
        assert!(pauses > 1, "{pauses} pauses");
    }

    #[test]
    fn two_by_two_has_one_loop() {
        let (cycle, unique) = solved("..\n..\n", false);
        assert_eq!(cycle.len(), 4);
        assert!(unique);
    }

    #[test]
    fn hints_pick_the_one_perfect_loop() {
        // On 2×4 only the ring visits every cell; a 4 in the middle of row 0 agrees with it.
        let (cycle, unique) = solved("....\n....\n", false);
        assert_eq!(cycle.len(), 8);
        assert!(unique);
        // 4×4 has six perfect loops; a 0 is impossible near a corner (corners always turn).
        let p = parse("0...\n....\n....\n....\n", "t").unwrap();
        assert_eq!(
            solve(&p, &Options::default(), &Limits::default()),
            Outcome::Unsolvable
        );
    }

    #[test]
    fn four_by_four_without_hints_is_not_unique() {
        let (cycle, unique) = solved("....\n....\n....\n....\n", false);
        assert_eq!(cycle.len(), 16);
        assert!(!unique);
    }

    #[test]
    fn any_loop_may_skip_cells() {
        // Only corners can meet a 4 in a corner block of 4 cells: the 2×2 square there.
        // A perfect loop of 3×3 cannot exist (odd), but the square is a valid any-loop answer.
        let text = "4..\n...\n...\n";
        let (cycle, unique) = solved(text, true);
        assert_eq!(cycle.len(), 4);
        let mut cells = cycle.clone();
        cells.sort();
        assert_eq!(cells, vec![[0, 0], [0, 1], [1, 0], [1, 1]]);
        // Four turns in the corner block close that square, and one loop leaves no room for more.
        assert!(unique);
        let p = parse(text, "t").unwrap();
        assert_eq!(
            solve(&p, &Options::default(), &Limits::default()),
            Outcome::Unsolvable
        );
    }

    #[test]
    fn odd_grids_have_no_perfect_loop() {
        let p = parse("loop 5x5\n.....\n.....\n.....\n.....\n.....\n", "t").unwrap();
        assert_eq!(
            solve(&p, &Options::default(), &Limits::default()),
            Outcome::Unsolvable
        );
    }

    #[test]
    fn contradictory_hints_are_unsolvable() {
        // Two neighbouring corner blocks of a 2×3 ring: corners turn, middles run straight.
        assert_eq!(
            solve(
                &parse("...\n.5.\n", "t").unwrap(),
                &Options::default(),
                &Limits::default()
            ),
            Outcome::Unsolvable
        );
        let any = Options {
            any_loop: true,
            ..Default::default()
        };
        // In any-loop mode the 2×2 squares give a 4 in the middle: 4 turns, never 5.
        assert_eq!(
            solve(&parse("...\n.5.\n", "t").unwrap(), &any, &Limits::default()),
            Outcome::Unsolvable
        );
        assert!(matches!(
            solve(&parse("...\n.4.\n", "t").unwrap(), &any, &Limits::default()),
            Outcome::Solved(_)
        ));
    }

    #[test]
    fn past_deadline_gives_up() {
        let p = crate::games::loopgame::model::Puzzle::empty(40, 40);
        let limits = Limits {
            deadline: Some(Instant::now()),
            ..Default::default()
        };
        assert_eq!(
            solve(&p, &Options::default(), &limits),
            Outcome::GaveUp(None)
        );
    }

    /// Every real daily with both hint sets: a loop through every cell meeting the hints.
    #[test]
    fn solves_every_daily_with_both_hint_sets() {
        use crate::games::loopgame::format::{parse_record, HintSet};
        let Some(path) = crate::corpus::path("loop/daily.jsonl") else {
            return;
        };
        let text = std::fs::read_to_string(path).unwrap();
        let mut solved = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            for set in [HintSet::Control, HintSet::Dense] {
                let p = parse_record(line, "daily.jsonl", set).unwrap();
                match solve(&p, &Options::default(), &Limits::default()) {
                    Outcome::Solved(Found { cycle, .. }) => {
                        check(&p, &cycle, false).unwrap_or_else(|e| panic!("{line}: {e}"));
                        solved += 1;
                    }
                    other => panic!("{line} {set:?}: {other:?}"),
                }
            }
        }
        assert!(solved >= 1700, "only {solved} dailies solved");
    }

    /// The app's own loops pass the checker with every hint of both sets.
    #[test]
    fn corpus_solutions_pass_the_checker() {
        use crate::games::loopgame::format::{parse_record, HintSet};
        let Some(path) = crate::corpus::path("loop/daily.jsonl") else {
            return;
        };
        let text = std::fs::read_to_string(path).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let cycle: Cycle = serde_json::from_value(v["solution"].clone()).unwrap();
            for set in [HintSet::Control, HintSet::Dense] {
                let p = parse_record(line, "daily.jsonl", set).unwrap();
                check(&p, &cycle, false).unwrap_or_else(|e| panic!("{line}: {e}"));
            }
            // A cycle with one step broken must fail.
            let mut broken = cycle.clone();
            broken.swap(1, 2);
            let p = parse_record(line, "daily.jsonl", HintSet::Control).unwrap();
            assert!(check(&p, &broken, false).is_err());
        }
    }

    /// Any-loop mode on real dailies: a loop meeting every hint, visiting cells or not.
    #[test]
    fn any_loop_answers_dailies() {
        use crate::games::loopgame::format::{parse_record, HintSet};
        let Some(path) = crate::corpus::path("loop/daily.jsonl") else {
            return;
        };
        let text = std::fs::read_to_string(path).unwrap();
        let opts = Options {
            any_loop: true,
            ..Default::default()
        };
        let limits = Limits::within(Some(std::time::Duration::from_secs(20)));
        let mut shorter = 0;
        for line in text.lines().filter(|l| l.contains("\"size\":8")).take(40) {
            for set in [HintSet::Control, HintSet::Dense] {
                let p = parse_record(line, "daily.jsonl", set).unwrap();
                match solve(&p, &opts, &limits) {
                    Outcome::Solved(Found { cycle, .. }) => {
                        check(&p, &cycle, true).unwrap_or_else(|e| panic!("{line}: {e}"));
                        shorter += usize::from(cycle.len() < p.cells());
                    }
                    other => panic!("{line} {set:?}: {other:?}"),
                }
            }
        }
        // The hints rarely force every cell, so some answers leave cells out.
        assert!(shorter > 0);
    }
}
