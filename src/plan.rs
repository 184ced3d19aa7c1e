//! What to do with the mouse, checked before anything moves, and carried out with a fail-safe.

use crate::error::{Error, Result};
use crate::input::Mouse;
use crate::screen::{Rect, ScreenPoint};

/// One gesture, in screen points.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Action {
    Click {
        at: ScreenPoint,
    },
    /// Press at the first point, pass through the others, release at the last.
    Drag {
        path: Vec<ScreenPoint>,
    },
}

impl Action {
    pub fn points(&self) -> &[ScreenPoint] {
        match self {
            Action::Click { at } => std::slice::from_ref(at),
            Action::Drag { path } => path,
        }
    }
}

/// A list of gestures and the board they must stay inside.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Plan {
    pub board: Rect,
    pub actions: Vec<Action>,
    /// A human line per action ("bridge (0,0)-(0,3) 1 of 2"), same order as `actions`.
    pub notes: Vec<String>,
    /// The least time between two moves of a drag that the app needs, in milliseconds: a
    /// browser hands a page one pointer position per frame, so an app that adds every cell the
    /// pointer crosses misses cells crossed within one frame.
    #[serde(skip)]
    pub min_step_ms: u64,
}

impl Plan {
    pub fn new(board: Rect) -> Plan {
        Plan {
            board,
            actions: Vec::new(),
            notes: Vec::new(),
            min_step_ms: 0,
        }
    }

    pub fn push(&mut self, action: Action, note: impl Into<String>) {
        self.actions.push(action);
        self.notes.push(note.into());
    }

    /// Every point of every action must lie inside the board: checked once, before the first
    /// move, so a bad plan sends nothing at all.
    pub fn check_inside_board(&self) -> Result<()> {
        let board = self.board;
        for (i, a) in self.actions.iter().enumerate() {
            if let Action::Drag { path } = a {
                if path.len() < 2 {
                    return Err(Error::Guard(format!(
                        "action {}: a drag needs two points",
                        i + 1
                    )));
                }
            }
            for p in a.points() {
                if !board.contains(p.x, p.y) {
                    return Err(Error::Guard(format!(
                        "action {} ({}): point ({}, {}) lies outside the board {},{} {}x{}",
                        i + 1,
                        self.notes.get(i).map(String::as_str).unwrap_or(""),
                        p.x,
                        p.y,
                        board.x,
                        board.y,
                        board.w,
                        board.h
                    )));
                }
            }
        }
        Ok(())
    }
}

/// One frame at 60 Hz, rounded up: apps and pages see one pointer position per frame.
pub const FRAME_MS: u64 = 17;

/// How gestures are paced.
#[derive(Debug, Clone, Copy)]
pub struct Pacing {
    /// Pause between actions.
    pub pause_ms: u64,
    /// Pause between intermediate moves while the button is down.
    pub step_ms: u64,
    /// Pause between pressing the button for a drag and the first move: apps read the pointer
    /// once per frame, and a move seen in the press's own frame can turn the drag into a click.
    pub press_ms: u64,
    /// Largest distance between two moves of a drag, in screen points.
    pub max_step: f64,
    /// Fail-safe: stop when the pointer is not where we left it.
    pub fail_safe: bool,
}

impl Default for Pacing {
    fn default() -> Self {
        Pacing {
            pause_ms: 10,
            step_ms: 2,
            // A frame and a half: the press and the first move land in different frames.
            press_ms: FRAME_MS + FRAME_MS / 2,
            max_step: 24.0,
            fail_safe: true,
        }
    }
}

/// How far the pointer may stray from where we put it before we call it the user's hand.
const DRIFT_TOLERANCE: i32 = 3;
/// A pointer this close to a desktop corner means "stop".
const CORNER: i32 = 2;

/// Carries out a checked plan. On any error the button is released before returning.
pub fn execute(plan: &Plan, mouse: &mut dyn Mouse, pacing: Pacing) -> Result<()> {
    plan.check_inside_board()?;
    let pacing = Pacing {
        step_ms: pacing.step_ms.max(plan.min_step_ms),
        ..pacing
    };
    let desktop = mouse.desktop_size()?;
    let mut last: Option<ScreenPoint> = None;
    for (i, action) in plan.actions.iter().enumerate() {
        let result = run_action(action, mouse, pacing, desktop, &mut last);
        if let Err(e) = result {
            // Releasing an unpressed button is harmless on both backends, so always release.
            let _ = mouse.release();
            return Err(match e {
                Error::FailSafe(m) => Error::FailSafe(format!(
                    "{m} during action {} of {}; nothing more was sent",
                    i + 1,
                    plan.actions.len()
                )),
                other => other,
            });
        }
        mouse.pause(pacing.pause_ms);
    }
    Ok(())
}

