//! The way every game is read, solved, played and checked, written once. A game gives its
//! typed parts ([`Rules`]); [`Pipeline`] makes them the [`Game`] that `scan`, `solve`, `play`
//! and verification use, with the timing, the status, the reports, the deadline, the texts for
//! no answer and the empty plan of a board without one done here for all.

use super::{Format, Game, Options, Prepared, Sample, Scanned, Solved, Verify};
use crate::calibration::Profile;
use crate::error::{Error, Result};
use crate::games::Next;
use crate::plan::Plan;
use crate::report::{Detail, ScanReport, SolveReport};
use crate::screen::Screen;
use crate::solving::{Limits, Outcome};
use crate::vision::geometry::Geometry;
use image::RgbaImage;
use std::marker::PhantomData;
use std::time::Instant;

/// [`Rules::geometry`] and [`Rules::confidence`] for a reading that keeps them in its fields
/// `geometry` and `confidence`, as every game's does: written once here rather than as the
/// same two accessors in each game's `Rules`.
macro_rules! reading_fields {
    () => {
        fn geometry(r: &Self::Reading) -> $crate::vision::geometry::Geometry {
            r.geometry
        }

        fn confidence(r: &Self::Reading) -> f64 {
            r.confidence
        }
    };
}
pub(crate) use reading_fields;

/// A game's own parts, typed: its puzzle, what its reader returns, its solution.
pub trait Rules: 'static {
    /// The game's name on the command line and in every report.
    const NAME: &'static str;
    /// What an unsolvable puzzle means, in the game's words.
    const NO_SOLUTION: &'static str;

    type Puzzle: Clone;
    type Reading;
    type Solution: Clone;

    /// Reads any of the game's text formats.
    fn parse(text: &str, source: &str, opts: &Options) -> Result<Self::Puzzle>;
    /// Solves within `limits`.
    fn solve(p: &Self::Puzzle, limits: &Limits, opts: &Options) -> Outcome<Self::Solution>;
    /// Checks a solution against every rule, independently of the solver; `Err` says which
    /// rule fails.
    fn check(
        p: &Self::Puzzle,
        s: &Self::Solution,
        opts: &Options,
    ) -> std::result::Result<(), String>;
    /// The solution drawn as text (ending in a newline) and a summary line without the time.
    fn render(p: &Self::Puzzle, s: &Self::Solution) -> (String, String);
    /// The game's fields of `solve --json`; `played` when the solve was for `play`.
    fn solve_detail(
        p: &Self::Puzzle,
        outcome: &Outcome<Self::Solution>,
        opts: &Options,
        played: bool,
    ) -> Detail;

    /// Reads the board in a picture, or refuses naming what and where.
    fn read(image: &RgbaImage, opts: &Options) -> Result<Self::Reading>;
    /// Whether the picture shows this game's board, or why not (for `auto`).
    fn detect(image: &RgbaImage) -> Result<()> {
        Self::read(image, &Options::default()).map(|_| ())
    }
    /// The puzzle a reading poses, with what the picture does not show from `opts`.
    fn posed(r: &Self::Reading, label: &str, opts: &Options) -> Result<Self::Puzzle>;
    /// The puzzle in the game's canonical text.
    fn canonical(r: &Self::Reading, p: &Self::Puzzle) -> Result<String>;
    /// The text formats `--to` writes, the canonical text first.
    const FORMATS: &'static [Format];
    /// The puzzle in `format`, one of [`Rules::FORMATS`], ending in a newline; an error when
    /// the puzzle has no form in it (a board that format cannot draw).
    fn write(p: &Self::Puzzle, format: &Format) -> Result<String>;
    /// Where the board stands in the picture read. Every game's reading keeps it, with the
    /// confidence, in fields of these names: [`reading_fields`] writes both.
    fn geometry(r: &Self::Reading) -> Geometry;
    /// 0..1: the weakest evidence behind anything read.
    fn confidence(r: &Self::Reading) -> f64;
    /// The game's fields of `scan --json`.
    fn scan_detail(r: &Self::Reading, p: &Self::Puzzle, canonical: &str) -> Detail;
    /// Draws what was read over the capture.
    fn draw_reading(img: &mut RgbaImage, r: &Self::Reading);
    /// Draws the answer over the capture in the game's own look (`play --solution`): `p` and
    /// `s` as `plan` gets them. What it draws outside the board is put back
    /// (`Prepared::solution_picture`), so it need not clip.
    fn draw_solution(img: &mut RgbaImage, r: &Self::Reading, p: &Self::Puzzle, s: &Self::Solution);

    /// Solves a board read for play: by default the puzzle as read. A game may solve another
    /// (with what is drawn taken away, or with a limit the picture does not show raised) and
    /// add notes for the text.
    fn solve_for_play(
        r: &Self::Reading,
        p: Self::Puzzle,
        opts: &Options,
    ) -> (Self::Puzzle, Outcome<Self::Solution>, Vec<String>) {
        let outcome = Self::solve(&p, &Limits::within(opts.timeout), opts);
        let _ = r;
        (p, outcome, Vec::new())
    }
    /// The gestures that turn the board read into the solution, inside `plan`'s board.
    fn plan(
        r: &Self::Reading,
        p: &Self::Puzzle,
        s: &Self::Solution,
        screen: &Screen,
        plan: &mut Plan,
    ) -> Result<()>;
    /// Every difference between the board in `after` and the solution, in words.
    fn differences(
        r: &Self::Reading,
        p: &Self::Puzzle,
        s: &Self::Solution,
        after: &Screen,
        opts: &Options,
    ) -> Result<Vec<String>>;

    /// A hint (`play --moves k`): the first `k` moves of `s` that a player could deduce on the
    /// board read, as the solution the board must show once they are made, and a line naming
    /// each move. A game without hints says so.
    fn hint(
        r: &Self::Reading,
        p: &Self::Puzzle,
        s: &Self::Solution,
        k: usize,
        opts: &Options,
    ) -> Result<(Self::Solution, Vec<String>)> {
        let _ = (r, p, s, k, opts);
        Err(Error::Usage(format!(
            "--moves: {} gives no hints yet; play the whole answer without it",
            Self::NAME
        )))
    }
    /// Every difference between the board in `after` and a hint's partial answer: by default
    /// as for a whole one. A game whose whole-answer check asks more (a score) says less here.
    fn hint_differences(
        r: &Self::Reading,
        p: &Self::Puzzle,
        partial: &Self::Solution,
        after: &Screen,
        opts: &Options,
    ) -> Result<Vec<String>> {
        Self::differences(r, p, partial, after, opts)
    }

    /// The app's way to its next puzzle on `after`, a capture of the board `r` once solved
    /// (`play --series`); by default unknown, so the user names it with `--next-at`.
    fn next_puzzle(r: &Self::Reading, after: &RgbaImage) -> Next {
        let _ = (r, after);
        Next::Unknown
    }

    /// Whether the reader learns the app's look (`calibrate`).
    const LEARNS: bool = false;
    /// Learns the app's look from pictures whose puzzles are known (only when [`Rules::LEARNS`]).
    fn calibrate(known: Vec<(String, RgbaImage, Self::Puzzle)>) -> Result<Profile> {
        let _ = known;
        unreachable!("{} learns nothing", Self::NAME)
    }
}

