//! The Loop game through the real binary: solve from the canonical text, errors with positions.

use crate::support::command::{run_expecting as run, Run, TestCommand};
use std::collections::BTreeSet;

fn fixture(name: &str) -> String {
    crate::support::fixture("loop", name)
        .to_string_lossy()
        .into_owned()
}

/// The hint grid as the fixture writes it, without the header.
const HINTS: [&str; 8] = [
    "3.......", ".....3..", "....2...", "...7.3..", "3..6.3..", "...5....", "...3203.", ".33...2.",
];

fn assert_perfect_loop(out: &Run, hints: &[&str]) {
    let v = out.json();
    let cycle: Vec<(i64, i64)> = v["cycle"]
        .as_array()
        .unwrap_or_else(|| out.fail("no cycle"))
        .iter()
        .map(|c| (c[0].as_i64().unwrap(), c[1].as_i64().unwrap()))
        .collect();
    assert_cycle_meets(&cycle, hints);
}

/// Checks a cycle against the rules here, not with the solver's own checker: every cell
/// once, each step to an orthogonal neighbour (the last back to the first), and each number
/// equal to the corner cells of the loop in its clipped 3×3 block.
/// A screenshot's hint rows, from its line of `index.jsonl`.
pub(crate) fn hints_of(shot: &serde_json::Value) -> Vec<&str> {
    shot["hints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect()
}

/// The centre of cell (0, 0) and the pitch, from a `play --json` report's scan.
pub(crate) fn lattice_of(report: &serde_json::Value) -> (f64, f64, f64) {
    let g = &report["scan"]["geometry"];
    (
        g["origin"][0].as_f64().unwrap(),
        g["origin"][1].as_f64().unwrap(),
        g["pitch"].as_f64().unwrap(),
    )
}

/// The cells (row, column) a planned drag passes through, on the report's lattice.
fn drag_cells(report: &serde_json::Value, drag: &serde_json::Value) -> Vec<(i64, i64)> {
    let (ox, oy, pitch) = lattice_of(report);
    drag["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let (x, y) = (p["x"].as_f64().unwrap(), p["y"].as_f64().unwrap());
            (
                ((y - oy) / pitch).round() as i64,
                ((x - ox) / pitch).round() as i64,
            )
        })
        .collect()
}

pub(crate) fn assert_cycle_meets(cycle: &[(i64, i64)], hints: &[&str]) {
    let n = hints.len() as i64;
    assert_eq!(cycle.len() as i64, n * n);
    let distinct: BTreeSet<_> = cycle.iter().collect();
    assert_eq!(distinct.len(), cycle.len(), "a cell visited twice");
    let mut corner = vec![vec![false; n as usize]; n as usize];
    for i in 0..cycle.len() {
        let prev = cycle[(i + cycle.len() - 1) % cycle.len()];
        let here = cycle[i];
        let next = cycle[(i + 1) % cycle.len()];
        assert_eq!(
            (here.0 - next.0).abs() + (here.1 - next.1).abs(),
            1,
            "{here:?} -> {next:?} is not a step"
        );
        // A corner: the loop enters along one axis and leaves along the other.
        corner[here.0 as usize][here.1 as usize] = (prev.0 == here.0) != (next.0 == here.0);
    }
    for (r, row) in hints.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let Some(want) = ch.to_digit(10) else {
                continue;
            };
            let block = |v: usize| v.saturating_sub(1)..(v + 2).min(n as usize);
            let seen: u32 = corner[block(r)]
                .iter()
                .map(|line| line[block(c)].iter().filter(|&&t| t).count() as u32)
                .sum();
            assert_eq!(seen, want, "number at ({r},{c})");
        }
    }
}

#[test]
fn solve_prints_a_loop_through_every_cell_that_meets_every_number() {
    let out = run(
        &[
            "solve",
            "loop",
            &fixture("daily_2026-01-01_hard.loop"),
            "--json",
        ],
        "",
        0,
    );
    let v = out.json();
    assert_eq!(v["game"], "loop");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["any_loop"], false);
    assert!(v["elapsed_ms"].as_f64().is_some());
    assert_perfect_loop(&out, &HINTS);
    let text = run(
        &["solve", "loop", &fixture("daily_2026-01-01_hard.loop")],
        "",
        0,
    );
    assert!(text.stdout.contains("64 of 64 cells"), "{}", text.stdout);
}