fn check_fail_safe(
    mouse: &mut dyn Mouse,
    pacing: Pacing,
    desktop: (i32, i32),
    last: Option<ScreenPoint>,
) -> Result<()> {
    if !pacing.fail_safe {
        return Ok(());
    }
    if mouse.stop_pressed()? {
        return Err(Error::FailSafe("Esc pressed".into()));
    }
    let now = mouse.position()?;
    // Before our first move the pointer is wherever the user left it: one resting in a
    // corner then was not put there to stop this play.
    let Some(l) = last else {
        return Ok(());
    };
    let (w, h) = desktop;
    let in_corner = (now.x <= CORNER || now.x >= w - 1 - CORNER)
        && (now.y <= CORNER || now.y >= h - 1 - CORNER);
    if in_corner {
        return Err(Error::FailSafe(format!(
            "pointer parked in a screen corner at ({}, {})",
            now.x, now.y
        )));
    }
    if (now.x - l.x).abs() > DRIFT_TOLERANCE || (now.y - l.y).abs() > DRIFT_TOLERANCE {
        return Err(Error::FailSafe(format!(
            "pointer moved by someone else: expected ({}, {}), found ({}, {})",
            l.x, l.y, now.x, now.y
        )));
    }
    Ok(())
}

fn step_to(
    mouse: &mut dyn Mouse,
    p: ScreenPoint,
    pacing: Pacing,
    desktop: (i32, i32),
    last: &mut Option<ScreenPoint>,
) -> Result<()> {
    check_fail_safe(mouse, pacing, desktop, *last)?;
    mouse.move_to(p)?;
    *last = Some(p);
    Ok(())
}

fn run_action(
    action: &Action,
    mouse: &mut dyn Mouse,
    pacing: Pacing,
    desktop: (i32, i32),
    last: &mut Option<ScreenPoint>,
) -> Result<()> {
    match action {
        Action::Click { at } => {
            step_to(mouse, *at, pacing, desktop, last)?;
            mouse.pause(pacing.step_ms);
            check_fail_safe(mouse, pacing, desktop, *last)?;
            mouse.press()?;
            mouse.pause(pacing.step_ms);
            mouse.release()?;
        }
        Action::Drag { path } => {
            step_to(mouse, path[0], pacing, desktop, last)?;
            mouse.pause(pacing.step_ms * 2);
            check_fail_safe(mouse, pacing, desktop, *last)?;
            mouse.press()?;
            mouse.pause(pacing.press_ms);
            for pair in path.windows(2) {
                for p in intermediate(pair[0], pair[1], pacing.max_step) {
                    step_to(mouse, p, pacing, desktop, last)?;
                    mouse.pause(pacing.step_ms);
                }
            }
            mouse.pause(pacing.step_ms * 2);
            mouse.release()?;
        }
    }
    Ok(())
}

