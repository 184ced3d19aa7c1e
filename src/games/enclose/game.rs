//! enclose.horse behind the common `Game` interface.

use super::format;
use super::model::{self, Level, Solution, Tile, Variant};
use super::{check, play, solve, vision};
use crate::calibration::Profile;
use crate::error::{Error, Result};
use crate::games::pipeline::Rules;
use crate::games::Next;
use crate::games::{Format, Options};
use crate::plan::Plan;
use crate::report::Detail;
use crate::screen::Screen;
use crate::solving::{Limits, Outcome};
use image::RgbaImage;
use serde::{Serialize, Serializer};
use std::collections::BTreeSet;
use std::time::Duration;

pub struct Enclose;

/// How long a hint may spend proving its walls when no `--timeout` was given.
const HINT_PROOF: Duration = Duration::from_secs(5);

// enclose.horse's own options. (No doc comment: it would become the description of every
// subcommand that flattens it.)
#[derive(Debug, Clone, Default, clap::Args)]
pub struct EncloseOptions {
    /// enclose.horse: the wall budget, when the picture does not show it.
    #[arg(long)]
    pub budget: Option<u32>,
    /// enclose.horse: the bonus round (lovebirds, costlywalls, quarrel).
    #[arg(long, value_parser = variant_arg)]
    pub variant: Option<Variant>,
}

/// `--variant` takes the names a puzzle file's header does.
fn variant_arg(name: &str) -> std::result::Result<Variant, String> {
    format::parse_variant(name, "--variant", 1, 1).map_err(|e| e.to_string())
}

/// The round prints by the name the puzzle files use.
fn variant_name<S: Serializer>(v: &Variant, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(v.name())
}

/// The page's score line prints as its number, `"N/A"` while the horse is loose, `null` when
/// the picture has none.
fn shown_score<S: Serializer>(
    v: &Option<vision::ShownScore>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match v {
        Some(vision::ShownScore::Value(v)) => s.serialize_i32(*v),
        Some(vision::ShownScore::NotEnclosed) => s.serialize_str("N/A"),
        None => s.serialize_none(),
    }
}

/// enclose.horse's fields of `scan --json`.
#[derive(Debug, Clone, Serialize)]
pub struct ScanJson {
    pub rows: Vec<String>,
    pub budget: u32,
    #[serde(serialize_with = "variant_name")]
    pub variant: Variant,
    pub walls_placed: Option<u32>,
    pub theme: String,
    pub enclosed: bool,
    #[serde(serialize_with = "shown_score")]
    pub score_shown: Option<vision::ShownScore>,
    /// The canonical puzzle file.
    pub puzzle: String,
}

/// enclose.horse's fields of `solve --json`.
#[derive(Debug, Clone, Serialize)]
pub struct SolveJson {
    #[serde(serialize_with = "variant_name")]
    pub variant: Variant,
    pub score: i32,
    /// The proven upper bound; equal to `score` when optimal.
    pub bound: i32,
    /// The new walls only, `[row, col]`.
    pub walls: Vec<[usize; 2]>,
}

/// The reading as a level: the budget from the picture, else from `--budget`.
fn level_of(reading: &vision::Reading, label: &str, opts: &Options) -> Result<Level> {
    let budget = opts.enclose.budget.or(reading.budget).ok_or_else(|| {
        Error::Usage(format!(
            "{label}: the wall budget is not shown; give it with --budget N"
        ))
    })?;
    let variant = match opts.enclose.variant {
        Some(v) => v,
        None => match reading.variant_hint.as_deref() {
            Some(name) => format::parse_variant(name, label, 1, 1)?,
            None => Variant::Main,
        },
    };
    format::parse_map(&reading.rows.join("\n"), label, budget, variant)
}

/// Whether the walls the board shows after play are the solution's, score what it scores
/// on the level with every wall taken away (`open`), and agree with the page's score line.
fn differences(seen: &vision::AfterPlay, open: &Level, sol: &Solution) -> Vec<String> {
    let target: BTreeSet<[usize; 2]> = sol.walls.iter().copied().collect();
    let mut out = play::differences(&seen.walls, &target);
    if out.is_empty() {
        let walls: Vec<[usize; 2]> = seen.walls.iter().copied().collect();
        let want = sol.score;
        match check::score(open, &walls) {
            Ok(s) if s == want => {}
            Ok(s) => out.push(format!("the walls score {s}, the optimum is {want}")),
            Err(why) => out.push(format!("the walls on the board are not valid: {why}")),
        }
        // The page's own score line, when the capture shows it, must agree too.
        match seen.score_shown {
            Some(vision::ShownScore::Value(v)) if v == want => {}
            Some(vision::ShownScore::Value(v)) => {
                out.push(format!("the page shows score {v}, the optimum is {want}"))
            }
            Some(vision::ShownScore::NotEnclosed) => {
                out.push("the page shows Score: N/A (no pen)".to_string())
            }
            None => {}
        }
    }
    out
}

impl Rules for Enclose {
    const NAME: &'static str = "enclose";
    const NO_SOLUTION: &'static str = "no walls within the budget enclose the horse";
    type Puzzle = Level;
    type Reading = vision::Reading;
    type Solution = Solution;

    fn parse(text: &str, source: &str, opts: &Options) -> Result<Level> {
        format::parse(text, source, opts.enclose.variant)
    }

    fn solve(level: &Level, limits: &Limits, _opts: &Options) -> Outcome<Solution> {
        solve::solve(level, limits)
    }

