//! `play --log FILE`: every pointer event actually sent, with the time since play began, so a
//! user can see afterwards what autoplayer did with their mouse.

use crate::error::{Error, Result};
use crate::input::Mouse;
use crate::screen::ScreenPoint;
use std::io::Write;
use std::time::Instant;

/// A mouse that writes each move, press and release to `out` once the inner mouse has done it,
/// one line each: milliseconds since the start, the event, and the point.
pub struct LoggedMouse<'m, W: Write> {
    inner: &'m mut dyn Mouse,
    out: W,
    start: Instant,
    at: ScreenPoint,
    /// Where the log goes, for messages.
    name: String,
}

impl<'m, W: Write> LoggedMouse<'m, W> {
    pub fn new(inner: &'m mut dyn Mouse, out: W, name: &str) -> LoggedMouse<'m, W> {
        LoggedMouse {
            inner,
            out,
            start: Instant::now(),
            at: ScreenPoint { x: 0, y: 0 },
            name: name.to_string(),
        }
    }

    fn note(&mut self, what: &str) -> Result<()> {
        let ms = self.start.elapsed().as_secs_f64() * 1000.0;
        writeln!(self.out, "{ms:.1} {what} {} {}", self.at.x, self.at.y)
            .and_then(|_| self.out.flush())
            .map_err(|e| Error::Io {
                path: self.name.clone(),
                reason: e,
            })
    }
}

impl<W: Write> Mouse for LoggedMouse<'_, W> {
    fn position(&mut self) -> Result<ScreenPoint> {
        self.inner.position()
    }
    fn desktop_size(&mut self) -> Result<(i32, i32)> {
        self.inner.desktop_size()
    }
    fn stop_pressed(&mut self) -> Result<bool> {
        self.inner.stop_pressed()
    }
    fn move_to(&mut self, p: ScreenPoint) -> Result<()> {
        self.inner.move_to(p)?;
        self.at = p;
        self.note("move")
    }
    fn press(&mut self) -> Result<()> {
        self.inner.press()?;
        self.note("press")
    }
    fn release(&mut self) -> Result<()> {
        self.inner.release()?;
        self.note("release")
    }
    fn pause(&mut self, ms: u64) {
        self.inner.pause(ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{Event, Recorder};
    use crate::plan::{execute, Action, Pacing, Plan};
    use crate::rect::Rect;

    #[test]
    fn every_event_sent_is_logged_in_order_with_its_time() {
        let mut rec = Recorder::new(ScreenPoint { x: 5, y: 5 }, (100, 100));
        let mut log = Vec::new();
        let mut plan = Plan::new(Rect::new(0, 0, 50, 50));
        plan.push(
            Action::Drag {
                path: vec![ScreenPoint { x: 10, y: 10 }, ScreenPoint { x: 30, y: 10 }],
            },
            "drag",
        );
        {
            let mut logged = LoggedMouse::new(&mut rec, &mut log, "test log");
            execute(&plan, &mut logged, Pacing::default()).unwrap();
        }
        let text = String::from_utf8(log).unwrap();
        let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split(' ').collect()).collect();
        let kinds: Vec<&str> = lines.iter().map(|l| l[1]).collect();
        assert_eq!(kinds.first(), Some(&"move"));
        assert!(kinds.contains(&"press") && kinds.last() == Some(&"release"));
        // As many lines as events the mouse got, and times never going back.
        assert_eq!(lines.len(), rec.events.len());
        let times: Vec<f64> = lines.iter().map(|l| l[0].parse().unwrap()).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(lines.last().unwrap()[2..], ["30", "10"]);
        assert!(matches!(
            rec.events.last(),
            Some(Event::Release { x: 30, y: 10 })
        ));
    }
}