/// Points from just after `a` up to and including `b`, no two further apart than `max_step`,
/// and at least three of them so canvas apps see a real drag.
fn intermediate(a: ScreenPoint, b: ScreenPoint, max_step: f64) -> Vec<ScreenPoint> {
    let dx = (b.x - a.x) as f64;
    let dy = (b.y - a.y) as f64;
    let n = ((dx.hypot(dy) / max_step).ceil() as usize).max(3);
    (1..=n)
        .map(|i| {
            let t = i as f64 / n as f64;
            ScreenPoint {
                x: a.x + (dx * t).round() as i32,
                y: a.y + (dy * t).round() as i32,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{Event, Recorder};

    fn pt(x: i32, y: i32) -> ScreenPoint {
        ScreenPoint { x, y }
    }

    fn plan() -> Plan {
        let mut p = Plan::new(Rect {
            x: 100,
            y: 100,
            w: 200,
            h: 200,
        });
        p.push(
            Action::Drag {
                path: vec![pt(120, 120), pt(250, 120)],
            },
            "drag",
        );
        p.push(Action::Click { at: pt(150, 150) }, "click");
        p
    }

    /// A recorder that also keeps the pauses it was asked for.
    struct Pauses(Recorder, Vec<u64>);

    impl Mouse for Pauses {
        fn position(&mut self) -> Result<ScreenPoint> {
            self.0.position()
        }
        fn desktop_size(&mut self) -> Result<(i32, i32)> {
            self.0.desktop_size()
        }
        fn move_to(&mut self, p: ScreenPoint) -> Result<()> {
            self.0.move_to(p)
        }
        fn press(&mut self) -> Result<()> {
            self.0.press()
        }
        fn release(&mut self) -> Result<()> {
            self.0.release()
        }
        fn pause(&mut self, ms: u64) {
            self.1.push(ms)
        }
        fn stop_pressed(&mut self) -> Result<bool> {
            self.0.stop_pressed()
        }
    }

    #[test]
    fn a_plan_can_ask_for_slower_moves_than_the_pacing_gives() {
        let mut slow = plan();
        slow.min_step_ms = FRAME_MS;
        let mut m = Pauses(Recorder::new(pt(500, 500), (1920, 1080)), Vec::new());
        execute(&slow, &mut m, Pacing::default()).unwrap();
        assert!(m.1.contains(&FRAME_MS), "{:?}", m.1);
        assert!(!m.1.contains(&Pacing::default().step_ms));
        let mut fast = Pauses(Recorder::new(pt(500, 500), (1920, 1080)), Vec::new());
        execute(&plan(), &mut fast, Pacing::default()).unwrap();
        assert!(!fast.1.contains(&FRAME_MS));
    }

    #[test]
    fn a_drag_presses_moves_in_small_steps_and_releases() {
        let mut r = Recorder::new(pt(500, 500), (1920, 1080));
        execute(&plan(), &mut r, Pacing::default()).unwrap();
        assert!(!r.is_pressed());
        let press = r
            .events
            .iter()
            .position(|e| matches!(e, Event::Press { .. }))
            .unwrap();
        let release = r
            .events
            .iter()
            .position(|e| matches!(e, Event::Release { .. }))
            .unwrap();
        assert_eq!(r.events[press], Event::Press { x: 120, y: 120 });
        assert_eq!(r.events[release], Event::Release { x: 250, y: 120 });
        let moves: Vec<(i32, i32)> = r.events[press..release]
            .iter()
            .map(|e| match e {
                Event::Move { x, y } | Event::Press { x, y } | Event::Release { x, y } => (*x, *y),
            })
            .collect();
        assert!(moves.len() >= 4, "expected intermediate moves: {moves:?}");
        for w in moves.windows(2) {
            let d = ((w[1].0 - w[0].0) as f64).hypot((w[1].1 - w[0].1) as f64);
            assert!(
                d <= Pacing::default().max_step + 0.5,
                "step too long: {moves:?}"
            );
        }
        assert_eq!(r.events.last(), Some(&Event::Release { x: 150, y: 150 }));
    }

    #[test]
    fn a_point_outside_the_board_sends_nothing() {
        let mut p = plan();
        p.push(Action::Click { at: pt(99, 150) }, "outside");
        let mut r = Recorder::new(pt(500, 500), (1920, 1080));
        let e = execute(&p, &mut r, Pacing::default()).unwrap_err();
        assert!(matches!(e, Error::Guard(_)), "{e}");
        assert!(r.events.is_empty());
    }

    #[test]
    fn the_user_grabbing_the_mouse_mid_drag_aborts_and_releases() {
        let mut r = Recorder::new(pt(500, 500), (1920, 1080));
        r.user_grab = Some((5, pt(700, 700)));
        let e = execute(&plan(), &mut r, Pacing::default()).unwrap_err();
        assert_eq!(e.exit_code(), 3, "{e}");
        assert!(!r.is_pressed());
        assert!(matches!(r.events.last(), Some(Event::Release { .. })));
        assert!(!r.events.contains(&Event::Press { x: 150, y: 150 }));
    }

    #[test]
    fn a_pointer_parked_in_a_corner_stops_before_the_next_press() {
        let mut r = Recorder::new(pt(500, 500), (1920, 1080));
        r.user_grab = Some((1, pt(1919, 1079)));
        let e = execute(&plan(), &mut r, Pacing::default()).unwrap_err();
        assert_eq!(e.exit_code(), 3, "{e}");
        assert!(e.to_string().contains("corner"), "{e}");
        assert!(!r.events.iter().any(|e| matches!(e, Event::Press { .. })));
    }

    #[test]
    fn a_pointer_resting_in_a_corner_when_play_starts_is_no_stop() {
        let mut r = Recorder::new(pt(0, 0), (1920, 1080));
        execute(&plan(), &mut r, Pacing::default()).unwrap();
        assert!(r.events.contains(&Event::Press { x: 150, y: 150 }));
        assert!(!r.is_pressed());
    }

    #[test]
    fn esc_stops_play_and_releases_the_button() {
        let mut r = Recorder::new(pt(500, 500), (1920, 1080));
        r.user_stops_after = Some(4);
        let e = execute(&plan(), &mut r, Pacing::default()).unwrap_err();
        assert_eq!(e.exit_code(), 3, "{e}");
        assert!(e.to_string().contains("Esc"), "{e}");
        assert!(!r.is_pressed());
        assert!(!r.events.contains(&Event::Press { x: 150, y: 150 }));
    }

    #[test]
    fn intermediate_steps_end_on_the_target() {
        let steps = intermediate(pt(0, 0), pt(100, 0), 12.0);
        assert_eq!(steps.len(), 9);
        assert_eq!(*steps.last().unwrap(), pt(100, 0));
        assert!(steps.windows(2).all(|w| (w[1].x - w[0].x) <= 12));
    }
}
