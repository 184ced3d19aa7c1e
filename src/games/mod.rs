//! The games autoplayer knows, behind one interface, so `scan`, `solve` and `play` are one
//! function each for every game.

pub mod enclose;
pub mod flow;
pub mod hashi;

use crate::error::{Error, Result};
use crate::plan::Plan;
use crate::screen::Screen;
use image::RgbaImage;
use serde_json::Value;
use std::time::Duration;

/// The games on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GameKind {
    Enclose,
    Flow,
    Hashi,
    Loop,
}

impl GameKind {
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Enclose => "enclose",
            GameKind::Flow => "flow",
            GameKind::Hashi => "hashi",
            GameKind::Loop => "loop",
        }
    }

    /// The game's implementation, or a usage error for games not built yet.
    pub fn game(self) -> Result<&'static dyn Game> {
        match self {
            GameKind::Hashi => Ok(&hashi::Hashi),
            GameKind::Enclose => Ok(&enclose::Enclose),
            other => Err(Error::Usage(format!(
                "{}: not built yet (hashi and enclose play today)",
                other.name()
            ))),
        }
    }
}

/// Options a game may use; each ignores what does not apply to it.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub timeout: Option<Duration>,
    /// enclose.horse: the wall budget when the picture does not show it.
    pub budget: Option<u32>,
    /// enclose.horse: the bonus round kind.
    pub variant: Option<String>,
    /// hashi: most bridges per pair when the picture does not show it.
    pub max_bridges: Option<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Solved,
    Optimal,
    Unsolvable,
    GaveUp,
}

/// What `solve` prints.
#[derive(Debug, Clone)]
pub struct Solved {
    pub status: Status,
    /// The whole `solve --json` object.
    pub json: Value,
    /// The human rendering.
    pub text: String,
}

/// What `scan` prints and draws.
#[derive(Debug, Clone)]
pub struct Scanned {
    /// The whole `scan --json` object.
    pub json: Value,
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
}
