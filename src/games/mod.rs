//! The games autoplayer knows, behind one interface, so `scan`, `solve` and `play` are one
//! function each for every game.

pub mod enclose;
pub mod flow;
pub mod hashi;
pub mod loopgame;
pub mod pipeline;

use crate::calibration::Profile;
use crate::error::{Error, Result};
use crate::plan::Plan;
pub use crate::report::Status;
use crate::report::{ScanReport, SolveReport};
use crate::screen::{PixelPoint, Screen};
use image::RgbaImage;
use std::time::Duration;

/// A game as named on the command line: one of [`BUILT`], or `auto` for whichever game the
/// picture shows. Its names come from the registry, so a new game needs no change here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameKind(&'static str);

/// Every game built, in the order the messages name them: a new game adds its line here.
pub const BUILT: &[&dyn Game] = &[
    &pipeline::Pipeline::<hashi::Hashi>::new(),
    &pipeline::Pipeline::<enclose::Enclose>::new(),
    &pipeline::Pipeline::<loopgame::LoopGame>::new(),
    &pipeline::Pipeline::<flow::Flow>::new(),
];

impl GameKind {
    /// Whichever game the picture shows (`scan` and `play` only).
    pub const AUTO: GameKind = GameKind("auto");

    /// The game of this name, or `auto`; `None` for a name no game has.
    pub fn named(name: &str) -> Option<GameKind> {
        std::iter::once("auto")
            .chain(BUILT.iter().map(|g| g.name()))
            .find(|n| *n == name)
            .map(GameKind)
    }

    pub fn name(self) -> &'static str {
        self.0
    }

    /// The game's implementation, or a usage error for `auto`, which only a picture can
    /// settle ([`GameKind::game_on`]).
    pub fn game(self) -> Result<&'static dyn Game> {
        if self == GameKind::AUTO {
            return Err(Error::Usage(
                "auto: name the game; only a picture can tell which game it shows (scan and play \
                 take auto)"
                    .into(),
            ));
        }
        BUILT
            .iter()
            .copied()
            .find(|g| g.name() == self.0)
            .ok_or_else(|| Error::Usage(format!("{}: no such game", self.0)))
    }
}

impl clap::ValueEnum for GameKind {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: std::sync::OnceLock<Vec<GameKind>> = std::sync::OnceLock::new();
        ALL.get_or_init(|| {
            std::iter::once(GameKind::AUTO)
                .chain(BUILT.iter().map(|g| GameKind(g.name())))
                .collect()
        })
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let value = clap::builder::PossibleValue::new(self.0);
        Some(if *self == GameKind::AUTO {
            value.help("Whichever game the picture shows (scan and play only)")
        } else {
            value
        })
    }
}

