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
    prepared: &Prepared,
    mouse: &mut dyn Mouse,
    pacing: Pacing,
    recapture: Option<&dyn Fn() -> Result<Screen>>,
) -> Result<Verification> {
    execute(&prepared.plan, mouse, pacing)?;
    let Some(recapture) = recapture else {
        return Ok(Verification::Skipped);
    };
    let mut last = Ok(Vec::new());
    for _ in 0..VERIFY_TRIES {
        std::thread::sleep(VERIFY_GAP);
        // A board that cannot be read right now may be mid-animation (Bridges flashes the whole
        // canvas when a puzzle is completed): look again, and report the error only if it stays.
        last = recapture().and_then(|screen| prepared.verify(&screen));
        if last.as_ref().is_ok_and(Vec::is_empty) {
            return Ok(Verification::Matches);
        }
    }
    last.map(Verification::Differs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::games::{Scanned, Solved, Status, Verify};
    use crate::input::Recorder;
    use crate::plan::Plan;
    use crate::screen::{Rect, ScreenPoint};
    use std::cell::Cell;
    use std::rc::Rc;

    /// Answers `verify` from a script: an error, differences, or a match, one per call.
    struct Scripted {
        answers: Vec<Option<Vec<String>>>,
        calls: Rc<Cell<usize>>,
    }

    impl Scripted {
        /// A prepared board whose checks give `answers` in turn, and the count of checks made.
        fn prepared(answers: Vec<Option<Vec<String>>>) -> (Prepared, Rc<Cell<usize>>) {
            let calls = Rc::new(Cell::new(0));
            let prepared = Prepared {
                solved: Solved {
                    status: Status::Solved,
                    json: serde_json::Value::Null,
                    text: String::new(),
                },
                scanned: Scanned {
                    json: serde_json::Value::Null,
                    puzzle: String::new(),
                    overlay: image::RgbaImage::new(1, 1),
                },
                plan: Plan::new(Rect {
                    x: 0,
                    y: 0,
                    w: 10,
                    h: 10,
                }),
                check: Box::new(Scripted {
                    answers,
                    calls: calls.clone(),
                }),
            };
            (prepared, calls)
        }
    }

    impl Verify for Scripted {
        fn verify(&self, _after: &Screen) -> Result<Vec<String>> {
            let i = self.calls.get();
            self.calls.set(i + 1);
            match &self.answers[i.min(self.answers.len() - 1)] {
                Some(d) => Ok(d.clone()),
                None => Err(Error::vision(None, "board not found")),
            }
        }
    }

    fn screen() -> Result<Screen> {
        Ok(Screen {
            image: image::RgbaImage::new(1, 1),
            origin: ScreenPoint { x: 0, y: 0 },
            scale: 1.0,
            label: "test".into(),
        })
    }

    fn verify(answers: Vec<Option<Vec<String>>>) -> (Result<Verification>, usize) {
        let (p, calls) = Scripted::prepared(answers);
        let mut mouse = Recorder::new(ScreenPoint { x: 5, y: 5 }, (100, 100));
        let r = play_and_verify(&p, &mut mouse, Pacing::default(), Some(&screen));
        (r, calls.get())
    }

    #[test]
    fn a_board_unreadable_for_a_moment_is_read_again() {
        let (r, calls) = verify(vec![None, Some(vec!["x".into()]), Some(vec![])]);
        assert_eq!(r.unwrap(), Verification::Matches);
        assert_eq!(calls, 3);
    }

    #[test]
    fn a_board_that_stays_unreadable_is_an_error_and_differences_are_reported() {
        let (r, calls) = verify(vec![None]);
        assert!(r.is_err());
        assert_eq!(calls, VERIFY_TRIES);
        let (r, _) = verify(vec![Some(vec!["bridge missing".into()])]);
        assert_eq!(
            r.unwrap(),
            Verification::Differs(vec!["bridge missing".into()])
        );
    }
}
