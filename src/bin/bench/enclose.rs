//! enclose.horse bars: every corpus level and generated levels solved to proven optimality,
//! each answer re-scored by the game's flood fill and compared with the official optimum.

use autoplayer::games::enclose::generate::Layout;
use autoplayer::games::enclose::model::{Level, Variant};
use autoplayer::games::enclose::{check, format, generate, solve};
use autoplayer::report::Status;
use std::path::Path;
use std::time::{Duration, Instant};

struct Row {
    ms: f64,
    ok: bool,
    size: (usize, usize),
}

/// Solves one level and says how it went on standard error as `name`; a failure's line, as
/// `what`, goes to `failures`.
fn solve_noted(
    name: &str,
    what: &str,
    level: &Level,
    expected: Option<i32>,
    failures: &mut Vec<String>,
) -> Row {
    let (row, note) = solve_one(level, expected);
    eprintln!(
        "{name} {}x{} budget {}: {note}",
        level.rows, level.cols, level.budget
    );
    if !row.ok {
        failures.push(format!("{what}: {note}"));
    }
    row
}

fn solve_one(level: &Level, expected: Option<i32>) -> (Row, String) {
    let deadline = Instant::now()
        + Duration::from_secs(
            std::env::var("ENCLOSE_BENCH_LIMIT_S")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(10),
        );
    let limits = autoplayer::solving::Limits {
        deadline: Some(deadline),
        ..Default::default()
    };
    let start = Instant::now();
    let outcome = solve::solve(level, &limits);
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let status = outcome.status();
    // Unsolvable: no walls, score and bound 0, the time measured here.
    let sol = outcome.into_solution().unwrap_or_default();
    let ms = if status == Status::Unsolvable {
        ms
    } else {
        sol.elapsed_ms
    };
    let rescored = check::score(level, &sol.walls);
    let proven = status == Status::Optimal;
    // A generated map may admit no pen at all: proven unsolvable is then the right answer.
    let ok = (proven && rescored == Ok(sol.score) && expected.is_none_or(|e| e == sol.score))
        || (status == Status::Unsolvable && expected.is_none());
    let note = format!(
        "status {:?} score {} bound {} rescored {:?} expected {:?} {:.1} ms {} nodes",
        status, sol.score, sol.bound, rescored, expected, ms, sol.nodes
    );
    (
        Row {
            ms,
            ok,
            size: (level.rows, level.cols),
        },
        note,
    )
}

fn stats(rows: &[Row]) -> (f64, f64, f64, f64) {
    let mut ms: Vec<f64> = rows.iter().map(|r| r.ms).collect();
    ms.sort_by(f64::total_cmp);
    let median = if ms.is_empty() { 0.0 } else { ms[ms.len() / 2] };
    let mean = ms.iter().sum::<f64>() / ms.len().max(1) as f64;
    let max = ms.last().copied().unwrap_or(0.0);
    let big = rows
        .iter()
        .filter(|r| r.size.0 * r.size.1 >= 900)
        .map(|r| r.ms)
        .fold(0.0, f64::max);
    (median, mean, max, big)
}

fn line(name: &str, rows: &[Row], anchor: &str, bar: &str) -> String {
    let (median, mean, max, big) = stats(rows);
    let ok = rows.iter().filter(|r| r.ok).count();
    format!(
        "| {name} | {} | {ok}/{} | {median:.1} | {mean:.1} | {max:.1} | {} | {anchor} | {bar} |\n",
        rows.len(),
        rows.len(),
        if big > 0.0 {
            format!("{big:.1}")
        } else {
            "–".into()
        },
    )
}

fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

