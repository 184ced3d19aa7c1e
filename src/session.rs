//! The end of `play`: carry out a prepared plan, read the board again and compare it with the
//! solution, and report what happened. Shared by the command line and the benchmark.

use crate::error::{Error, Result};
use crate::games::Prepared;
use crate::input::Mouse;
use crate::plan::{execute, Action, Pacing};
use crate::report::PlayReport;
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
        // A board that cannot be read right now may be mid-animation (an app may flash or
        // redraw the board when a puzzle is completed): look again, and report the error only
        // if it stays.
        last = recapture().and_then(|screen| prepared.verify(&screen));
        if last.as_ref().is_ok_and(Vec::is_empty) {
            return Ok(Verification::Matches);
        }
    }
    last.map(Verification::Differs)
}

/// A live board that is not read is captured again up to this many times, this far apart:
/// an app may be caught between frames (the enclose.horse page redraws its hand-drawn text a
/// pixel off from frame to frame, and about 1 frame in 7 of two layouts leaves its counter
/// unread). Each capture is read with every check; only a picture read with confidence is
/// played.
const READ_TRIES: usize = 3;
const READ_GAP: Duration = Duration::from_millis(150);

/// Reads `first` with `read`, and while the picture is refused as unreadable (a vision
/// error; any other error stands), captures the screen again with `grab` and reads that,
/// `READ_TRIES` times at most. Returns the picture last read and its reading.
pub fn read_live<T>(
    first: Screen,
    grab: &dyn Fn() -> Result<Screen>,
    read: &dyn Fn(&Screen) -> Result<T>,
) -> Result<(Screen, Result<T>)> {
    let mut screen = first;
    let mut got = read(&screen);
    for _ in 0..READ_TRIES {
        if !matches!(got, Err(Error::Vision { .. })) {
            break;
        }
        std::thread::sleep(READ_GAP);
        screen = grab()?;
        got = read(&screen);
    }
    Ok((screen, got))
}

/// One `play` from a prepared board on: whether to touch the mouse, what playing did, the
/// report, the closing line and the exit code.
pub struct PlayRun<'a> {
    prepared: &'a Prepared,
    report: PlayReport<'a>,
    /// No mouse: `--dry-run`, or a picture read from a file.
    dry_run: bool,
    /// Only a hint's first moves are played (`--moves`).
    pub hint: bool,
    failure: Option<Error>,
}

