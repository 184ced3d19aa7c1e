//! Flow Free bars: every app level (by variant and by size), mzucker's and samgoldman's
//! puzzles, and mzucker's unsolvable board. Only `solve` is timed; every answer is then
//! checked by the validator.

use crate::report::{machine_and_load, met, stats};
use anyhow::Context;
use autoplayer::games::flow::check::check;
use autoplayer::games::flow::format::{self, PackLevel};
use autoplayer::games::flow::model::Solution;
use autoplayer::games::flow::model::{Puzzle, Variant};
use autoplayer::games::flow::solve;
use autoplayer::solving::{Limits, Outcome};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Four times the app levels' bar and the samgoldman bar itself: a level past it counts as
/// failed, and the whole run stays short.
const DEADLINE: Duration = Duration::from_secs(2);

/// Branches and SAT decisions over the run: unlike times, the same on a loaded machine, so
/// solver changes can be compared while other builds run.
static EFFORT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Solves once, checks the answer, returns milliseconds and whether it was solved.
fn timed(p: &Puzzle, name: &str) -> anyhow::Result<(f64, Outcome<Solution>)> {
    let start = Instant::now();
    let (outcome, effort) = solve::solve_counted(
        p,
        &Limits {
            deadline: Some(start + DEADLINE),
            ..Limits::default()
        },
    );
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    EFFORT.fetch_add(effort.branches, std::sync::atomic::Ordering::Relaxed);
    if std::env::var("FLOW_LEVEL").is_ok() {
        eprintln!("{name}: {ms:.1} ms, {} branches", effort.branches);
        eprintln!("{}", format::to_text(p).unwrap_or_default());
    }
    if let Outcome::Solved(s) = &outcome {
        check(p, s).map_err(|e| anyhow::anyhow!("{name}: bad answer: {e}"))?;
    }
    Ok((ms, outcome))
}

fn variant_name(p: &Puzzle) -> &'static str {
    let holes = p.cells.len() < p.rows * p.cols;
    let walls = p.cells.iter().enumerate().any(|(k, c)| {
        let open = [(0, 1), (1, 0)]
            .iter()
            .filter(|&&(dr, dc)| p.cell_at(c.row + dr, c.col + dc).is_some());
        open.clone().any(|&(dr, dc)| {
            p.link_between(k, p.cell_at(c.row + dr, c.col + dc).unwrap())
                .is_none()
        })
    });
    match p.variant {
        Variant::Hex => "hex",
        Variant::Warps => "warps",
        Variant::Bridges => "bridges",
        Variant::Standard if holes || walls => "holes / walls",
        Variant::Standard => "standard",
    }
}

fn size_group(p: &Puzzle) -> &'static str {
    match p.rows.max(p.cols) {
        0..=7 => "5–7",
        8..=9 => "8–9",
        10..=12 => "10–12",
        13..=15 => "13–15",
        _ => "16–19",
    }
}

fn txt_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.retain(|p| p.extension().is_some_and(|e| e == "txt"));
    files.sort();
    Ok(files)
}

fn machine() -> String {
    let (machine, load) = machine_and_load();
    format!(
        "Machine: {machine}, load average {load} at the start (other builds share it); \
         release build; each puzzle solved once, single-threaded, then validated."
    )
}

/// `FLOW_ONLY=levelpack_14,levelpack_21,samgoldman` runs only those packs (file stems) and
/// puzzle sets (`mzucker`, `samgoldman`), for quick looks while working on the solver; the
/// section it writes then says so and is not for committing. `FLOW_LEVEL=52` further keeps
/// only levels of that number and prints each one with its effort.
fn chosen() -> Option<Vec<String>> {
    let only = std::env::var("FLOW_ONLY").ok()?;
    Some(only.split(',').map(|s| s.trim().to_string()).collect())
}

fn wanted(name: &str) -> bool {
    chosen().is_none_or(|c| c.iter().any(|n| n == name))
}