#[test]
fn a_bare_grid_on_stdin_parses_and_any_loop_is_reported() {
    let grid = HINTS.join("\n");
    let out = run(&["solve", "loop", "-", "--json", "--any-loop"], &grid, 0);
    let v = out.json();
    assert_eq!(v["any_loop"], true);
    assert!(v["cycle"].as_array().is_some_and(|c| c.len() >= 4));
}

#[test]
fn no_loop_is_exit_one_and_bad_text_names_its_place() {
    // An odd number of cells has no loop through all of them.
    let out = run(&["solve", "loop", "-", "--json"], "...\n...\n...\n", 1);
    assert_eq!(out.json()["status"], "unsolvable");
    let bad = run(&["solve", "loop", "-"], "....\n..x.\n", 2);
    assert!(bad.stderr.contains("<stdin>:2:3"), "{}", bad.stderr);
    let ragged = run(&["solve", "loop", "-"], "....\n...\n", 2);
    assert!(ragged.stderr.contains(":2:"), "{}", ragged.stderr);
}

#[test]
fn a_picture_of_another_game_is_refused() {
    let img = crate::support::fixture("hashi", "bridges_10x10_fresh_ts40.png");
    run(&["scan", "loop", img.to_str().unwrap()], "", 2);
    run(
        &[
            "play",
            "loop",
            "--image",
            img.to_str().unwrap(),
            "--dry-run",
        ],
        "",
        2,
    );
}

/// The real app's screenshots in the corpus, each with its line of `index.jsonl`; `None` (after
/// the SKIPPED line) when the corpus is absent.
pub(crate) fn screenshots() -> Option<Vec<(std::path::PathBuf, serde_json::Value)>> {
    let index = autoplayer::corpus::path("loop/screenshots/index.jsonl")?;
    let corpus_loop = index.parent()?.parent()?.to_path_buf();
    let text = std::fs::read_to_string(&index).unwrap();
    Some(
        text.lines()
            .map(|l| {
                let shot: serde_json::Value = serde_json::from_str(l).unwrap();
                (corpus_loop.join(shot["file"].as_str().unwrap()), shot)
            })
            .collect(),
    )
}

/// The arguments of `play --dry-run --json` on a screenshot.
fn dry_run(file: &std::path::Path) -> [&str; 6] {
    [
        "play",
        "loop",
        "--image",
        file.to_str().unwrap(),
        "--dry-run",
        "--json",
    ]
}

/// `play --dry-run --json` on a screenshot: its report.
fn planned(file: &std::path::Path) -> serde_json::Value {
    run(&dry_run(file), "", 0).json()
}

/// The stage: for every fresh screenshot of the real app, `play --dry-run --json` plans one
/// drag whose points, mapped back through the scanned geometry, visit the cells of a valid
/// loop in order and return into the first.
#[test]
fn the_planned_drag_traces_a_valid_loop_on_every_fresh_screenshot() {
    let Some(shots) = screenshots() else { return };
    let mut fresh = 0;
    for (file, shot) in shots.iter().filter(|(_, s)| s["state"] == "fresh") {
        fresh += 1;
        let v = planned(file);
        let hints = hints_of(shot);
        assert_eq!(v["scan"]["rows"], shot["hints"], "{}", file.display());
        let actions = v["plan"]["actions"].as_array().unwrap();
        assert_eq!(actions.len(), 1, "one drag: {}", file.display());
        let cells = drag_cells(&v, &actions[0]);
        assert_eq!(cells.first(), cells.last(), "back into the start cell");
        assert_cycle_meets(&cells[..cells.len() - 1], &hints);
    }
    assert!(fresh >= 10, "only {fresh} fresh screenshots");
}

