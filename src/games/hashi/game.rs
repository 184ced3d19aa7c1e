//! Hashi / Bridges behind the common pipeline: its formats, solver, reader and play as
//! [`Rules`].

use super::model::{self, Bridge, Bridges, Puzzle};
use super::solve::Found;
use super::{check, format, overlay, play, solve, vision};
use crate::calibration::Profile;
use crate::error::{Error, Result};
use crate::games::pipeline::Rules;
use crate::games::Next;
use crate::games::{Format, Options};
use crate::plan::Plan;
use crate::report::{Detail, Grid};
use crate::screen::Screen;
use crate::solving::{Limits, Outcome};
use image::RgbaImage;
use serde::{Serialize, Serializer};

pub struct Hashi;

// Hashi's own options. (No doc comment: it would become the description of every
// subcommand that flattens it.)
#[derive(Debug, Clone, Default, clap::Args)]
pub struct HashiOptions {
    /// hashi: most bridges per pair of islands (1-4), when the picture does not show it.
    /// Without it a Bridges board is tried with 2, then 3 and 4 if it has no solution.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub max_bridges: Option<u8>,
}

/// Bridges print as `[r1, c1, r2, c2, count]`.
fn bridge_arrays<S: Serializer>(bridges: &Bridges, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_seq(bridges.iter().map(Bridge::to_array))
}

/// Hashi's fields of `scan --json`.
#[derive(Debug, Clone, Serialize)]
pub struct ScanJson {
    pub style: vision::Style,
    #[serde(flatten)]
    pub grid: Grid,
    pub game_id: String,
    /// Bridges already drawn.
    #[serde(serialize_with = "bridge_arrays")]
    pub bridges: Bridges,
}

/// Hashi's fields of `solve --json`.
#[derive(Debug, Clone, Serialize)]
pub struct SolveJson {
    pub rows: Vec<String>,
    /// Absent when there is no solution.
    #[serde(flatten)]
    pub solution: Option<SolutionJson>,
    /// The bridge limit the board was solved with; `play` only, where it may have been raised.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_bridges: Option<u8>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SolutionJson {
    #[serde(serialize_with = "bridge_arrays")]
    pub bridges: Bridges,
    /// The search proved no other solution.
    pub unique: bool,
}

impl Rules for Hashi {
    const NAME: &'static str = "hashi";
    const NO_SOLUTION: &'static str = "no solution exists";
    type Puzzle = Puzzle;
    type Reading = vision::Reading;
    type Solution = Found;

    fn parse(text: &str, source: &str, _opts: &Options) -> Result<Puzzle> {
        format::parse(text, source)
    }

    fn solve(p: &Puzzle, limits: &Limits, _opts: &Options) -> Outcome<Found> {
        solve::solve(p, limits)
    }

    fn check(p: &Puzzle, s: &Found, _opts: &Options) -> std::result::Result<(), String> {
        check::check(p, &s.bridges)
    }

    fn render(p: &Puzzle, s: &Found) -> (String, String) {
        let mut board = model::render(p, &s.bridges).join("\n");
        board.push('\n');
        let summary = format!(
            "{} bridges, {} solution",
            s.bridges.iter().map(|x| x.count as usize).sum::<usize>(),
            if s.unique { "unique" } else { "not unique" },
        );
        (board, summary)
    }

    fn solve_detail(p: &Puzzle, outcome: &Outcome<Found>, _: &Options, played: bool) -> Detail {
        Detail::of(&SolveJson {
            rows: p.rows(),
            solution: outcome.solution().map(|f| SolutionJson {
                bridges: f.bridges.clone(),
                unique: f.unique,
            }),
            max_bridges: played.then_some(p.max_bridges),
        })
    }

    fn read(image: &RgbaImage, opts: &Options) -> Result<vision::Reading> {
        vision::recognize_with(image, opts.calibration.as_deref())
    }

    fn posed(r: &vision::Reading, _label: &str, opts: &Options) -> Result<Puzzle> {
        let mut p = r.puzzle.clone();
        if let Some(m) = opts.hashi.max_bridges {
            let most = p.islands.iter().map(|i| i.target).max().unwrap_or(0);
            if most > 4 * m {
                return Err(Error::Usage(format!(
                    "--max-bridges {m} is too few for an island of {most} on this board"
                )));
            }
            p.max_bridges = m;
        }
        Ok(p)
    }

    fn canonical(_r: &vision::Reading, p: &Puzzle) -> Result<String> {
        Ok(format::to_canonical(p))
    }

    const FORMATS: &'static [Format] = format::FORMATS;

    fn write(p: &Puzzle, f: &Format) -> Result<String> {
        format::write(p, f)
    }

    crate::games::pipeline::reading_fields!();

    fn scan_detail(r: &vision::Reading, p: &Puzzle, canonical: &str) -> Detail {
        Detail::of(&ScanJson {
            style: r.style,
            // A digit per island, `.` elsewhere.
            grid: Grid {
                width: p.cols,
                height: p.rows,
                rows: p.rows(),
                puzzle: canonical.to_string(),
            },
            game_id: format::to_game_id(p),
            bridges: r.bridges.clone(),
        })
    }

    fn draw_reading(img: &mut RgbaImage, r: &vision::Reading) {
        overlay::draw(img, r);
    }

    fn draw_solution(img: &mut RgbaImage, r: &vision::Reading, p: &Puzzle, s: &Found) {
        overlay::draw_solution(img, r, p, s);
    }

    fn hint(
        r: &vision::Reading,
        p: &Puzzle,
        s: &Found,
        k: usize,
        _opts: &Options,
    ) -> Result<(Found, Vec<String>)> {
        play::hint(p, &r.bridges, s, k)
    }

    fn next_puzzle(r: &vision::Reading, after: &RgbaImage) -> Next {
        play::next_puzzle(r, after)
    }

    /// The Bridges app never shows its bridge limit; 2 is its default. A board with no
    /// solution under it is tried with the larger limits the app offers.
    fn solve_for_play(
        r: &vision::Reading,
        mut p: Puzzle,
        opts: &Options,
    ) -> (Puzzle, Outcome<Found>, Vec<String>) {
        let limits = Limits::within(opts.timeout);
        let mut outcome = solve::solve(&p, &limits);
        let mut notes = Vec::new();
        let limit_hidden = r.style == vision::Style::Sgt && opts.hashi.max_bridges.is_none();
        while limit_hidden && outcome == Outcome::Unsolvable && p.max_bridges < 4 {
            p.max_bridges += 1;
            outcome = solve::solve(&p, &limits);
            notes = vec![format!(
                "no solution with fewer bridges per pair: solved with at most {} (--max-bridges)",
                p.max_bridges
            )];
        }
        (p, outcome, notes)
    }

    fn plan(
        r: &vision::Reading,
        p: &Puzzle,
        s: &Found,
        screen: &Screen,
        out: &mut Plan,
    ) -> Result<()> {
        *out = play::plan(r, p, &s.bridges, screen)?;
        Ok(())
    }

    fn differences(
        _r: &vision::Reading,
        p: &Puzzle,
        s: &Found,
        after: &Screen,
        opts: &Options,
    ) -> Result<Vec<String>> {
        let again = vision::recognize_with(&after.image, opts.calibration.as_deref())?;
        Ok(play::differences(&again, p, &s.bridges))
    }

    const LEARNS: bool = true;

    fn calibrate(known: Vec<(String, RgbaImage, Puzzle)>) -> Result<Profile> {
        vision::learn(&known)
    }
}
