//! The gestures that draw a loop: taps clearing the path already drawn, then the loop as one
//! drag.

use super::model::Cycle;
use super::vision::Reading;
use crate::plan::{Action, Plan, FRAME_MS};
use crate::screen::Screen;

/// A tap on every cell of a path already drawn, then one drag through every cell centre of the
/// loop and back into the first cell, which is how the app closes a loop. The app takes a tap
/// (press and release in one cell) on a drawn cell as "remove this cell and its links", and
/// drops whatever is left without links; a tap on an empty cell adds nothing.
pub fn plan(reading: &Reading, cycle: &Cycle, screen: &Screen, plan: &mut Plan) {
    // Seen on the real app: with 2 ms between moves an 8×8 board (50 px cells) lost cells, a
    // 4×4 (100 px) did not. One move per 60 Hz frame keeps every cell.
    plan.min_step_ms = FRAME_MS;
    let centre = |[r, c]: [usize; 2]| screen.to_screen(reading.geometry.centre(r, c));
    for &cell in &reading.path {
        plan.push(
            Action::Click { at: centre(cell) },
            format!("clear the drawn path: tap ({}, {})", cell[0], cell[1]),
        );
    }
    let path = cycle
        .iter()
        .chain(cycle.first())
        .map(|&c| centre(c))
        .collect();
    plan.push(
        Action::Drag { path },
        format!(
            "the loop: {} cells, back into ({}, {})",
            cycle.len(),
            cycle[0][0],
            cycle[0][1]
        ),
    );
}
