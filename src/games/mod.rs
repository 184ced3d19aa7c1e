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
            "calibrate {}: this game's reader has nothing to learn (hashi and loop do)",
            self.name()
        )))
    }
}
