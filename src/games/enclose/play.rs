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
