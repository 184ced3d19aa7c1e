//! Hashi / Bridges: formats, solver, recognition and play.

pub mod format;
pub mod model;
pub mod overlay;
pub mod play;
pub mod solve;
pub mod vision;

use crate::calibration::Profile;
use crate::error::Result;
use crate::games::{Game, Options, Prepared, Sample, Scanned, Solved, Status, Verify};
use crate::plan::Plan;
use crate::report::{Detail, ScanReport, SolveReport};
use crate::screen::Screen;
use model::{Bridge, Bridges, Puzzle};
use serde::{Serialize, Serializer};
use std::time::Instant;

pub struct Hashi;

/// Hashi's own options.
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
    pub width: usize,
    pub height: usize,
    /// A digit per island, `.` elsewhere.
    pub rows: Vec<String>,
    /// The canonical text.
    pub puzzle: String,
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

/// A solve as hashi keeps it until the report is made.
struct Outcome {
    status: Status,
    elapsed_ms: f64,
    json: SolveJson,
    text: String,
}

impl Outcome {
    fn bridges(&self) -> Option<&Bridges> {
        self.json.solution.as_ref().map(|s| &s.bridges)
    }

    fn into_solved(self) -> Solved {
        Solved {
            report: SolveReport {
                game: "hashi",
                status: self.status,
                elapsed_ms: self.elapsed_ms,
                detail: Detail::of(&self.json),
            },
            text: self.text,
        }
    }
}

fn solve_puzzle(puzzle: &Puzzle, opts: &Options) -> Outcome {
    let limits = solve::Limits {
        deadline: opts.timeout.map(|t| Instant::now() + t),
        ..Default::default()
    };
    let start = Instant::now();
    let outcome = solve::solve(puzzle, &limits);
    let elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    let (status, solution) = match outcome {
        solve::Outcome::Solved { bridges, unique } => {
            (Status::Solved, Some(SolutionJson { bridges, unique }))
        }
        solve::Outcome::Unsolvable => (Status::Unsolvable, None),
        solve::Outcome::GaveUp => (Status::GaveUp, None),
    };
    let text = match &solution {
        Some(SolutionJson { bridges, unique }) => {
            let mut t = model::render_with_bridges(puzzle, bridges).join("\n");
            t.push_str(&format!(
                "\n{} bridges, {} solution, {elapsed_ms:.2} ms\n",
                bridges.iter().map(|x| x.count as usize).sum::<usize>(),
                if *unique { "unique" } else { "not unique" },
            ));
            t
        }
        None => format!(
            "{}\n",
            match status {
                Status::Unsolvable => "no solution exists",
                _ => "gave up (time or node limit) before finding a solution",
            }
        ),
    };
    Outcome {
        status,
        elapsed_ms,
        json: SolveJson {
            rows: puzzle.rows(),
            solution,
            max_bridges: None,
        },
        text,
    }
}

fn scan_reading(screen: &Screen, opts: &Options) -> Result<(vision::Reading, Scanned)> {
    let mut reading = vision::recognize_with(&screen.image, opts.calibration.as_deref())?;
    if let Some(m) = opts.hashi.max_bridges {
        if reading.puzzle.islands.iter().any(|i| i.target > 4 * m) {
            return Err(crate::error::Error::Usage(format!(
                "--max-bridges {m} is too few for an island of {} on this board",
                reading
                    .puzzle
                    .islands
                    .iter()
                    .map(|i| i.target)
                    .max()
                    .unwrap_or(0)
            )));
        }
        reading.puzzle.max_bridges = m;
    }
    let puzzle = format::to_canonical(&reading.puzzle);
    let report = ScanReport {
        game: "hashi",
        geometry: reading.geometry,
        confidence: reading.confidence,
        detail: Detail::of(&ScanJson {
            style: reading.style,
            width: reading.puzzle.width,
            height: reading.puzzle.height,
            rows: reading.puzzle.rows(),
            puzzle: puzzle.clone(),
            game_id: format::to_game_id(&reading.puzzle),
            bridges: reading.bridges.clone(),
        }),
    };
    let mut overlay = screen.image.clone();
    overlay::draw(&mut overlay, &reading);
    let scanned = Scanned {
        report,
        puzzle,
        overlay,
    };
    Ok((reading, scanned))
}

struct HashiCheck {
    reading: vision::Reading,
    target: Bridges,
    profile: Option<std::sync::Arc<Profile>>,
}

impl Verify for HashiCheck {
    fn verify(&self, after: &Screen) -> Result<Vec<String>> {
        let again = vision::recognize_with(&after.image, self.profile.as_deref())?;
        Ok(play::differences(
            &again,
            &self.reading.puzzle,
            &self.target,
        ))
    }
}

impl Game for Hashi {
    fn name(&self) -> &'static str {
        "hashi"
    }

    fn solve(&self, text: &str, source: &str, opts: &Options) -> Result<Solved> {
        let puzzle = format::parse(text, source)?;
        Ok(solve_puzzle(&puzzle, opts).into_solved())
    }

    fn scan(&self, screen: &Screen, opts: &Options) -> Result<Scanned> {
        Ok(scan_reading(screen, opts)?.1)
    }

    fn detect(&self, screen: &Screen) -> Result<()> {
        vision::recognize(&screen.image).map(|_| ())
    }

    fn calibrate(&self, samples: &[Sample]) -> Result<Profile> {
        let mut known = Vec::new();
        for s in samples {
            let puzzle = format::parse(&s.puzzle, &s.puzzle_source)?;
            known.push((s.name.clone(), s.screen.image.clone(), puzzle));
        }
        vision::learn(&known)
    }

    fn prepare(&self, screen: &Screen, opts: &Options) -> Result<Prepared> {
        let (mut reading, scanned) = scan_reading(screen, opts)?;
        let mut solved = solve_puzzle(&reading.puzzle, opts);
        // The Bridges app never shows its bridge limit; 2 is its default. A board with no
        // solution under it is tried with the larger limits the app offers.
        let limit_hidden = reading.style == vision::Style::Sgt && opts.hashi.max_bridges.is_none();
        while limit_hidden && solved.status == Status::Unsolvable && reading.puzzle.max_bridges < 4
        {
            reading.puzzle.max_bridges += 1;
            solved = solve_puzzle(&reading.puzzle, opts);
            let note = format!(
                "no solution with fewer bridges per pair: solved with at most {} (--max-bridges)\n",
                reading.puzzle.max_bridges
            );
            if solved.status != Status::Unsolvable {
                solved.text.push_str(&note);
            }
        }
        solved.json.max_bridges = Some(reading.puzzle.max_bridges);
        let target = solved.bridges().cloned();
        let plan = match &target {
            Some(t) => play::plan(&reading, t, screen)?,
            None => Plan::new(screen.rect_to_screen(reading.geometry.board)),
        };
        Ok(Prepared {
            scanned,
            solved: solved.into_solved(),
            plan,
            check: Box::new(HashiCheck {
                reading,
                target: target.unwrap_or_default(),
                profile: opts.calibration.clone(),
            }),
        })
    }
}