/// A game's [`Rules`] as the [`Game`] the commands use.
pub struct Pipeline<R>(PhantomData<fn() -> R>);

impl<R> Pipeline<R> {
    pub const fn new() -> Self {
        Pipeline(PhantomData)
    }
}

impl<R> Default for Pipeline<R> {
    fn default() -> Self {
        Self::new()
    }
}

/// Solves `p` and times it, in milliseconds.
fn timed<T>(solve: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let out = solve();
    (out, start.elapsed().as_secs_f64() * 1000.0)
}

/// An answer the independent check refuses is the solver's bug: an error, never a plan. (A
/// best-so-far kept on giving up is never played, and may break a bonus round's condition.)
fn checked<R: Rules>(p: &R::Puzzle, outcome: &Outcome<R::Solution>, opts: &Options) -> Result<()> {
    let answer = match outcome {
        Outcome::Solved(s) | Outcome::Optimal(s) => Some(s),
        Outcome::Unsolvable | Outcome::GaveUp(_) => None,
    };
    match answer.map(|s| R::check(p, s, opts)) {
        Some(Err(why)) => Err(Error::Usage(format!(
            "{}: the solver's answer fails the independent check ({why}); please report this \
             puzzle",
            R::NAME
        ))),
        _ => Ok(()),
    }
}

/// What `solve` prints for an outcome: the report and the human text.
fn solved<R: Rules>(
    p: &R::Puzzle,
    outcome: &Outcome<R::Solution>,
    elapsed_ms: f64,
    opts: &Options,
    played: bool,
    notes: &[String],
) -> Solved {
    let answer = |s: &R::Solution, last: &str| {
        let (board, summary) = R::render(p, s);
        format!("{board}{summary}, {elapsed_ms:.2} ms{last}\n")
    };
    let mut text = match outcome {
        Outcome::Solved(s) => answer(s, ""),
        Outcome::Optimal(s) => answer(s, "\nproven optimal"),
        Outcome::GaveUp(Some(s)) => answer(
            s,
            "\ngave up (time or memory limit) before proving it the best",
        ),
        Outcome::GaveUp(None) => "gave up (time or memory limit) before a solution\n".to_string(),
        Outcome::Unsolvable => format!("{}\n", R::NO_SOLUTION),
    };
    if outcome.solution().is_some() {
        for note in notes {
            text.push_str(note);
            text.push('\n');
        }
    }
    Solved {
        report: SolveReport {
            game: R::NAME,
            status: outcome.status(),
            elapsed_ms,
            detail: R::solve_detail(p, outcome, opts, played),
        },
        text,
    }
}

