//! The games autoplayer knows, behind one interface, so `scan`, `solve` and `play` are one
//! function each for every game.

pub mod enclose;
pub mod flow;
pub mod hashi;
pub mod loopgame;

use crate::calibration::Profile;
use crate::error::{Error, Result};
use crate::plan::Plan;
pub use crate::report::Status;
use crate::report::{ScanReport, SolveReport};
use crate::screen::Screen;
use image::RgbaImage;
use std::time::Duration;

/// The games on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GameKind {
    /// Whichever game the picture shows (`scan` and `play` only).
    Auto,
    Enclose,
    Flow,
    Hashi,
    Loop,
}

/// Every game built, in the order the "not built yet" message names them: a new game adds its
/// line here.
const BUILT: &[&dyn Game] = &[
    &hashi::Hashi,
    &enclose::Enclose,
    &loopgame::LoopGame,
    &flow::Flow,
];

impl GameKind {
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Auto => "auto",
            GameKind::Enclose => "enclose",
            GameKind::Flow => "flow",
            GameKind::Hashi => "hashi",
            GameKind::Loop => "loop",
        }
    }

    /// The game's implementation, or a usage error for games not built yet and for `auto`,
    /// which only a picture can settle ([`GameKind::game_on`]).
    pub fn game(self) -> Result<&'static dyn Game> {
        if self == GameKind::Auto {
            return Err(Error::Usage(
                "auto: name the game; only a picture can tell which game it shows (scan and play \
                 take auto)"
                    .into(),
            ));
        }
        BUILT
            .iter()
            .copied()
            .find(|g| g.name() == self.name())
            .ok_or_else(|| {
                let names: Vec<&str> = BUILT.iter().map(|g| g.name()).collect();
                let listed = match names.split_last() {
                    Some((last, [])) => last.to_string(),
                    Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                    None => "none".to_string(),
                };
                Error::Usage(format!(
                    "{}: not built yet ({listed} play today)",
                    self.name()
                ))
            })
    }
}