pub fn run(corpus: &Path) -> anyhow::Result<String> {
    let (machine, load) = crate::report::machine_and_load();
    let path = corpus.join("enclose/levels.jsonl");
    let text = std::fs::read_to_string(&path)?;
    let mut groups: Vec<(String, Vec<Row>)> = Vec::new();
    let mut failures = Vec::new();
    let push = |groups: &mut Vec<(String, Vec<Row>)>, key: String, row: Row| match groups
        .iter_mut()
        .find(|g| g.0 == key)
    {
        Some(g) => g.1.push(row),
        None => groups.push((key, vec![row])),
    };
    // ENCLOSE_BENCH_FILTER=<substring of ids> runs only those corpus levels (and, unless it is
    // empty, no generated ones); ENCLOSE_BENCH_GENERATED=<n> sets the generated levels per variant.
    let filter = std::env::var("ENCLOSE_BENCH_FILTER").ok();
    let generated: u64 = std::env::var("ENCLOSE_BENCH_GENERATED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if filter.is_some() { 0 } else { 200 });
    // ENCLOSE_BENCH_GEN_FROM=<seed>: the first generated seed (default 0).
    let gen_from: u64 = std::env::var("ENCLOSE_BENCH_GEN_FROM")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    for l in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(l)?;
        let id = v["id"].as_str().unwrap_or("?").to_string();
        if filter.as_ref().is_some_and(|f| !id.contains(f.as_str())) {
            continue;
        }
        let real = v.get("date").is_some();
        let level = format::parse(l, &id, None)?;
        let expected = v["optimal"].as_i64().map(|e| e as i32);
        let row = solve_noted(&id, &id, &level, expected, &mut failures);
        let key = if real {
            format!("real {}", level.variant)
        } else {
            "corpus generated/test maps".to_string()
        };
        push(&mut groups, key, row);
    }
    // ENCLOSE_BENCH_VARIANTS=<names, comma-separated>: only these generated variants.
    let variants = std::env::var("ENCLOSE_BENCH_VARIANTS").ok();
    // The four rounds on archive-like maps, then the open-field stress profile of the main
    // round (named `open-field` in ENCLOSE_BENCH_VARIANTS).
    let runs = [
        (Variant::Main, Layout::Archive),
        (Variant::Lovebirds, Layout::Archive),
        (Variant::CostlyWalls, Layout::Archive),
        (Variant::Quarrel, Layout::Archive),
        (Variant::Main, Layout::OpenField),
    ];
    for (variant, layout) in runs {
        let name = match layout {
            Layout::Archive => variant.to_string(),
            Layout::OpenField => "open-field".to_string(),
        };
        if variants.as_ref().is_some_and(|v| {
            !v.split(',').any(|n| {
                n.trim() == name
                    || (layout == Layout::Archive && Variant::from_name(n.trim()) == Some(variant))
            })
        }) {
            continue;
        }
        for seed in gen_from..gen_from + generated {
            let base = match layout {
                Layout::Archive => generate::Params::for_seed(seed),
                Layout::OpenField => generate::Params::open_field_for_seed(seed),
            };
            let params = generate::Params { variant, ..base };
            let level = generate::generate(seed, &params);
            let row = solve_noted(
                &format!("gen-{name}-{seed}"),
                &format!("generated {name} seed {seed}"),
                &level,
                None,
                &mut failures,
            );
            let key = match layout {
                Layout::Archive => format!("generated {variant}"),
                Layout::OpenField => "stress: open-field main".to_string(),
            };
            push(&mut groups, key, row);
        }
    }
    let mut out = String::from("## enclose.horse\n\n");
    out.push_str(&format!(
        "Release build, one process; machine: {machine}, load average {load} at the start; each \
         search shares its tree among the cores (2 threads here). A level counts as matched \
         when the solver proves optimality, the game's flood fill re-scores its walls to the same \
         score, and (corpus) that score equals the official optimum.\n\n"
    ));
    out.push_str("| levels | count | matched & proven | median ms | mean ms | max ms | 30×30 max ms | anchor | bar |\n");
    out.push_str("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (key, rows) in &groups {
        let (anchor, bar) = if key == "real main" {
            (
                "PuLP MILP + CBC: median 230, mean 590, max 4600 ms (HiGHS median 180, max 9100)",
                "all proven; median ≤ 20 ms (≤ 23 = CBC/10), max ≤ 1000 ms",
            )
        } else if key.starts_with("stress") {
            (
                "CP-SAT flow model: 30×30 not proven in 120 s",
                "none: a stress profile (the old generator's open maps), reported beyond the bars",
            )
        } else if key.starts_with("generated") {
            (
                "CP-SAT flow model: 30×30 not proven in 120 s",
                "median ≤ 20 ms, max ≤ 1000 ms, 30×30 ≤ 2000 ms",
            )
        } else {
            ("–", "median ≤ 20 ms, max ≤ 1000 ms")
        };
        out.push_str(&line(key, rows, anchor, bar));
    }
    out.push_str(&format!(
        "\nPeak memory (VmHWM): {:.1} MiB (bar ≤ 1024 MiB).\n",
        peak_kib() as f64 / 1024.0
    ));
    if failures.is_empty() {
        out.push_str("\nNo failures.\n");
    } else {
        out.push_str("\nFailures:\n\n");
        for f in &failures {
            out.push_str(&format!("* {f}\n"));
        }
    }
    print!("{out}");
    Ok(out)
}
