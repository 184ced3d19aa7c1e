//! Hashi bars: the janko set, the Bridges app's corpus puzzles, and fresh 40×40 hard puzzles
//! from the app's own generator. Only `solve` is inside the timed region.

use crate::report::{machine_and_load, stats};
use anyhow::{bail, Context};
use autoplayer::games::hashi::model::{Bridges, Puzzle};
use autoplayer::games::hashi::solve::{self, Found};
use autoplayer::games::hashi::{check, format};
use autoplayer::solving::{Limits, Outcome};
use serde_json::Value;
use std::fmt::Write;
use std::path::Path;
use std::time::Instant;

const GENERATE: &str = "40x40i30e10m2d2";

/// `[[x1, y1, x2, y2, n], ...]` with x = column, as both corpora store solutions.
fn bridges_from_xy(v: &Value) -> anyhow::Result<Bridges> {
    Ok(format::bridges_from_json(
        v,
        format::CellOrder::ColumnFirst,
        "solution_bridges",
    )?)
}

/// Other work on this small machine stretches single runs, so each puzzle is solved `RUNS`
/// times and the fastest counts; `solve` alone is timed. The answer is checked afterwards.
const RUNS: usize = 3;

/// The fastest and slowest of the runs, the answer, and whether it was proven unique.
fn timed(p: &Puzzle, name: &str) -> anyhow::Result<(f64, f64, Bridges, bool)> {
    let (mut ms, mut worst) = (f64::MAX, 0f64);
    let mut outcome = Outcome::GaveUp(None);
    for _ in 0..RUNS {
        let start = Instant::now();
        outcome = solve::solve(p, &Limits::default());
        let run = start.elapsed().as_secs_f64() * 1000.0;
        ms = ms.min(run);
        worst = worst.max(run);
    }
    let Outcome::Solved(Found { bridges, unique }) = outcome else {
        bail!("{name}: not solved ({outcome:?})");
    };
    check::check(p, &bridges).map_err(|e| anyhow::anyhow!("{name}: bad answer: {e}"))?;
    Ok((ms, worst, bridges, unique))
}

fn read_jsonl(path: &Path) -> anyhow::Result<Vec<(String, Value)>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Ok((l.to_string(), serde_json::from_str(l)?)))
        .collect()
}

fn machine() -> String {
    let (machine, load) = machine_and_load();
    format!(
        "Machine: {machine}, load average {load} at the start; release build; \
         each puzzle solved {RUNS} times, the fastest run counts."
    )
}

pub fn run(corpus: &Path) -> anyhow::Result<String> {
    let mut out = String::from("## Hashi\n\n");
    writeln!(out, "{}\n", machine())?;
    out.push_str(
        "| set | count | result | mean ms | median ms | max ms | anchor (CP-SAT) | bar | met |\n",
    );
    out.push_str("|---|---|---|---|---|---|---|---|---|\n");

    let janko = read_jsonl(&corpus.join("hashi/sets/puzzlekit-janko/hashi.jsonl"))?;
    let (mut times, mut unique, mut matched, mut worst) = (Vec::new(), 0, 0, 0f64);
    for (line, v) in &janko {
        let name = v["name"].as_str().unwrap_or("janko");
        let p = format::parse(line, name)?;
        let (ms, slowest, bridges, u) = timed(&p, name)?;
        worst = worst.max(slowest);
        times.push(ms);
        unique += usize::from(u);
        matched += usize::from(bridges == bridges_from_xy(&v["solution_bridges"])?);
    }
    let s = stats(&times);
    let met = unique == janko.len() && matched == janko.len() && s.mean <= 2.0 && s.max <= 25.0;
    writeln!(
        out,
        "| janko (puzzlekit) | {} | {unique} proven unique, {matched} equal janko's solution; slowest single run {worst:.3} ms | {:.3} | {:.3} | {:.3} | mean 11.5, max 99 | all unique, mean ≤ 2, max ≤ 25 | {} |",
        janko.len(),
        s.mean,
        s.median,
        s.max,
        if met { "yes" } else { "no" }
    )?;

    let app = read_jsonl(&corpus.join("hashi/bridges.jsonl"))?;
    let (mut times, mut unique, mut matched) = (Vec::new(), 0, 0);
    for (line, v) in &app {
        let name = v["id"].as_str().unwrap_or("bridges.jsonl");
        let p = format::parse(line, name)?;
        let (ms, _, bridges, u) = timed(&p, name)?;
        times.push(ms);
        if u {
            unique += 1;
            matched += usize::from(bridges == bridges_from_xy(&v["solution_bridges"])?);
        }
    }
    let s = stats(&times);
    writeln!(
        out,
        "| bridges.jsonl (app) | {} | {unique} unique, {matched} of them equal the app's solution | {:.3} | {:.3} | {:.3} | - | all solved, equal where unique | {} |",
        app.len(),
        s.mean,
        s.median,
        s.max,
        if matched == unique { "yes" } else { "no" }
    )?;

    let ids = std::process::Command::new("/usr/games/sgt-bridges")
        .args(["--generate", "5", GENERATE])
        .output()
        .context("running sgt-bridges --generate")?;
    let ids = String::from_utf8(ids.stdout)?;
    let mut times = Vec::new();
    let mut unique = 0;
    for id in ids.lines().filter(|l| !l.trim().is_empty()) {
        let p = format::parse(id, "sgt-bridges --generate")?;
        let (ms, _, _, u) = timed(&p, id)?;
        times.push(ms);
        unique += usize::from(u);
    }
    if times.is_empty() {
        bail!("sgt-bridges --generate 5 {GENERATE} printed no game IDs");
    }
    let s = stats(&times);
    writeln!(
        out,
        "| 40×40 hard, generated now (`--generate 5 {GENERATE}`) | {} | {unique} proven unique; per puzzle ms: {} | {:.3} | {:.3} | {:.3} | ~13 | each ≤ 10 | {} |",
        times.len(),
        times.iter().map(|t| format!("{t:.2}")).collect::<Vec<_>>().join(", "),
        s.mean,
        s.median,
        s.max,
        if s.max <= 10.0 { "yes" } else { "no" }
    )?;
    Ok(out)
}