impl GameKind {
    /// The game named, or for `auto` the one game whose reader finds its board in the picture;
    /// none or more than one is an error naming what each reader said.
    pub fn game_on(self, screen: &Screen) -> Result<&'static dyn Game> {
        if self != GameKind::AUTO {
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

/// A text format `scan --to` writes a puzzle in; every one reads back through the game's
/// `parse`, so a conversion can always be checked by reading it again.
#[derive(Debug, PartialEq, Eq)]
pub struct Format {
    /// Its name after `--to`: short and lower-case.
    pub name: &'static str,
    /// The extension its files get in a batch's `-o DIR`.
    pub extension: &'static str,
    /// What it is, in a few words, for the error that lists a game's formats.
    pub about: &'static str,
}

/// The formats' names, for messages: `hashi, id, janko`.
fn format_names(formats: &[Format]) -> String {
    formats
        .iter()
        .map(|f| f.name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl dyn Game {
    /// The format `--to` names, or the game's own text for `None`; an unknown name is a usage
    /// error that lists the game's formats.
    pub fn format(&self, name: Option<&str>) -> Result<&'static Format> {
        let formats = self.formats();
        let Some(name) = name else {
            return Ok(&formats[0]);
        };
        formats.iter().find(|f| f.name == name).ok_or_else(|| {
            Error::Usage(format!(
                "--to {name}: {} has no format of that name; it writes {} ({})",
                self.name(),
                format_names(formats),
                formats
                    .iter()
                    .map(|f| format!("{}: {}", f.name, f.about))
                    .collect::<Vec<_>>()
                    .join("; ")
            ))
        })
    }
}

/// Every game's name with the formats `--to` writes, in registry order (for help and docs
/// checks).
pub fn formats() -> impl Iterator<Item = (&'static str, &'static [Format])> {
    BUILT.iter().map(|g| (g.name(), g.formats()))
}

impl GameKind {
    /// Checks `--to` before any picture is read: for a named game, that it writes the format;
    /// for `auto`, that some game does (each picture's game is checked again once known).
    pub fn check_format(self, name: Option<&str>) -> Result<()> {
        let Some(name) = name else { return Ok(()) };
        if self != GameKind::AUTO {
            return self.game()?.format(Some(name)).map(|_| ());
        }
        if BUILT
            .iter()
            .any(|g| g.formats().iter().any(|f| f.name == name))
        {
            return Ok(());
        }
        Err(Error::Usage(format!(
            "--to {name}: no game has a format of that name ({})",
            BUILT
                .iter()
                .map(|g| format!("{} writes {}", g.name(), format_names(g.formats())))
                .collect::<Vec<_>>()
                .join("; ")
        )))
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
    /// Play (or draw) only this many moves of the answer, each one a player could deduce
    /// (`play --moves`).
    pub moves: Option<usize>,
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
    /// The puzzle in the game's canonical text, or in the format asked for.
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

/// The app's way to its next puzzle, as a game sees it on a capture of its solved board.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Click this point of the capture (image pixels): the control, or a sheet hiding it.
    Click { at: PixelPoint, what: String },
    /// Open the menu whose label is at `label` and pick its first item.
    MenuFirstItem { label: PixelPoint, what: String },
    /// The app has no next puzzle, for this reason.
    NoneInApp(String),
    /// The game does not know this app's control (`--next-at` names it).
    Unknown,
}

/// The board as read and solved: how a game checks it after play, and draws its answer.
pub trait Verify {
    /// Reads the board again and lists every difference from the solution.
    fn verify(&self, after: &Screen) -> Result<Vec<String>>;
    /// The answer drawn over `capture`, the picture the board was read from; `None` when the
    /// board has no solution. Kept to the board by `Prepared::solution_picture`.
    fn draw_solution(&self, capture: &RgbaImage) -> Option<RgbaImage>;
    /// The app's way to its next puzzle, seen on `after`, a capture of the solved board.
    fn next_puzzle(&self, after: &RgbaImage) -> Next;
}

impl Prepared {
    pub fn verify(&self, after: &Screen) -> Result<Vec<String>> {
        self.check.verify(after)
    }

    /// The solution drawn over the capture it was read from: the capture's size, changed only
    /// inside the board the plan (and so the play report) names. An error when the board has
    /// no solution to draw.
    pub fn solution_picture(&self, screen: &Screen) -> Result<RgbaImage> {
        let drawn = self.check.draw_solution(&screen.image).ok_or_else(|| {
            Error::Usage("--solution: the board has no solution to draw".to_string())
        })?;
        Ok(crate::picture::kept_to_board(
            screen,
            drawn,
            self.plan.board,
        ))
    }
}

/// One game: how to read its puzzle text, its picture, and how to play it.
pub trait Game: Sync {
    fn name(&self) -> &'static str;
    /// Parses any of the game's text formats and solves it.
    fn solve(&self, text: &str, source: &str, opts: &Options) -> Result<Solved>;
    /// Reads the board in a picture; its puzzle text in `to`, the game's own text for `None`.
    fn scan(&self, screen: &Screen, opts: &Options, to: Option<&Format>) -> Result<Scanned>;
    /// The text formats `--to` writes, the game's own text first.
    fn formats(&self) -> &'static [Format];
    /// Reads a puzzle text in any of the game's formats and writes it in `to`.
    fn convert(&self, text: &str, source: &str, opts: &Options, to: &Format) -> Result<String>;
    /// Reads, solves and plans. An unsolvable board is `Ok` with that status and no actions.
    fn prepare(&self, screen: &Screen, opts: &Options) -> Result<Prepared>;
    /// Whether the picture shows this game's board (for `auto`), or why not. Only the board
    /// counts: a board the game would refuse to play (say, without its budget) is still it.
    fn detect(&self, screen: &Screen) -> Result<()>;
    /// Learns the app's look (its glyph templates) from pictures whose puzzles are known; a
    /// usage error for a game whose reader learns nothing.
    fn calibrate(&self, samples: &[Sample]) -> Result<Profile>;
    /// Whether `calibrate` learns anything for this game.
    fn learns(&self) -> bool;
}

/// The bar of `scan --to` for a game whose every format holds every board: each of `puzzles`
/// (a name for the failure, the puzzle), at least `at_least` of them, written in each of
/// `formats` reads back as itself. None at all: the corpus is absent (its helper has said
/// SKIPPED).
#[cfg(test)]
pub(crate) fn assert_round_trips<P: PartialEq + std::fmt::Debug>(
    game: &str,
    formats: &[Format],
    (puzzles, at_least): (&[(String, P)], usize),
    write: impl Fn(&P, &Format) -> Result<String>,
    read: impl Fn(&str) -> Result<P>,
) {
    if puzzles.is_empty() {
        return;
    }
    assert!(
        puzzles.len() >= at_least,
        "{game}: {} puzzles",
        puzzles.len()
    );
    for f in formats {
        for (name, p) in puzzles {
            let text = write(p, f).unwrap_or_else(|e| panic!("{name} as {}: {e}", f.name));
            let back = read(&text).unwrap_or_else(|e| panic!("{name} as {}: {e}", f.name));
            assert_eq!(&back, p, "{name} as {}:\n{text}", f.name);
        }
        eprintln!(
            "{game} {}: {} corpus puzzles round-tripped",
            f.name,
            puzzles.len()
        );
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
                let scanned = g.scan(screen, &Options::default(), None).is_ok();
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

    /// Every game's corpus screenshots (and the app stores' pictures where the corpus has
    /// them), by the game they show.
    const SCREENSHOTS: &[(&str, &str)] = &[
        ("hashi", "hashi/screenshots"),
        ("hashi", "hashi/app-screens"),
        ("enclose", "enclose/screenshots"),
        ("flow", "flow/screenshots"),
        ("flow", "flow/app-screens"),
        ("loop", "loop/screenshots"),
    ];

    /// Each reader refuses every other game's pictures, and blank pictures in any game's
    /// background colours, with a vision error.
    #[test]
    fn each_reader_refuses_the_other_games_pictures_and_blank_ones() {
        let mut pictures = Vec::new();
        for &(game, folder) in SCREENSHOTS {
            let found = crate::corpus::pictures(folder);
            pictures.extend(found.into_iter().map(|(p, img)| (game, p, img)));
        }
        for g in BUILT {
            for (shows, p, img) in pictures.iter().filter(|(shows, _, _)| *shows != g.name()) {
                let screen = Screen::from_image(img.clone());
                match g.detect(&screen) {
                    Err(Error::Vision { .. }) => {}
                    other => panic!(
                        "{}: the {} reader on a {shows} picture: expected a vision error, got {:?}",
                        p.display(),
                        g.name(),
                        other.map(|_| "a board")
                    ),
                }
            }
        }
        // Black, white, and each game's page and board backgrounds.
        let backgrounds = [
            [0, 0, 0],
            [255, 255, 255],
            [213, 213, 213],
            [229, 231, 235],
            [0x2e, 0x2e, 0x2e],
            [0xf3, 0xf4, 0xf6],
            [27, 107, 58],
        ];
        for [r, gr, b] in backgrounds {
            let screen = Screen::from_image(RgbaImage::from_pixel(640, 480, Rgba([r, gr, b, 255])));
            for g in BUILT {
                assert!(
                    matches!(g.detect(&screen), Err(Error::Vision { .. })),
                    "{}: a blank {r},{gr},{b} picture",
                    g.name()
                );
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
