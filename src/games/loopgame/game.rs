//! The Loop game behind the `Game` interface: solve any of its text formats, read the app's
//! board, and play a whole loop as one drag.

use super::format::{parse, to_canonical};
use super::model::{render, Cycle, Puzzle};
use super::play;
use super::solve::{self, Found};
use super::vision::{self, Reading, Theme};
use crate::calibration::Profile;
use crate::error::Result;
use crate::games::pipeline::Rules;
use crate::games::Next;
use crate::games::{Format, Options};
use crate::plan::Plan;
use crate::report::{Detail, Grid};
use crate::screen::Screen;
use crate::solving::{Limits, Outcome};
use image::RgbaImage;
use serde::Serialize;

// Loop's own options. (No doc comment: it would become the description of every
// subcommand that flattens it.)
#[derive(Debug, Clone, Default, clap::Args)]
pub struct LoopOptions {
    /// loop: accept any closed loop that meets the numbers; without it the loop must pass
    /// through every cell (the app's "Perfect loop").
    #[arg(long)]
    pub any_loop: bool,
}

pub struct LoopGame;

/// Loop's fields of `scan --json`, beside the shared `game`, `geometry` and `confidence`.
#[derive(Debug, Clone, Serialize)]
pub struct ScanJson {
    #[serde(flatten)]
    pub grid: Grid,
    pub theme: Theme,
    /// The path drawn on the board, `[row, col]` in order along it; empty when none.
    pub path: Vec<[usize; 2]>,
    pub closed: bool,
}

/// Loop's fields of `solve --json`, beside the shared `game`, `status` and `elapsed_ms`.
#[derive(Debug, Clone, Serialize)]
pub struct SolveJson {
    pub width: usize,
    pub height: usize,
    /// The puzzle rows as read: a digit per hint, `.` elsewhere.
    pub rows: Vec<String>,
    /// True when any closed loop was accepted, false when it had to visit every cell.
    pub any_loop: bool,
    /// The loop's cells in order, `[row, col]`; the last steps back to the first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycle: Option<Cycle>,
    /// Whether the search proved this is the only loop (false: another exists, or the proof
    /// ran out of budget; see `solve::Options::proof_nodes`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
}

impl Rules for LoopGame {
    type Puzzle = Puzzle;
    type Reading = Reading;
    type Solution = Found;
    const NAME: &'static str = "loop";
    const NO_SOLUTION: &'static str = "no loop meets these hints";

    fn parse(text: &str, source: &str, _opts: &Options) -> Result<Puzzle> {
        parse(text, source)
    }

    fn solve(p: &Puzzle, limits: &Limits, opts: &Options) -> Outcome<Found> {
        let rules = solve::Options {
            any_loop: opts.loopgame.any_loop,
            proof_nodes: None,
        };
        solve::solve(p, &rules, limits)
    }

    fn check(p: &Puzzle, s: &Found, opts: &Options) -> std::result::Result<(), String> {
        super::check::check(p, &s.cycle, opts.loopgame.any_loop)
    }

    fn render(p: &Puzzle, s: &Found) -> (String, String) {
        let mut board = render(p.cols, p.rows, &s.cycle).join("\n");
        board.push('\n');
        let summary = format!(
            "{} of {} cells on the loop, {}",
            s.cycle.len(),
            p.cells(),
            if s.unique {
                "unique"
            } else {
                "not proven unique"
            }
        );
        (board, summary)
    }

    fn solve_detail(p: &Puzzle, outcome: &Outcome<Found>, opts: &Options, _: bool) -> Detail {
        let found = outcome.solution();
        Detail::of(&SolveJson {
            width: p.cols,
            height: p.rows,
            rows: p.rows(),
            any_loop: opts.loopgame.any_loop,
            cycle: found.map(|f| f.cycle.clone()),
            unique: found.map(|f| f.unique),
        })
    }

    fn read(image: &RgbaImage, opts: &Options) -> Result<Reading> {
        vision::recognize_with(image, opts.calibration.as_deref())
    }

    /// The win sheet hides the board but is the Loop app's own.
    fn detect(image: &RgbaImage) -> Result<()> {
        if vision::win_sheet(image).is_some() {
            return Ok(());
        }
        vision::recognize(image).map(|_| ())
    }

    fn posed(r: &Reading, _label: &str, _opts: &Options) -> Result<Puzzle> {
        Ok(r.puzzle.clone())
    }

    fn canonical(_r: &Reading, p: &Puzzle) -> Result<String> {
        Ok(to_canonical(p))
    }

    const FORMATS: &'static [Format] = super::format::FORMATS;

