//! What every game's solver shares: the limits it is given, how it can end, and the largest
//! board any of them takes. Knows no game.

use crate::error::{Error, Result};
use std::time::Instant;

/// The largest board any solver takes, in cells (tiles): 256×256, far past the apps' own
/// boards. Each solver keeps `--timeout` up to here; past it, enclose.horse's set-up alone
/// overran a 3 s timeout by a second at 500×500 and by 17 s (in 0.9 GB) at 1000×1000, Loop
/// overran its limit many times over at 500×500, and a 1000×1000 Flow board took 1.7 GB.
pub const MAX_CELLS: usize = 256 * 256;

/// Refuses a board of `rows` × `cols` past [`MAX_CELLS`] before anything is spent on it,
/// naming where it was read (`source`, `line`, `column`).
pub fn check_size(
    rows: usize,
    cols: usize,
    source: &str,
    line: usize,
    column: usize,
) -> Result<()> {
    let cells = rows.saturating_mul(cols);
    if cells <= MAX_CELLS {
        return Ok(());
    }
    Err(Error::parse(
        source,
        line,
        column,
        format!(
            "a {rows}×{cols} board ({cells} cells) is over the solvers' limit of {MAX_CELLS} \
             cells (256×256); the apps' own boards are far smaller"
        ),
    ))
}

/// What a solver's growing structures (per-depth states, kept flows, beams, across all its
/// threads) may hold by default: with the fixed part of a 256×256 board (its networks and
/// scratch, tens of MB) the process stays well under 1 GiB. Without it a random 250×250
/// enclose.horse map with a budget of 40 walls grew past 650 MB in 10 s on two threads (1.1 GB
/// on four), one full copy of the flows per search depth.
pub const MEMORY: usize = 512 << 20;

/// What a solver may spend.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Give up once this passes.
    pub deadline: Option<Instant>,
    /// Give up after this many search nodes (benches and tests; `None`: no count limit).
    pub nodes: Option<u64>,
    /// Bytes the solver's growing structures may hold ([`MEMORY`] by default). A solver that
    /// would need more searches less deep or keeps less, and an optimiser that had to leave
    /// part of its tree unsearched for it gives up with its best rather than claim a proof.
    pub memory: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            deadline: None,
            nodes: None,
            memory: MEMORY,
        }
    }
}

impl Limits {
    /// Limits with a deadline `timeout` from now and the default memory.
    pub fn within(timeout: Option<std::time::Duration>) -> Limits {
        Limits {
            deadline: timeout.map(|t| Instant::now() + t),
            ..Limits::default()
        }
    }

    pub fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() > d)
    }
}

/// How a solve ended, with the solution `S` when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome<S> {
    /// A solution that meets every rule.
    Solved(S),
    /// An optimiser's best, proven best.
    Optimal(S),
    /// Proven: no solution exists.
    Unsolvable,
    /// Out of time or search before an answer; an optimiser keeps the best it had.
    GaveUp(Option<S>),
}

impl<S> Outcome<S> {
    /// The solution to play or show: the answer, or an optimiser's best so far.
    pub fn solution(&self) -> Option<&S> {
        match self {
            Outcome::Solved(s) | Outcome::Optimal(s) | Outcome::GaveUp(Some(s)) => Some(s),
            Outcome::Unsolvable | Outcome::GaveUp(None) => None,
        }
    }

    pub fn into_solution(self) -> Option<S> {
        match self {
            Outcome::Solved(s) | Outcome::Optimal(s) | Outcome::GaveUp(Some(s)) => Some(s),
            Outcome::Unsolvable | Outcome::GaveUp(None) => None,
        }
    }

    /// The same ending with the solution turned into another type.
    pub fn map<T>(self, f: impl FnOnce(S) -> T) -> Outcome<T> {
        match self {
            Outcome::Solved(s) => Outcome::Solved(f(s)),
            Outcome::Optimal(s) => Outcome::Optimal(f(s)),
            Outcome::Unsolvable => Outcome::Unsolvable,
            Outcome::GaveUp(s) => Outcome::GaveUp(s.map(f)),
        }
    }

    pub fn status(&self) -> crate::report::Status {
        use crate::report::Status;
        match self {
            Outcome::Solved(_) => Status::Solved,
            Outcome::Optimal(_) => Status::Optimal,
            Outcome::Unsolvable => Status::Unsolvable,
            Outcome::GaveUp(_) => Status::GaveUp,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Status;

    #[test]
    fn a_board_past_the_limit_is_refused_naming_its_size_and_place() {
        assert!(check_size(256, 256, "f", 1, 1).is_ok());
        let e = check_size(300, 300, "level.txt", 2, 5)
            .unwrap_err()
            .to_string();
        assert!(e.contains("300×300") && e.contains("65536"), "{e}");
        assert!(
            e.contains("level.txt") && e.contains('2') && e.contains('5'),
            "{e}"
        );
        assert!(check_size(usize::MAX, 2, "f", 1, 1).is_err());
    }

    #[test]
    fn an_optimisers_best_so_far_is_kept_when_it_gives_up() {
        let o: Outcome<u8> = Outcome::GaveUp(Some(3));
        assert_eq!(o.solution(), Some(&3));
        assert_eq!(o.status(), Status::GaveUp);
        assert_eq!(Outcome::<u8>::Unsolvable.solution(), None);
        assert_eq!(Outcome::Optimal(2).map(|x| x * 2), Outcome::Optimal(4));
    }
}
