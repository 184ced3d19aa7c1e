//! The end of `play`: carry out a prepared plan, then read the board again and compare it with
//! the solution. Shared by the command line and the benchmark.

use crate::error::Result;
use crate::games::Prepared;
use crate::input::Mouse;
use crate::plan::{execute, Pacing};
use crate::screen::Screen;
use std::time::Duration;

/// What the second look at the board found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verification {
    Skipped,
    Matches,
    /// One line per difference from the solution.
    Differs(Vec<String>),
}

/// Apps redraw after input asynchronously: the board is read up to this many times, this far
/// apart, and the first reading that matches wins.
const VERIFY_TRIES: usize = 6;
const VERIFY_GAP: Duration = Duration::from_millis(200);

/// Plays `prepared` with `mouse` and, given a way to capture the board again, verifies it.
pub fn play_and_verify(
    prepared: &dyn Prepared,
    mouse: &mut dyn Mouse,
    pacing: Pacing,
    recapture: Option<&dyn Fn() -> Result<Screen>>,
) -> Result<Verification> {
    execute(prepared.plan(), mouse, pacing)?;
    let Some(recapture) = recapture else {
        return Ok(Verification::Skipped);
    };
    let mut differences = Vec::new();
    for _ in 0..VERIFY_TRIES {
        std::thread::sleep(VERIFY_GAP);
        differences = prepared.verify(&recapture()?)?;
        if differences.is_empty() {
            return Ok(Verification::Matches);
        }
    }
    Ok(Verification::Differs(differences))
}