    /// The walls score what the solver says, counted the game's way.
    fn check(level: &Level, sol: &Solution, _opts: &Options) -> std::result::Result<(), String> {
        match check::score(level, &sol.walls)? {
            s if s == sol.score => Ok(()),
            s => Err(format!("the walls score {s}, not {}", sol.score)),
        }
    }

    fn render(level: &Level, sol: &Solution) -> (String, String) {
        (model::render(level, &sol.walls), model::summary(level, sol))
    }

    fn solve_detail(level: &Level, outcome: &Outcome<Solution>, _: &Options, _: bool) -> Detail {
        let sol = outcome.solution();
        Detail::of(&SolveJson {
            variant: level.variant,
            score: sol.map_or(0, |s| s.score),
            bound: sol.map_or(0, |s| s.bound),
            walls: sol.map_or(Vec::new(), |s| s.walls.clone()),
        })
    }

    fn read(image: &RgbaImage, opts: &Options) -> Result<vision::Reading> {
        vision::recognize(
            image,
            &vision::ReadOptions {
                budget: opts.enclose.budget,
                profile: opts.calibration.clone(),
            },
        )
    }

    fn posed(r: &vision::Reading, label: &str, opts: &Options) -> Result<Level> {
        level_of(r, label, opts)
    }

    fn canonical(_r: &vision::Reading, level: &Level) -> Result<String> {
        Ok(format::to_canonical(level))
    }

    const FORMATS: &'static [Format] = format::FORMATS;

    fn write(level: &Level, f: &Format) -> Result<String> {
        format::write(level, f)
    }

    crate::games::pipeline::reading_fields!();

    fn scan_detail(r: &vision::Reading, level: &Level, canonical: &str) -> Detail {
        Detail::of(&ScanJson {
            rows: r.rows.clone(),
            budget: level.budget,
            variant: level.variant,
            walls_placed: r.walls_placed,
            theme: r.theme.clone(),
            enclosed: r.enclosed,
            score_shown: r.score_shown,
            puzzle: canonical.to_string(),
        })
    }

    fn draw_reading(img: &mut RgbaImage, r: &vision::Reading) {
        super::overlay::draw(img, r);
    }

    fn draw_solution(img: &mut RgbaImage, r: &vision::Reading, open: &Level, s: &Solution) {
        super::overlay::draw_solution(img, r, open, s);
    }

    fn hint(
        r: &vision::Reading,
        open: &Level,
        sol: &Solution,
        k: usize,
        opts: &Options,
    ) -> Result<(Solution, Vec<String>)> {
        let h = open.horse();
        // Each wall's proof is a solve of its own: bounded as a user's --timeout bounds the
        // solve, or by a few seconds without one.
        let limits = Limits::within(opts.timeout.or(Some(HINT_PROOF)));
        let (walls, lines) = play::hint(
            &play::placed_walls(r),
            &sol.walls,
            [h / open.cols, h % open.cols],
            k,
            |w| solve::needed(open, sol.score, w, &limits),
        );
        Ok((
            Solution {
                walls: walls.into_iter().collect(),
                ..sol.clone()
            },
            lines,
        ))
    }

    /// A hint's walls are checked as walls only: a pen half built scores nothing yet.
    fn hint_differences(
        r: &vision::Reading,
        open: &Level,
        partial: &Solution,
        after: &Screen,
        _opts: &Options,
    ) -> Result<Vec<String>> {
        let seen = vision::read_after_play(&after.image, &r.geometry, open.rows, open.cols);
        let target: BTreeSet<[usize; 2]> = partial.walls.iter().copied().collect();
        Ok(play::differences(&seen.walls, &target))
    }

    fn next_puzzle(_r: &vision::Reading, _after: &RgbaImage) -> Next {
        Next::NoneInApp("the enclose.horse page has one level a day".into())
    }

    /// Walls already on the board may be wrong, so the level is solved with all of them
    /// taken away, and the plan toggles the difference.
    fn solve_for_play(
        _r: &vision::Reading,
        level: Level,
        opts: &Options,
    ) -> (Level, Outcome<Solution>, Vec<String>) {
        let mut open = level;
        for t in open.tiles.iter_mut().filter(|t| **t == Tile::Wall) {
            *t = Tile::Grass;
        }
        let outcome = solve::solve(&open, &Limits::within(opts.timeout));
        (open, outcome, Vec::new())
    }

    fn plan(
        r: &vision::Reading,
        _open: &Level,
        sol: &Solution,
        screen: &Screen,
        out: &mut Plan,
    ) -> Result<()> {
        let target: BTreeSet<[usize; 2]> = sol.walls.iter().copied().collect();
        *out = play::plan(r, &target, screen);
        Ok(())
    }

    fn differences(
        r: &vision::Reading,
        open: &Level,
        sol: &Solution,
        after: &Screen,
        _opts: &Options,
    ) -> Result<Vec<String>> {
        let seen = vision::read_after_play(&after.image, &r.geometry, open.rows, open.cols);
        Ok(differences(&seen, open, sol))
    }

    const LEARNS: bool = true;

    fn calibrate(known: Vec<(String, RgbaImage, Level)>) -> Result<Profile> {
        let known: Vec<(String, RgbaImage, Vec<String>)> = known
            .into_iter()
            .map(|(name, img, level)| (name, img, format::map_rows(&level)))
            .collect();
        vision::learn(&known)
    }
}
