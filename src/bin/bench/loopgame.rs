//! Loop bars: every real daily of the corpus with both hint sets, and generated 20×20 and
//! 30×30 puzzles with hints on 30% of the cells. Only `solve` is inside the timed region; each
//! answer is checked afterwards (a loop through every cell meeting every hint).

use crate::report::{machine_and_load, met, stats};
use anyhow::{bail, Context};
use autoplayer::games::loopgame::check::check;
use autoplayer::games::loopgame::format::{parse_record, HintSet};
use autoplayer::games::loopgame::generate::{generate, Hints};
use autoplayer::games::loopgame::model::Puzzle;
use autoplayer::games::loopgame::solve::{self, Found, Options};
use autoplayer::solving::{Limits, Outcome};
use std::fmt::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// Other work on this small machine stretches single runs, so a quick puzzle is solved up to
/// `RUNS` times and the fastest counts; one slower than `REPEAT_BELOW_MS` is timed once.
const RUNS: usize = 3;
const REPEAT_BELOW_MS: f64 = 50.0;

/// Each solve stops after this long, so a hopeless puzzle costs the bench a bounded time.
const DEADLINE_S: u64 = 5;

/// The fastest run in ms, or `None` when the solver gave up at the deadline; and whether the
/// loop was proven unique.
fn timed(p: &Puzzle, name: &str) -> anyhow::Result<(Option<f64>, bool)> {
    let mut best = f64::MAX;
    let mut outcome = Outcome::GaveUp(None);
    for _ in 0..RUNS {
        let limits = Limits::within(Some(Duration::from_secs(DEADLINE_S)));
        let start = Instant::now();
        outcome = solve::solve(p, &Options::default(), &limits);
        best = best.min(start.elapsed().as_secs_f64() * 1000.0);
        if best > REPEAT_BELOW_MS {
            break;
        }
    }
    let (cycle, unique) = match outcome {
        Outcome::Solved(Found { cycle, unique, .. }) => (cycle, unique),
        Outcome::GaveUp(_) => return Ok((None, false)),
        Outcome::Unsolvable => bail!("{name}: reported unsolvable, yet it has a loop"),
        Outcome::Optimal(_) => bail!("{name}: a loop has no optimum"),
    };
    check(p, &cycle, false).map_err(|e| anyhow::anyhow!("{name}: bad answer: {e}"))?;
    Ok((Some(best), unique))
}

fn machine() -> String {
    let (machine, load) = machine_and_load();
    format!(
        "Machine: {machine}, load average {load} at the start; release build; each puzzle \
         solved up to {RUNS} times (once when slower than {REPEAT_BELOW_MS} ms), the fastest \
         run counts; every answer checked (closed, every cell once, every hint met); each \
         solve stops at {DEADLINE_S} s. The solver searches the four rotations in turns of {} \
         nodes; times include the uniqueness search (budget {} nodes after the first loop).",
        solve::SLICE_NODES,
        solve::DEFAULT_PROOF_NODES
    )
}

pub fn run(corpus: &Path) -> anyhow::Result<String> {
    let mut out = String::from("## Loop\n\n");
    writeln!(out, "{}\n", machine())?;
    out.push_str("| set | count | proven unique | mean ms | median ms | max ms | anchor (CP-SAT) | bar | met |\n");
    out.push_str("|---|---|---|---|---|---|---|---|---|\n");

    let path = corpus.join("loop/daily.jsonl");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let records: Vec<(&str, serde_json::Value)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Ok((l, serde_json::from_str(l)?)))
        .collect::<anyhow::Result<_>>()?;
    let mut all = Vec::new();
    for size in [4u64, 6, 8] {
        for set in [HintSet::Control, HintSet::Dense] {
            let (mut times, mut unique) = (Vec::new(), 0);
            for (line, v) in records.iter().filter(|(_, v)| v["size"] == size) {
                let name = format!("{} {}", v["date"].as_str().unwrap_or("?"), set.field());
                let p = parse_record(line, &name, set)?;
                let (ms, u) = timed(&p, &name)?;
                times.push(ms.with_context(|| format!("{name}: gave up"))?);
                unique += usize::from(u);
            }
            all.extend_from_slice(&times);
            let s = stats(&times);
            let (anchor, bar, ok) = if size == 8 {
                (
                    "median 12",
                    "median ≤ 0.2, max ≤ 5",
                    s.median <= 0.2 && s.max <= 5.0,
                )
            } else {
                ("-", "max ≤ 5", s.max <= 5.0)
            };
            let what = format!("dailies {size}×{size}, `{}`", set.field());
            let unique = unique.to_string();
            row(&mut out, &what, &times, &unique, anchor, bar, ok)?;
        }
    }
    let s = stats(&all);
    let ok = s.median <= 0.2 && s.max <= 5.0;
    let bar = "median ≤ 0.2, max ≤ 5";
    row(&mut out, "all dailies, both sets", &all, "-", "-", bar, ok)?;

    for (size, seeds, anchor, bar_ms) in [
        (20usize, 50u32, "mean 600, max 1100", 100.0),
        (30, 20, "-", 2000.0),
    ] {
        let (mut times, mut unique, mut fallback, mut gave_up) = (Vec::new(), 0, 0, 0);
        for seed in 0..seeds {
            let g = generate(size, size, &Hints::Fraction(0.3), seed)?;
            fallback += usize::from(g.fallback);
            let (ms, u) = timed(&g.puzzle, &format!("{size}x{size} seed {seed}"))?;
            match ms {
                Some(ms) => times.push(ms),
                None => gave_up += 1,
            }
            unique += usize::from(u);
        }
        let s = stats(&times);
        let ok = gave_up == 0 && s.max <= bar_ms;
        let what = format!(
            "generated {size}×{size}, 30% hints, seeds 0..{seeds} ({fallback} from the tree \
             fallback), {gave_up} gave up at {DEADLINE_S} s (not in the times)"
        );
        let bar = format!("each ≤ {bar_ms}");
        let unique = unique.to_string();
        row(&mut out, &what, &times, &unique, anchor, &bar, ok)?;
    }
    Ok(out)
}

/// One row of the Loop solver table: what was solved, how many and their times in ms, how
/// many proved unique, the anchor, the bar and whether it is met.
#[allow(clippy::too_many_arguments)]
fn row(
    out: &mut String,
    what: &str,
    times: &[f64],
    unique: &str,
    anchor: &str,
    bar: &str,
    ok: bool,
) -> std::fmt::Result {
    let s = stats(times);
    writeln!(
        out,
        "| {what} | {} | {unique} | {:.3} | {:.3} | {:.3} | {anchor} | {bar} | {} |",
        times.len(),
        s.mean,
        s.median,
        s.max,
        met(ok)
    )
}