impl<'a> PlayRun<'a> {
    pub fn new(game: &'static str, prepared: &'a Prepared, dry_run: bool) -> PlayRun<'a> {
        PlayRun {
            prepared,
            report: PlayReport {
                game,
                scan: &prepared.scanned.report,
                solve: &prepared.solved.report,
                plan: &prepared.plan,
                played: false,
                differences: None,
                verified: None,
                error: None,
            },
            dry_run,
            hint: false,
            failure: None,
        }
    }

    fn solvable(&self) -> bool {
        self.prepared.solved.status().exit_code() == 0
    }

    fn nothing_to_do(&self) -> bool {
        self.prepared.plan.actions.is_empty()
    }

    /// The board has a solution, needs gestures, and the mouse may move.
    pub fn will_play(&self) -> bool {
        self.solvable() && !self.nothing_to_do() && !self.dry_run
    }

    /// What `play` prints before it touches anything: the puzzle, the solution, the plan.
    pub fn plan_text(&self) -> String {
        let Prepared {
            scanned,
            solved,
            plan,
            ..
        } = self.prepared;
        let mut out = format!(
            "{}\n{}plan: {} gesture(s) inside the board at {},{} {}x{}\n",
            scanned.puzzle,
            solved.text,
            plan.actions.len(),
            plan.board.x,
            plan.board.y,
            plan.board.w,
            plan.board.h
        );
        for (i, (a, note)) in plan.actions.iter().zip(&plan.notes).enumerate() {
            let gesture = match a {
                Action::Click { at } => format!("click ({}, {})", at.x, at.y),
                Action::Drag { path } => {
                    let pts: Vec<String> =
                        path.iter().map(|p| format!("({}, {})", p.x, p.y)).collect();
                    format!("drag {}", pts.join(" -> "))
                }
            };
            out.push_str(&format!("{:4}. {gesture}  {note}\n", i + 1));
        }
        out
    }

    /// Plays the plan and, given a way to capture the board again, verifies it. Any failure is
    /// kept for the report and [`PlayRun::finish`].
    pub fn play(
        &mut self,
        mouse: &mut dyn Mouse,
        pacing: Pacing,
        recapture: Option<&dyn Fn() -> Result<Screen>>,
    ) {
        let failure = match play_and_verify(self.prepared, mouse, pacing, recapture) {
            Err(e) => Some(e),
            Ok(Verification::Differs(differences)) => {
                let e = Error::Verify(format!(
                    "the board differs from the solution after play:\n  {}",
                    differences.join("\n  ")
                ));
                self.report.played = true;
                self.report.differences = Some(differences);
                Some(e)
            }
            Ok(v) => {
                self.report.played = true;
                self.report.verified = Some(v == Verification::Matches);
                None
            }
        };
        self.report.error = failure.as_ref().map(Error::to_string);
        self.failure = failure;
    }

    pub fn report(&self) -> &PlayReport<'a> {
        &self.report
    }

    /// The last line of the text output, when there is one to print.
    pub fn closing_line(&self) -> Option<&'static str> {
        if self.failure.is_some() {
            None
        } else if self.report.verified == Some(true) && self.hint {
            Some("verified: the board shows the hint's moves, and nothing else changed")
        } else if self.report.verified == Some(true) {
            Some("verified: the board shows the solution")
        } else if self.nothing_to_do() && self.solvable() {
            Some("nothing to do: the board already shows the solution")
        } else if self.dry_run {
            Some("dry run: the mouse was not moved")
        } else {
            None
        }
    }

    /// The exit code: 1 when the board already shows the solution; or the error play ended in.
    pub fn finish(self) -> Result<u8> {
        if let Some(e) = self.failure {
            return Err(e);
        }
        let code = self.prepared.solved.status().exit_code();
        Ok(if code == 0 && self.nothing_to_do() {
            1
        } else {
            code
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::games::{Scanned, Solved, Status, Verify};
    use crate::input::Recorder;
    use crate::plan::Plan;
    use crate::report::{Detail, ScanReport, SolveReport};
    use crate::screen::{PixelPoint, Rect, ScreenPoint};
    use crate::vision::geometry::Geometry;
    use std::cell::Cell;
    use std::rc::Rc;

    /// A game's part of a report: no game's, since this layer knows none.
    #[derive(serde::Serialize)]
    struct Part {
        rows: Vec<String>,
    }

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
                    report: SolveReport {
                        game: "test",
                        status: Status::Solved,
                        elapsed_ms: 0.0,
                        detail: Detail::of(&Part { rows: Vec::new() }),
                    },
                    text: String::new(),
                },
                scanned: Scanned {
                    report: ScanReport {
                        game: "test",
                        geometry: Geometry::square(
                            PixelPoint { x: 0.0, y: 0.0 },
                            1.0,
                            Rect::new(0.0, 0.0, 10.0, 10.0),
                        ),
                        confidence: 1.0,
                        detail: Detail::of(&Part { rows: Vec::new() }),
                    },
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

        fn draw_solution(&self, _capture: &image::RgbaImage) -> Option<image::RgbaImage> {
            None
        }

        fn next_puzzle(&self, _after: &image::RgbaImage) -> crate::games::Next {
            crate::games::Next::Unknown
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
    fn a_live_board_refused_as_unreadable_is_captured_again_a_few_times() {
        // Each capture is a picture 1 px wide whose width names the capture (1, 2, 3, ...).
        let grabs = Cell::new(1u32);
        let grab = || {
            grabs.set(grabs.get() + 1);
            Ok(Screen::from_image(image::RgbaImage::new(grabs.get(), 1)))
        };
        let first = || Screen::from_image(image::RgbaImage::new(1, 1));
        // Read on the third capture.
        let read = |s: &Screen| match s.image.width() {
            3 => Ok(3),
            _ => Err(Error::vision(None, "counter unread")),
        };
        let (screen, got) = read_live(first(), &grab, &read).unwrap();
        assert_eq!((got.unwrap(), screen.image.width()), (3, 3));
        // Never read: the first capture and READ_TRIES more, then the refusal stands.
        grabs.set(1);
        let never = |_: &Screen| -> Result<u32> { Err(Error::vision(None, "no board")) };
        let (_, got) = read_live(first(), &grab, &never).unwrap();
        assert!(matches!(got, Err(Error::Vision { .. })));
        assert_eq!(grabs.get() as usize, 1 + READ_TRIES);
        // Any other refusal is not a passing frame: no second capture.
        grabs.set(1);
        let usage = |_: &Screen| -> Result<u32> { Err(Error::Usage("no such window".into())) };
        let (_, got) = read_live(first(), &grab, &usage).unwrap();
        assert!(matches!(got, Err(Error::Usage(_))));
        assert_eq!(grabs.get(), 1);
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