pub fn run(corpus: &Path) -> anyhow::Result<String> {
    let flow = corpus.join("flow/puzzles");
    let mut out = String::from("## Flow Free\n\n");
    writeln!(out, "{}\n", machine())?;
    if let Some(c) = chosen() {
        writeln!(out, "Subset only (FLOW_ONLY): {}.\n", c.join(", "))?;
    }

    let mut levels: Vec<(String, PackLevel)> = Vec::new();
    for f in txt_files(&flow.join("bigduck_levelpacks_via_nubango"))? {
        let name = f
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        if !wanted(&name) {
            continue;
        }
        let text = std::fs::read_to_string(&f)?;
        for lvl in format::parse_pack(&text, &f.display().to_string())? {
            levels.push((name.clone(), lvl));
        }
    }
    let mut rows: Vec<(&str, &str, f64)> = Vec::new();
    let mut failed = Vec::new();
    let mut slowest: Vec<(f64, String)> = Vec::new();
    // Pack, its largest side, its times.
    let mut packs: Vec<(String, usize, Vec<f64>)> = Vec::new();
    // `FLOW_PICK=levelpack_21:62,levelpack_2:15` keeps only those levels (with `FLOW_ONLY`
    // naming their packs), for timing a set of hard ones together.
    let picked: Option<Vec<String>> = std::env::var("FLOW_PICK")
        .ok()
        .map(|p| p.split(',').map(|s| s.trim().to_string()).collect());
    for (pack, lvl) in &levels {
        let name = format!("{pack} level {}", lvl.level);
        if let Ok(only) = std::env::var("FLOW_LEVEL") {
            if only != lvl.level.to_string() {
                continue;
            }
        }
        if let Some(picked) = &picked {
            if !picked.contains(&format!("{pack}:{}", lvl.level)) {
                continue;
            }
        }
        let (ms, outcome) = timed(&lvl.puzzle, &name)?;
        if !matches!(outcome, Outcome::Solved(_)) {
            failed.push(format!("{name}: {outcome:?}"));
        }
        rows.push((variant_name(&lvl.puzzle), size_group(&lvl.puzzle), ms));
        slowest.push((ms, name));
        let side = lvl.puzzle.rows.max(lvl.puzzle.cols);
        match packs.last_mut() {
            Some((p, big, t)) if p == pack => {
                *big = (*big).max(side);
                t.push(ms);
            }
            _ => packs.push((pack.clone(), side, vec![ms])),
        }
    }
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    eprintln!(
        "effort (branches and decisions): {}",
        EFFORT.load(std::sync::atomic::Ordering::Relaxed)
    );
    eprintln!(
        "over 50 ms: {}, over 500 ms: {}, failed: {}",
        slowest.iter().filter(|s| s.0 > 50.0).count(),
        slowest.iter().filter(|s| s.0 > 500.0).count(),
        failed.len()
    );
    // `FLOW_SLOW=200` lists that many of the slowest levels instead of ten.
    let listed = std::env::var("FLOW_SLOW")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10);
    for (ms, name) in slowest.iter().take(listed) {
        eprintln!("slow: {name} {ms:.1} ms");
    }

    out.push_str("### App levels (7,287, Big Duck packs)\n\n");
    out.push_str(
        "| group | levels | median ms | p99 ms | max ms | total s |\n|---|---|---|---|---|---|\n",
    );
    let groups = [
        "standard",
        "holes / walls",
        "bridges",
        "hex",
        "warps",
        "5–7",
        "8–9",
        "10–12",
        "13–15",
        "16–19",
    ];
    for g in groups {
        let t: Vec<f64> = rows
            .iter()
            .filter(|r| r.0 == g || r.1 == g)
            .map(|r| r.2)
            .collect();
        let s = stats(&t);
        let label = if g.contains('–') {
            format!("larger side {g}")
        } else {
            g.to_string()
        };
        writeln!(
            out,
            "| {label} | {} | {:.3} | {:.2} | {:.1} | {:.2} |",
            s.count, s.median, s.p99, s.max, s.total_s
        )?;
    }
    let all: Vec<f64> = rows.iter().map(|r| r.2).collect();
    let s = stats(&all);
    writeln!(
        out,
        "| **all** | {} | {:.3} | {:.2} | {:.1} | {:.2} |\n",
        s.count, s.median, s.p99, s.max, s.total_s
    )?;
    writeln!(
        out,
        "Slowest: {}.\n",
        slowest
            .iter()
            .take(5)
            .map(|(ms, n)| format!("{n} {ms:.1} ms"))
            .collect::<Vec<_>>()
            .join(", ")
    )?;

    out.push_str(
        "Packs with a side of 12 or more:\n\n| pack | largest side | levels | median ms | p99 ms | max ms | total s |\n|---|---|---|---|---|---|---|\n",
    );
    for (pack, side, t) in packs.iter().filter(|p| p.1 >= 12) {
        let s = stats(t);
        writeln!(
            out,
            "| {pack} | {side} | {} | {:.3} | {:.2} | {:.1} | {:.2} |",
            s.count, s.median, s.p99, s.max, s.total_s
        )?;
    }
    out.push('\n');

    out.push_str("### Bars\n\n| set | figure | anchor | bar | met |\n|---|---|---|---|---|\n");
    let solved_all = failed.is_empty();
    writeln!(
        out,
        "| app levels | {} of {} solved and validated{} | mzucker C: 149/150 on pack 16 (one wrongly unsolvable), storage full on 45 of 14x14/jumbo/extreme | all solved | {} |",
        levels.len() - failed.len(),
        levels.len(),
        if failed.is_empty() {
            String::new()
        } else {
            format!(" (failed: {})", failed.join("; "))
        },
        met(solved_all)
    )?;
    writeln!(
        out,
        "| app levels median | {:.3} ms | mzucker C mean 0.02–0.43 s per pack (12–14) | ≤ 1 ms | {} |",
        s.median,
        met(s.median <= 1.0)
    )?;
    writeln!(
        out,
        "| app levels p99 | {:.2} ms | - | ≤ 50 ms | {} |",
        s.p99,
        met(s.p99 <= 50.0)
    )?;
    writeln!(
        out,
        "| app levels max | {:.1} ms | mzucker C 4.6 s (13x13, pack 18); samgoldman Rust 10 s timeouts on 14x14 and 15x15 | ≤ 500 ms | {} |",
        s.max,
        met(s.max <= 500.0)
    )?;
    writeln!(
        out,
        "| app levels total | {:.2} s | - | ≤ 60 s | {} |",
        s.total_s,
        met(s.total_s <= 60.0)
    )?;

    if wanted("mzucker") {
        mzucker(&flow, &mut out)?;
    }
    if !wanted("samgoldman") {
        return Ok(out);
    }
    // samgoldman's puzzles with endpoints.
    let mut rows = Vec::new();
    for sub in ["standard", "bridges", "hex", "warps"] {
        for f in txt_files(&flow.join("samgoldman_FlowSolver").join(sub))? {
            let name = f.display().to_string();
            let p = format::parse(&std::fs::read_to_string(&f)?, &name)?;
            if p.flows.is_empty() {
                continue;
            }
            let (ms, outcome) = timed(&p, &name)?;
            let stem = f
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string();
            eprintln!("samgoldman {sub}/{stem}: {ms:.1} ms");
            rows.push((format!("{sub}/{stem}"), ms, outcome));
        }
    }
    let worst = rows.iter().map(|r| r.1).fold(0.0, f64::max);
    let all_solved = rows.iter().all(|r| matches!(r.2, Outcome::Solved(_)));
    let big: Vec<String> = rows
        .iter()
        .filter(|r| r.0.contains("14x14") || r.0.contains("15x15") || r.0.contains("Jumbo"))
        .map(|r| format!("{} {:.1} ms", r.0, r.1))
        .collect();
    writeln!(
        out,
        "| samgoldman puzzles with endpoints ({}) | {}, max {:.1} ms; {} | samgoldman Rust: 14x14Mania_8 9.1 s, _27 / _9 / hex 15x15 not in 60 s, JumboRainbow_150 48.7 s | each ≤ 2 s | {} |",
        rows.len(),
        if all_solved { "all solved" } else { "NOT all solved" },
        worst,
        big.join(", "),
        met(all_solved && worst <= 2000.0)
    )?;
    Ok(out)
}

