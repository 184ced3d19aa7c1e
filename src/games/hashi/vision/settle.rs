//! Numbers the picture leaves between a few readings, settled by the puzzle: the Bridges app
//! draws a number of 10 or more in a smaller face, and at 16–17 px tiles its second digit (a
//! 0 three pixels wide) is as like a 6, 8 or 9 as a 0. The app's puzzles have a solution, so
//! of the numbers such an island may be, the one whose puzzle alone has a solution (at some
//! bridge limit the picture allows) is the island's; when none or more than one has, or the
//! solver cannot tell in time, the picture stays refused.

use super::digits::Undecided;
use crate::error::{Error, Result};
use crate::games::hashi::model::Puzzle;
use crate::games::hashi::solve;
use crate::solving::{Limits, Outcome};
use std::time::Duration;

/// The most readings tried: the product of every undecided island's numbers.
const MOST_READINGS: usize = 16;
/// How long one puzzle at one bridge limit may be searched.
const SOLVE_TIME: Duration = Duration::from_secs(1);
/// The app's highest bridge limit ("m" of its game IDs).
const MOST_PER_PAIR: u8 = 4;

/// Sets each undecided island's number to the one the puzzle settles, or refuses with the
/// first island's refusal. `least_limit` is the bridge limit the picture already proves.
pub(super) fn settle(
    puzzle: &mut Puzzle,
    undecided: Vec<Undecided>,
    least_limit: u8,
) -> Result<()> {
    let Some(first) = undecided.first() else {
        return Ok(());
    };
    let readings: usize = undecided.iter().map(|u| u.may_be.len()).product();
    if readings > MOST_READINGS || undecided.iter().any(|u| u.may_be.is_empty()) {
        return Err(first.refusal());
    }
    let mut solvable = Vec::new();
    for k in 0..readings {
        let mut p = puzzle.clone();
        let mut rest = k;
        for u in &undecided {
            p.islands[u.island].target = u.may_be[rest % u.may_be.len()];
            rest /= u.may_be.len();
        }
        match has_solution(&p, least_limit) {
            Some(true) => solvable.push(p),
            Some(false) => {}
            // Not known in time: this reading cannot be ruled out.
            None => return Err(first.refusal()),
        }
    }
    if solvable.len() != 1 {
        return Err(Error::vision(
            Some(first.region),
            format!(
                "{} ({} of the {readings} readings it may be make a puzzle with a solution)",
                first.why,
                solvable.len()
            ),
        ));
    }
    *puzzle = solvable.remove(0);
    Ok(())
}

/// Whether the puzzle has a solution at some bridge limit from the least the picture proves
/// (and its largest number needs) to the app's highest; `None` when the solver gave up.
fn has_solution(p: &Puzzle, least_limit: u8) -> Option<bool> {
    let most_target = p.islands.iter().map(|i| i.target).max().unwrap_or(0);
    let from = least_limit.max(most_target.div_ceil(4)).max(1);
    for limit in from..=MOST_PER_PAIR {
        let q = Puzzle {
            max_bridges: limit,
            ..p.clone()
        };
        match solve::solve(&q, &Limits::within(Some(SOLVE_TIME))) {
            Outcome::Solved(_) | Outcome::Optimal(_) => return Some(true),
            Outcome::Unsolvable => {}
            Outcome::GaveUp(_) => return None,
        }
    }
    Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Region;
    use crate::games::hashi::format::parse;

    fn undecided(island: usize, may_be: Vec<u8>) -> Vec<Undecided> {
        vec![Undecided {
            island,
            may_be,
            region: Region {
                x: 0,
                y: 0,
                w: 1,
                h: 1,
            },
            why: "island at row 0 col 0: number uncertain".into(),
        }]
    }

    /// Two islands side by side: 1 and 1 has a solution, 1 and 2 has none at any limit.
    #[test]
    fn the_one_reading_with_a_solution_is_kept_and_none_refuses() {
        let mut p = parse("2x1m2:11", "test").unwrap();
        settle(&mut p, undecided(1, vec![2, 1]), 1).unwrap();
        assert_eq!(p.islands[1].target, 1);
        // No reading with a solution.
        let mut p = parse("2x1m2:11", "test").unwrap();
        let e = settle(&mut p, undecided(1, vec![5, 9]), 1).unwrap_err();
        assert!(e.to_string().contains("0 of the 2 readings"), "{e}");
        // Whatever the order: 2 against 2 has a solution, 3 against 2 none.
        let mut p = parse("2x1m2:22", "test").unwrap();
        assert!(settle(&mut p, undecided(0, vec![2, 3]), 1).is_ok());
        assert_eq!(p.islands[0].target, 2);
    }
}