/// The stage: on every partly drawn screenshot the plan first taps each drawn cell (the app's
/// way of taking a cell and its links away), every tap inside its cell, then draws one loop
/// that meets the hints and returns into its start. A board whose numbers may count down or
/// show totals (the app's Behaviour setting), both with a loop, is refused with nothing
/// planned, naming the setting; no more than one in five.
#[test]
fn a_drawn_path_is_tapped_away_before_the_loop_is_drawn() {
    let Some(shots) = screenshots() else { return };
    let (mut partial, mut undecided) = (0, 0);
    for (file, shot) in shots.iter().filter(|(_, s)| s["state"] == "partial") {
        partial += 1;
        let ran = TestCommand::autoplayer()
            .args(dry_run(file))
            .stdin("")
            .run();
        if ran.code == Some(2) && ran.stderr.contains("Behaviour") {
            assert!(ran.stdout.trim().is_empty(), "nothing planned");
            undecided += 1;
            continue;
        }
        let v = ran.assert_success().json();
        let (ox, oy, pitch) = lattice_of(&v);
        // The cell under a point, and how far the point is from that cell's centre.
        let cell_of = |p: &serde_json::Value| {
            let (x, y) = (p["x"].as_f64().unwrap(), p["y"].as_f64().unwrap());
            let (r, c) = (((y - oy) / pitch).round(), ((x - ox) / pitch).round());
            let off = (x - ox - c * pitch).abs().max((y - oy - r * pitch).abs());
            ((r as i64, c as i64), off)
        };
        let actions = v["plan"]["actions"].as_array().unwrap();
        let drawn: Vec<(i64, i64)> = shot["drawn_path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c[0].as_i64().unwrap(), c[1].as_i64().unwrap()))
            .collect();
        let (taps, rest) = actions.split_at(actions.len() - 1);
        let mut tapped: Vec<(i64, i64)> = taps
            .iter()
            .map(|a| {
                assert_eq!(a["kind"], "click", "{}", file.display());
                let (cell, off) = cell_of(&a["at"]);
                assert!(off < pitch * 0.1, "a tap off its cell's centre");
                cell
            })
            .collect();
        let mut want = drawn.clone();
        tapped.sort();
        want.sort();
        assert_eq!(
            tapped,
            want,
            "every drawn cell tapped once: {}",
            file.display()
        );
        let cells: Vec<(i64, i64)> = rest[0]["path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| cell_of(p).0)
            .collect();
        let hints = hints_of(shot);
        assert_eq!(cells.first(), cells.last(), "back into the start cell");
        assert_cycle_meets(&cells[..cells.len() - 1], &hints);
    }
    assert!(partial >= 5, "only {partial} partly drawn screenshots");
    assert!(
        undecided * 5 <= partial,
        "{undecided} of {partial} refused as undecided"
    );
}

/// The app's "Show both" behaviour (the count-down with each hint small in its cell's top-right
/// corner), from the project's captures: a partly drawn board scans as its hints and a loop
/// meeting them is planned; one with a number counted below zero, whose "-1" reaches under its
/// total, is refused with nothing planned, naming the setting.
#[test]
fn a_show_both_board_is_planned_or_refused_naming_the_setting() {
    let index = std::fs::read_to_string(fixture("behaviour/index.jsonl")).unwrap();
    let shots: Vec<serde_json::Value> = index
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|s: &serde_json::Value| s["behaviour"] == "both" && s["state"] == "partial")
        .collect();
    let (mut planned_ok, mut refused) = (0, 0);
    for shot in &shots {
        let file = fixture(&format!("behaviour/{}", shot["file"].as_str().unwrap()));
        let path = std::path::Path::new(&file);
        if shot["below_zero"].as_array().is_some_and(|b| !b.is_empty()) {
            let ran = run(&dry_run(path), "", 2);
            assert!(ran.stderr.contains("Show both"), "{}", ran.stderr);
            assert!(ran.stdout.trim().is_empty(), "nothing planned");
            refused += 1;
            continue;
        }
        let hints = hints_of(shot);
        let scan = run(&["scan", "loop", &file, "--json"], "", 0).json();
        assert_eq!(scan["rows"], serde_json::json!(hints), "{file}");
        let v = planned(path);
        let actions = v["plan"]["actions"].as_array().unwrap();
        let cells = drag_cells(&v, &actions[actions.len() - 1]);
        assert_eq!(cells.first(), cells.last(), "back into the start cell");
        assert_cycle_meets(&cells[..cells.len() - 1], &hints);
        planned_ok += 1;
    }
    assert_eq!((planned_ok, refused), (5, 2));
}
