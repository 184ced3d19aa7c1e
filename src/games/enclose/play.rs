//! enclose.horse gestures: one click per wall to toggle, removals first so the wall counter
//! never runs out while walls are added.

use super::vision::Reading;
use crate::plan::{Action, Plan};
use crate::screen::Screen;
use std::collections::BTreeSet;

/// Walls the board shows (`W` in the reading).
pub fn placed_walls(reading: &Reading) -> BTreeSet<[usize; 2]> {
    reading
        .rows
        .iter()
        .enumerate()
        .flat_map(|(r, row)| {
            row.chars()
                .enumerate()
                .filter(|&(_, ch)| ch == 'W')
                .map(move |(c, _)| [r, c])
        })
        .collect()
}

/// Plans the clicks that turn the walls on the board into `target`.
pub fn plan(reading: &Reading, target: &BTreeSet<[usize; 2]>, screen: &Screen) -> Plan {
    let mut plan = Plan::new(screen.rect_to_screen(reading.geometry.board));
    let placed = placed_walls(reading);
    // A click is a toggle on the tile's own cell: a drag would paint every tile it crosses.
    for &[r, c] in placed.difference(target) {
        let at = screen.to_screen(reading.geometry.centre(r, c));
        plan.push(Action::Click { at }, format!("remove wall ({r},{c})"));
    }
    for &[r, c] in target.difference(&placed) {
        let at = screen.to_screen(reading.geometry.centre(r, c));
        plan.push(Action::Click { at }, format!("wall ({r},{c})"));
    }
    plan
}

/// Differences between the walls read after play and the target, one line each.
pub fn differences(placed: &BTreeSet<[usize; 2]>, target: &BTreeSet<[usize; 2]>) -> Vec<String> {
    let missing = target
        .difference(placed)
        .map(|[r, c]| format!("wall ({r},{c}) missing"));
    let extra = placed
        .difference(target)
        .map(|[r, c]| format!("wall ({r},{c}) should not be there"));
    missing.chain(extra).collect()
}
/// A hint: the first `k` walls of the optimum not on the board yet that every best pen needs
/// (`needed` proves it, or says `None` when it ran out of time), nearest the horse first. A
/// wall some other best pen does without is never offered; one whose proof ran out of time
/// only after the proven ones, and its line says so. Returns the walls the board must then
/// show (those and every wall already placed) and a line per wall.
pub fn hint(
    placed: &BTreeSet<[usize; 2]>,
    optimum: &[[usize; 2]],
    horse: [usize; 2],
    k: usize,
    mut needed: impl FnMut([usize; 2]) -> Option<bool>,
) -> (BTreeSet<[usize; 2]>, Vec<String>) {
    let mut todo: Vec<[usize; 2]> = optimum
        .iter()
        .filter(|w| !placed.contains(*w))
        .copied()
        .collect();
    todo.sort_by_key(|&[r, c]| (r.abs_diff(horse[0]) + c.abs_diff(horse[1]), r, c));
    let mut proven = Vec::new();
    let mut unsettled = Vec::new();
    for w in todo {
        if proven.len() == k {
            break;
        }
        match needed(w) {
            Some(true) => proven.push(w),
            Some(false) => {}
            None => unsettled.push(w),
        }
    }
    let left = k - proven.len();
    let mut target = placed.clone();
    let lines = proven
        .into_iter()
        .map(|w| (w, "in every best pen"))
        .chain(
            unsettled
                .into_iter()
                .take(left)
                .map(|w| (w, "not proven in every best pen (out of time)")),
        )
        .map(|([r, c], why)| {
            target.insert([r, c]);
            format!("wall ({r},{c}), {why}")
        })
        .collect();
    (target, lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hint_adds_the_optimum_walls_nearest_the_horse_first() {
        let placed: BTreeSet<[usize; 2]> = [[0, 0]].into_iter().collect();
        let optimum = [[0, 0], [5, 5], [1, 1], [3, 3]];
        let (target, lines) = hint(&placed, &optimum, [2, 2], 1, |_| Some(true));
        assert_eq!(target, [[0, 0], [1, 1]].into_iter().collect());
        assert_eq!(lines, vec!["wall (1,1), in every best pen".to_string()]);
        let (target, _) = hint(&placed, &optimum, [2, 2], 9, |_| Some(true));
        assert_eq!(target.len(), 4);
        // A wall another best pen does without is skipped; one not settled in time comes
        // after the proven ones and says so.
        let verdict = |w: [usize; 2]| match w {
            [1, 1] => Some(false),
            [3, 3] => None,
            _ => Some(true),
        };
        let (target, lines) = hint(&placed, &optimum, [2, 2], 2, verdict);
        assert_eq!(target, [[0, 0], [3, 3], [5, 5]].into_iter().collect());
        assert_eq!(
            lines,
            vec![
                "wall (5,5), in every best pen".to_string(),
                "wall (3,3), not proven in every best pen (out of time)".to_string()
            ]
        );
    }
}