    fn write(p: &Puzzle, f: &Format) -> Result<String> {
        super::format::write(p, f)
    }

    crate::games::pipeline::reading_fields!();

    fn scan_detail(r: &Reading, p: &Puzzle, canonical: &str) -> Detail {
        Detail::of(&ScanJson {
            // A digit per hint cell, `.` elsewhere.
            grid: Grid {
                width: p.cols,
                height: p.rows,
                rows: p.rows(),
                puzzle: canonical.to_string(),
            },
            theme: r.theme,
            path: r.path.clone(),
            closed: r.closed,
        })
    }

    fn draw_reading(img: &mut RgbaImage, r: &Reading) {
        super::overlay::draw(img, r);
    }

    fn draw_solution(img: &mut RgbaImage, r: &Reading, p: &Puzzle, s: &Found) {
        super::overlay::draw_solution(img, r, p, s);
    }

    /// `k` links of the loop in one drag (k + 1 cells): one link is the smallest move a
    /// player draws.
    fn hint(
        _r: &Reading,
        _p: &Puzzle,
        s: &Found,
        k: usize,
        _opts: &Options,
    ) -> Result<(Found, Vec<String>)> {
        let (cells, lines) = play::hint(&s.cycle, s.unique, k);
        let stretch = Found {
            cycle: cells,
            closed: false,
            unique: s.unique,
        };
        Ok((stretch, lines))
    }

    /// The board must show exactly the stretch, as an open path, either way round.
    fn hint_differences(
        _r: &Reading,
        _p: &Puzzle,
        stretch: &Found,
        after: &Screen,
        opts: &Options,
    ) -> Result<Vec<String>> {
        let again = vision::recognize_with(&after.image, opts.calibration.as_deref())?;
        let reversed: Vec<_> = again.path.iter().rev().copied().collect();
        if !again.closed && (again.path == stretch.cycle || reversed == stretch.cycle) {
            return Ok(Vec::new());
        }
        Ok(vec![format!(
            "the board shows a {} path of {} cells, the hint {} cells",
            if again.closed { "closed" } else { "open" },
            again.path.len(),
            stretch.cycle.len()
        )])
    }

    fn next_puzzle(r: &Reading, after: &RgbaImage) -> Next {
        play::next_puzzle(r, after)
    }

    fn plan(r: &Reading, _p: &Puzzle, s: &Found, screen: &Screen, out: &mut Plan) -> Result<()> {
        play::plan(r, &s.cycle, s.closed, screen, out);
        Ok(())
    }

    /// After play the app shows its "Perfect loop!" sheet: over the board, dimming the page,
    /// or in a narrow window from the bottom, with the won loop green above it. Either is the
    /// win.
    fn differences(
        r: &Reading,
        _p: &Puzzle,
        s: &Found,
        after: &Screen,
        opts: &Options,
    ) -> Result<Vec<String>> {
        if vision::win_sheet(&after.image).is_some()
            || vision::shows_loop_won(&after.image, &r.geometry, r.theme, &s.cycle)
        {
            return Ok(Vec::new());
        }
        let again = vision::recognize_with(&after.image, opts.calibration.as_deref())?;
        Ok(vec![format!(
            "no win sheet: the board shows a {} path of {} cells",
            if again.closed { "closed" } else { "open" },
            again.path.len()
        )])
    }

    const LEARNS: bool = true;

    fn calibrate(known: Vec<(String, RgbaImage, Puzzle)>) -> Result<Profile> {
        vision::learn(&known)
    }
}

#[cfg(test)]
mod tests {
    use crate::games::pipeline::Pipeline;
    use crate::games::{Game, Options};

    fn solved(text: &str) -> (serde_json::Value, String) {
        let s = Pipeline::<super::LoopGame>::new()
            .solve(text, "t", &Options::default())
            .unwrap();
        (serde_json::to_value(&s.report).unwrap(), s.text)
    }

    #[test]
    fn json_carries_cycle_and_unique() {
        let (v, text) = solved("....\n....\n");
        assert_eq!(v["status"], "solved");
        assert_eq!(v["game"], "loop");
        assert_eq!(v["cycle"].as_array().unwrap().len(), 8);
        assert_eq!(v["cycle"][0], serde_json::json!([0, 0]));
        assert_eq!(v["unique"], true);
        assert!(text.starts_with("┌──┐\n└──┘\n"), "{text}");
    }

    #[test]
    fn unsolvable_has_no_cycle() {
        let (v, text) = solved("...\n...\n...\n");
        assert_eq!(v["status"], "unsolvable");
        assert!(v.get("cycle").is_none());
        assert!(text.contains("no loop"));
    }
}