impl GameKind {
    /// The game named, or for `auto` the one game whose reader finds its board in the picture;
    /// none or more than one is an error naming what each reader said.
    pub fn game_on(self, screen: &Screen) -> Result<&'static dyn Game> {
        if self != GameKind::Auto {
            return self.game();
        }
        let mut found = Vec::new();
        let mut reasons = Vec::new();
        for &g in BUILT {
            match g.detect(screen) {
                Ok(()) => found.push(g),
                Err(why) => reasons.push(format!("{}: {why}", g.name())),
            }
        }
        match found[..] {
            [g] => Ok(g),
            [] => Err(Error::vision(
                None,
                format!("no game recognised ({})", reasons.join("; ")),
            )),
            _ => Err(Error::vision(
                None,
                format!(
                    "more than one game recognised ({}): name the game",
                    found
                        .iter()
                        .map(|g| g.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }
}

/// Options for every game: the solver's time, and each game's own.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub timeout: Option<Duration>,
    pub enclose: enclose::EncloseOptions,
    pub hashi: hashi::HashiOptions,
    pub loopgame: loopgame::LoopOptions,
    /// A learned profile read instead of the embedded one (`--calibration`).
    pub calibration: Option<std::sync::Arc<Profile>>,
}

/// A picture whose puzzle is known, for `calibrate`.
pub struct Sample {
    /// The picture's name as given, recorded in the profile.
    pub name: String,
    pub screen: Screen,
    /// The puzzle's text in any of the game's formats, and where it came from.
    pub puzzle: String,
    pub puzzle_source: String,
}

/// What `solve` prints.
#[derive(Debug, Clone)]
pub struct Solved {
    /// `solve --json`.
    pub report: SolveReport,
    /// The human rendering.
    pub text: String,
}

impl Solved {
    pub fn status(&self) -> Status {
        self.report.status
    }
}

/// What `scan` prints and draws.
#[derive(Debug, Clone)]
pub struct Scanned {
    /// `scan --json`.
    pub report: ScanReport,
    /// The puzzle in the game's canonical text.
    pub puzzle: String,
    /// The capture with what was read drawn over it.
    pub overlay: RgbaImage,
}

/// A board read, solved and planned: everything `play` needs, and how to check the result.
pub struct Prepared {
    pub scanned: Scanned,
    pub solved: Solved,
    /// Gestures in screen points. Empty when the board already shows the solution.
    pub plan: Plan,
    pub check: Box<dyn Verify>,
}

/// How a game checks its board after play.
pub trait Verify {
    /// Reads the board again and lists every difference from the solution.
    fn verify(&self, after: &Screen) -> Result<Vec<String>>;
}

impl Prepared {
    pub fn verify(&self, after: &Screen) -> Result<Vec<String>> {
        self.check.verify(after)
    }
}

/// One game: how to read its puzzle text, its picture, and how to play it.
pub trait Game: Sync {
    fn name(&self) -> &'static str;
    /// Parses any of the game's text formats and solves it.
    fn solve(&self, text: &str, source: &str, opts: &Options) -> Result<Solved>;
    /// Reads the board in a picture.
    fn scan(&self, screen: &Screen, opts: &Options) -> Result<Scanned>;
    /// Reads, solves and plans. An unsolvable board is `Ok` with that status and no actions.
    fn prepare(&self, screen: &Screen, opts: &Options) -> Result<Prepared>;
    /// Whether the picture shows this game's board (for `auto`), or why not. Only the board
    /// counts: a board the game would refuse to play (say, without its budget) is still it.
    fn detect(&self, screen: &Screen) -> Result<()>;
    /// Learns the app's look (its glyph templates) from pictures whose puzzles are known.
    fn calibrate(&self, _samples: &[Sample]) -> Result<Profile> {
        Err(Error::Usage(format!(
            "calibrate {}: this game's reader has nothing to learn (hashi, loop and enclose do)",
            self.name()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::screen::Screen;
    use image::Rgba;

    fn every_reader_on(screen: &Screen) -> Vec<(&'static str, bool)> {
        BUILT
            .iter()
            .map(|g| {
                let detected = g.detect(screen).is_ok();
                let scanned = g.scan(screen, &Options::default()).is_ok();
                (g.name(), detected || scanned)
            })
            .collect()
    }

    fn noise(rng: &mut Rng, w: u32, h: u32, levels: u64) -> RgbaImage {
        let mut img = RgbaImage::new(w, h);
        for p in img.pixels_mut() {
            let mut v = || (rng.below(levels) * 255 / (levels - 1).max(1)) as u8;
            *p = Rgba([v(), v(), v(), 255]);
        }
        img
    }

    /// Random pictures of every size down to one pixel: every reader refuses them, none panics.
    #[test]
    fn every_reader_refuses_noise_without_panicking() {
        let mut rng = Rng::new(7);
        for (w, h) in [(1, 1), (2, 7), (40, 30), (300, 200), (640, 480)] {
            for levels in [2, 4, 256] {
                let screen = Screen::from_image(noise(&mut rng, w, h, levels));
                for (game, read) in every_reader_on(&screen) {
                    assert!(
                        !read,
                        "{game} read a board in {w}x{h} noise ({levels} levels)"
                    );
                }
            }
        }
    }

    /// A real capture with bytes flipped or cut short decodes to an error or to a damaged
    /// picture; either way every reader answers, and none panics.
    #[test]
    fn corrupted_captures_are_answered_without_panicking() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/hashi/bridges_10x10_fresh_ts40.png");
        let bytes = std::fs::read(&path).unwrap();
        let mut rng = Rng::new(11);
        let mut decoded = 0;
        for round in 0..24 {
            let mut b = bytes.clone();
            if round % 3 == 0 {
                b.truncate(rng.below(b.len() as u64) as usize);
            } else {
                for _ in 0..1 + rng.below(40) {
                    let k = rng.below(b.len() as u64) as usize;
                    b[k] = rng.below(256) as u8;
                }
            }
            if let Ok(screen) = Screen::from_bytes(&b, "corrupted") {
                decoded += 1;
                every_reader_on(&screen);
            }
        }
        // PNG checks its chunks' CRCs, so most damaged copies are refused at decoding; some
        // flips land where the decoder does not look.
        assert!(decoded < 24, "every damaged copy decoded");
    }
}