/// Reads a picture: the reading, the puzzle it poses and what `scan` shows of it.
fn scanned<R: Rules>(screen: &Screen, opts: &Options) -> Result<(R::Reading, R::Puzzle, Scanned)> {
    let reading = R::read(&screen.image, opts)?;
    let puzzle = R::posed(&reading, &screen.label, opts)?;
    let text = R::canonical(&reading, &puzzle)?;
    let mut overlay = screen.image.clone();
    R::draw_reading(&mut overlay, &reading);
    let scanned = Scanned {
        report: ScanReport {
            game: R::NAME,
            geometry: R::geometry(&reading),
            confidence: R::confidence(&reading),
            detail: R::scan_detail(&reading, &puzzle, &text),
        },
        puzzle: text,
        overlay,
    };
    Ok((reading, puzzle, scanned))
}

/// The board as read and played, to compare the board after play with.
struct Check<R: Rules> {
    reading: R::Reading,
    puzzle: R::Puzzle,
    /// What the board must show after play: the answer, or a hint's first moves of it.
    solution: Option<R::Solution>,
    hint: bool,
    opts: Options,
}

impl<R: Rules> Verify for Check<R> {
    fn verify(&self, after: &Screen) -> Result<Vec<String>> {
        let Some(s) = &self.solution else {
            return Err(Error::Verify(
                "there is no solution to compare the board with".into(),
            ));
        };
        if self.hint {
            R::hint_differences(&self.reading, &self.puzzle, s, after, &self.opts)
        } else {
            R::differences(&self.reading, &self.puzzle, s, after, &self.opts)
        }
    }

    fn draw_solution(&self, capture: &RgbaImage) -> Option<RgbaImage> {
        let s = self.solution.as_ref()?;
        let mut img = capture.clone();
        R::draw_solution(&mut img, &self.reading, &self.puzzle, s);
        Some(img)
    }

    fn next_puzzle(&self, after: &RgbaImage) -> Next {
        R::next_puzzle(&self.reading, after)
    }
}

impl<R: Rules> Game for Pipeline<R> {
    fn name(&self) -> &'static str {
        R::NAME
    }

    fn solve(&self, text: &str, source: &str, opts: &Options) -> Result<Solved> {
        let p = R::parse(text, source, opts)?;
        let limits = Limits::within(opts.timeout);
        let (outcome, ms) = timed(|| R::solve(&p, &limits, opts));
        checked::<R>(&p, &outcome, opts)?;
        Ok(solved::<R>(&p, &outcome, ms, opts, false, &[]))
    }

    fn scan(&self, screen: &Screen, opts: &Options, to: Option<&Format>) -> Result<Scanned> {
        let (_, puzzle, mut scanned) = scanned::<R>(screen, opts)?;
        if let Some(format) = to {
            scanned.puzzle = R::write(&puzzle, format)?;
        }
        Ok(scanned)
    }

    fn formats(&self) -> &'static [Format] {
        R::FORMATS
    }

    fn convert(&self, text: &str, source: &str, opts: &Options, to: &Format) -> Result<String> {
        R::write(&R::parse(text, source, opts)?, to)
    }

    fn detect(&self, screen: &Screen) -> Result<()> {
        R::detect(&screen.image)
    }

    fn learns(&self) -> bool {
        R::LEARNS
    }

    fn calibrate(&self, samples: &[Sample]) -> Result<Profile> {
        if !R::LEARNS {
            let learning: Vec<&str> = super::BUILT
                .iter()
                .filter(|g| g.learns())
                .map(|g| g.name())
                .collect();
            return Err(Error::Usage(format!(
                "calibrate {}: this game's reader has nothing to learn ({} do)",
                R::NAME,
                learning.join(", ")
            )));
        }
        let mut known = Vec::new();
        for s in samples {
            let p = R::parse(&s.puzzle, &s.puzzle_source, &Options::default())?;
            known.push((s.name.clone(), s.screen.image.clone(), p));
        }
        R::calibrate(known)
    }

    fn prepare(&self, screen: &Screen, opts: &Options) -> Result<Prepared> {
        let (reading, read, scanned) = scanned::<R>(screen, opts)?;
        let ((puzzle, outcome, mut notes), ms) = timed(|| R::solve_for_play(&reading, read, opts));
        checked::<R>(&puzzle, &outcome, opts)?;
        // A hint plays, draws and verifies the first moves only.
        let target = match (opts.moves, outcome.solution()) {
            (Some(k), Some(s)) => {
                let (partial, lines) = R::hint(&reading, &puzzle, s, k, opts)?;
                notes.push(format!("hint: {} move(s) of the answer", lines.len()));
                notes.extend(lines.into_iter().map(|l| format!("  {l}")));
                Some(partial)
            }
            _ => outcome.solution().cloned(),
        };
        let solved = solved::<R>(&puzzle, &outcome, ms, opts, true, &notes);
        let mut plan = Plan::new(screen.rect_to_screen(R::geometry(&reading).board));
        if let Some(s) = &target {
            R::plan(&reading, &puzzle, s, screen, &mut plan)?;
        }
        Ok(Prepared {
            scanned,
            solved,
            plan,
            check: Box::new(Check::<R> {
                reading,
                puzzle,
                solution: target,
                hint: opts.moves.is_some(),
                opts: opts.clone(),
            }),
        })
    }
}
