//! Mouse control. `Mouse` is the one seam between a plan and the desktop: enigo drives the real
//! pointer, `Recorder` keeps the events for dry runs and tests.

use crate::error::{Error, Result};
use crate::screen::ScreenPoint;
use crate::stop_key::StopKey;
use std::time::Duration;

/// The few things a plan needs from a pointer.
pub trait Mouse {
    /// Where the pointer is now.
    fn position(&mut self) -> Result<ScreenPoint>;
    /// The size of the desktop in screen points, for the parked-in-a-corner fail-safe.
    fn desktop_size(&mut self) -> Result<(i32, i32)>;
    fn move_to(&mut self, p: ScreenPoint) -> Result<()>;
    fn press(&mut self) -> Result<()>;
    fn release(&mut self) -> Result<()>;
    fn pause(&mut self, ms: u64);
    /// Whether the user has pressed the stop key (Esc) since play began.
    fn stop_pressed(&mut self) -> Result<bool>;
}

/// One recorded pointer event.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Event {
    Move { x: i32, y: i32 },
    Press { x: i32, y: i32 },
    Release { x: i32, y: i32 },
}

/// A pretend pointer that remembers what it was told. It never moves by itself, so the
/// fail-safe stays quiet unless a test moves it with `user_moves_to`.
#[derive(Debug, Clone)]
pub struct Recorder {
    pub events: Vec<Event>,
    at: ScreenPoint,
    desktop: (i32, i32),
    pressed: bool,
    /// A test hook: after this many events the "user" grabs the mouse and moves it here.
    pub user_grab: Option<(usize, ScreenPoint)>,
    /// A test hook: after this many events the "user" presses Esc.
    pub user_stops_after: Option<usize>,
}

impl Recorder {
    pub fn new(start: ScreenPoint, desktop: (i32, i32)) -> Recorder {
        Recorder {
            events: Vec::new(),
            at: start,
            desktop,
            pressed: false,
            user_grab: None,
            user_stops_after: None,
        }
    }

    pub fn is_pressed(&self) -> bool {
        self.pressed
    }

    fn maybe_grab(&mut self) {
        if let Some((after, p)) = self.user_grab {
            if self.events.len() >= after {
                self.at = p;
                self.user_grab = None;
            }
        }
    }
}

impl Mouse for Recorder {
    fn position(&mut self) -> Result<ScreenPoint> {
        self.maybe_grab();
        Ok(self.at)
    }
    fn desktop_size(&mut self) -> Result<(i32, i32)> {
        Ok(self.desktop)
    }
    fn move_to(&mut self, p: ScreenPoint) -> Result<()> {
        self.at = p;
        self.events.push(Event::Move { x: p.x, y: p.y });
        Ok(())
    }
    fn press(&mut self) -> Result<()> {
        self.pressed = true;
        self.events.push(Event::Press {
            x: self.at.x,
            y: self.at.y,
        });
        Ok(())
    }
    fn release(&mut self) -> Result<()> {
        self.pressed = false;
        self.events.push(Event::Release {
            x: self.at.x,
            y: self.at.y,
        });
        Ok(())
    }
    fn pause(&mut self, _ms: u64) {}
    fn stop_pressed(&mut self) -> Result<bool> {
        Ok(self
            .user_stops_after
            .is_some_and(|n| self.events.len() >= n))
    }
}

/// How long a move may take to show in the pointer position before the caller goes on (a
/// move that never shows is then the fail-safe's to judge).
const MOVE_SETTLE: Duration = Duration::from_millis(100);

/// How often a pause looks at the stop key: a quick tap of Esc lasts about 50 ms.
const STOP_KEY_LOOK: Duration = Duration::from_millis(10);

/// The real pointer, through enigo (x11rb backend on Linux).
pub struct EnigoMouse {
    enigo: enigo::Enigo,
    pressed: bool,
    stop: StopKey,
    /// Esc seen down at some look since play began: a short tap between two looks of the
    /// fail-safe still stops.
    stopped: bool,
}

impl EnigoMouse {
    pub fn new() -> Result<EnigoMouse> {
        // enigo's default asks the X server to hold every event 12 ms; our own pacing
        // already spaces gestures, and a 30x30 board has hundreds of them.
        let settings = enigo::Settings {
            linux_delay: 1,
            ..Default::default()
        };
        let enigo = enigo::Enigo::new(&settings)
            .map_err(|e| Error::Desktop(format!("cannot open the input backend: {e}")))?;
        Ok(EnigoMouse {
            enigo,
            pressed: false,
            stop: StopKey::open()?,
            stopped: false,
        })
    }
}

fn input_err(e: enigo::InputError) -> Error {
    Error::Desktop(format!("input: {e}"))
}

impl Mouse for EnigoMouse {
    fn position(&mut self) -> Result<ScreenPoint> {
        use enigo::Mouse as _;
        let (x, y) = self.enigo.location().map_err(input_err)?;
        Ok(ScreenPoint { x, y })
    }
    fn desktop_size(&mut self) -> Result<(i32, i32)> {
        use enigo::Mouse as _;
        self.enigo.main_display().map_err(input_err)
    }
    /// Returns once the X server reports the pointer at `p` (or after a short wait): the
    /// server applies fake input later, and on a busy machine the fail-safe's next look would
    /// otherwise still see the old position and stop the play for nothing.
    fn move_to(&mut self, p: ScreenPoint) -> Result<()> {
        use enigo::Mouse as _;
        self.enigo
            .move_mouse(p.x, p.y, enigo::Coordinate::Abs)
            .map_err(input_err)?;
        let deadline = std::time::Instant::now() + MOVE_SETTLE;
        while self.enigo.location().map_err(input_err)? != (p.x, p.y)
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(())
    }
    fn press(&mut self) -> Result<()> {
        use enigo::Mouse as _;
        self.pressed = true;
        self.enigo
            .button(enigo::Button::Left, enigo::Direction::Press)
            .map_err(input_err)
    }
    fn release(&mut self) -> Result<()> {
        use enigo::Mouse as _;
        let r = self
            .enigo
            .button(enigo::Button::Left, enigo::Direction::Release)
            .map_err(input_err);
        if r.is_ok() {
            self.pressed = false;
        }
        r
    }
    /// Sleeps in short slices, looking at the stop key between them, so a tap of Esc during a
    /// long pause is not missed.
    fn pause(&mut self, ms: u64) {
        let until = std::time::Instant::now() + Duration::from_millis(ms);
        loop {
            let now = std::time::Instant::now();
            if now >= until {
                break;
            }
            std::thread::sleep((until - now).min(STOP_KEY_LOOK));
            if !self.stopped {
                self.stopped = self.stop.pressed().unwrap_or(false);
            }
        }
    }
    fn stop_pressed(&mut self) -> Result<bool> {
        if !self.stopped {
            self.stopped = self.stop.pressed()?;
        }
        Ok(self.stopped)
    }
}

impl Drop for EnigoMouse {
    /// Last line of defence: even a panic mid-drag must not leave the button down.
    fn drop(&mut self) {
        if self.pressed {
            use enigo::Mouse as _;
            let _ = self
                .enigo
                .button(enigo::Button::Left, enigo::Direction::Release);
        }
    }
}