/// mzucker's own puzzles, and his unsolvable board.
fn mzucker(flow: &Path, out: &mut String) -> anyhow::Result<()> {
    let mut times = Vec::new();
    let mut unsolved = Vec::new();
    let mut cross = None;
    for f in txt_files(&flow.join("mzucker_flow_solver"))? {
        let name = f.display().to_string();
        let p = format::parse(&std::fs::read_to_string(&f)?, &name)?;
        let (ms, outcome) = timed(&p, &name)?;
        if name.contains("unsolvable_cross") {
            cross = Some((ms, outcome));
            continue;
        }
        if !matches!(outcome, Outcome::Solved(_)) {
            let stem = f.file_stem().unwrap_or_default().to_string_lossy();
            unsolved.push(format!("{stem}: {outcome:?}"));
        }
        times.push(ms);
    }
    let s = stats(&times);
    writeln!(
        *out,
        "| mzucker puzzles ({}) | {}, max {:.2} ms, total {:.3} s | C ≤ 0.80 s, SAT ≤ 0.33 s | all solved | {} |",
        s.count,
        if unsolved.is_empty() {
            "all solved".to_string()
        } else {
            format!("NOT solved: {}", unsolved.join(", "))
        },
        s.max,
        s.total_s,
        met(unsolved.is_empty())
    )?;
    let (ms, outcome) = cross.context("unsolvable_cross.txt missing")?;
    writeln!(
        *out,
        "| mzucker unsolvable_cross | {outcome:?} in {ms:.2} ms | C: unsolvable | unsolvable | {} |",
        met(outcome == Outcome::Unsolvable)
    )?;

    Ok(())
}
