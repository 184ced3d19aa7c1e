//! Hashi through the real binary: solve, scan and dry-run play on captures this project took.

use crate::support::command::{run_expecting as run, Run};
use autoplayer::games::hashi::format;
use autoplayer::games::hashi::model::{Bridge, Cell, Puzzle};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    crate::support::fixture("hashi", name)
}

fn bridges_of(v: &Value) -> BTreeMap<(Cell, Cell), u8> {
    format::bridges_from_json(v, format::CellOrder::RowFirst, "--json")
        .unwrap()
        .into_iter()
        .map(|b| ((b.a, b.b), b.count))
        .collect()
}

/// Degrees only: enough to catch a wrong answer without trusting the solver's own checker.
fn assert_degrees(p: &Puzzle, bridges: &BTreeMap<(Cell, Cell), u8>) {
    let mut degree: BTreeMap<Cell, u32> = BTreeMap::new();
    for ((a, b), n) in bridges {
        *degree.entry(*a).or_default() += *n as u32;
        *degree.entry(*b).or_default() += *n as u32;
    }
    for i in &p.islands {
        assert_eq!(
            degree.get(&i.at).copied().unwrap_or(0),
            i.target as u32,
            "island {:?}",
            i.at
        );
    }
}

const FIXTURE_ID: &str = "10x10m2:2d4c3l1b2b2m5b4a2j1d1a2a1b4a6a4d5j3h4";

#[test]
fn solve_reads_a_game_id_from_stdin_and_prints_json() {
    let out = run(&["solve", "hashi", "-", "--json"], FIXTURE_ID, 0);
    let v = Run::json(&out);
    assert_eq!(v["game"], "hashi");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["unique"], true);
    assert!(v["elapsed_ms"].as_f64().unwrap() >= 0.0);
    let p = format::parse(FIXTURE_ID, "test").unwrap();
    assert_degrees(&p, &bridges_of(&v["bridges"]));
}

#[test]
fn malformed_puzzle_text_is_exit_2_naming_where() {
    let out = run(&["solve", "hashi", "-"], "7x7m2:4e4a1a5a4zb2?b5a4a", 2);
    let err = out.stderr;
    assert!(err.contains("<stdin>:1:"), "{err}");
    let out = run(&["solve", "hashi", "/nonexistent/p.hashi"], "", 2);
    assert!(out.stderr.contains("/nonexistent/p.hashi"));
}

#[test]
fn scan_reads_the_fixture_capture_exactly() {
    let img = fixture("bridges_10x10_partial_ts40.png");
    let out = run(&["scan", "hashi", img.to_str().unwrap(), "--json"], "", 0);
    let v = Run::json(&out);
    let truth = format::parse(FIXTURE_ID, "id").unwrap();
    let rows: Vec<String> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    assert_eq!(rows, truth.rows());
    let drawn = bridges_of(&v["bridges"]);
    let c = |row, col| Cell { row, col };
    let want: BTreeMap<_, _> = [((c(0, 0), c(0, 5)), 1), ((c(7, 2), c(7, 4)), 2)]
        .into_iter()
        .collect();
    assert_eq!(drawn, want);
}

/// Replays planned drags the way the Bridges app counts them: each drag between two islands
/// steps that pair's count round 0..=max.
#[test]
fn dry_run_plan_on_a_full_screen_capture_makes_the_solution() {
    let dir = tempfile::tempdir().unwrap();
    let overlay = dir.path().join("plan.png");
    let img = fixture("bridges_10x10_partial_fullscreen.png");
    let out = run(
        &[
            "play",
            "hashi",
            "--image",
            img.to_str().unwrap(),
            "--dry-run",
            "--json",
            "--overlay",
            overlay.to_str().unwrap(),
        ],
        "",
        0,
    );
    let v = Run::json(&out);
    assert_eq!(v["played"], false);
    let truth = format::parse(FIXTURE_ID, "id").unwrap();
    let origin = &v["scan"]["geometry"]["origin"];
    let (ox, oy) = (origin[0].as_f64().unwrap(), origin[1].as_f64().unwrap());
    let pitch = v["scan"]["geometry"]["pitch"].as_f64().unwrap();
    // The window's client area sat at (740, 315): island (0,0) is at (780, 380) on screen.
    assert!(
        (ox - 780.0).abs() <= 2.0 && (oy - 380.0).abs() <= 2.0,
        "origin {ox},{oy}"
    );
    assert!((pitch - 40.0).abs() < 0.5);
    let board = &v["plan"]["board"];
    let mut counts = bridges_of(&v["scan"]["bridges"]);
    for a in v["plan"]["actions"].as_array().unwrap() {
        assert_eq!(a["kind"], "drag", "only drags on the Bridges app");
        let path = a["path"].as_array().unwrap();
        let cell_at = |p: &Value| {
            let (x, y) = (p["x"].as_f64().unwrap(), p["y"].as_f64().unwrap());
            for (k, lo, len) in [("x", "x", "w"), ("y", "y", "h")] {
                let v = p[k].as_i64().unwrap();
                let lo = board[lo].as_i64().unwrap();
                assert!(
                    v >= lo && v < lo + board[len].as_i64().unwrap(),
                    "{p} outside {board}"
                );
            }
            let c = Cell {
                row: ((y - oy) / pitch).round() as usize,
                col: ((x - ox) / pitch).round() as usize,
            };
            assert!(
                truth.island_at(c).is_some(),
                "drag end {c:?} is not an island"
            );
            c
        };
        let b = Bridge::new(cell_at(&path[0]), cell_at(path.last().unwrap()), 0);
        let n = counts.entry((b.a, b.b)).or_insert(0);
        *n = (*n + 1) % 3;
    }
    counts.retain(|_, n| *n > 0);
    assert_eq!(counts, bridges_of(&v["solve"]["bridges"]));
    assert_degrees(&truth, &counts);
    let drawn = image::open(&overlay).unwrap();
    assert_eq!((drawn.width(), drawn.height()), (1920, 1080));
}

#[test]
fn a_picture_without_a_board_is_an_error_and_plans_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let blank = dir.path().join("blank.png");
    image::RgbaImage::from_pixel(800, 600, image::Rgba([211, 211, 211, 255]))
        .save(&blank)
        .unwrap();
    let out = run(
        &[
            "play",
            "hashi",
            "--image",
            blank.to_str().unwrap(),
            "--dry-run",
            "--json",
        ],
        "",
        2,
    );
    assert!(out.stdout.trim().is_empty(), "no plan may be printed");
    let out = run(&["scan", "hashi", blank.to_str().unwrap()], "", 2);
    assert!(!out.stderr.is_empty());
}

/// Bridges enclose parts of the canvas on a solved board; the board must still be found, read
/// with every bridge, and leave nothing to play.
#[test]
fn a_solved_capture_reads_as_the_solution_and_leaves_nothing_to_do() {
    let img = fixture("bridges_10x10_solved_ts48.png");
    let scan = Run::json(&run(
        &["scan", "hashi", img.to_str().unwrap(), "--json"],
        "",
        0,
    ));
    let solved = Run::json(&run(&["solve", "hashi", "-", "--json"], FIXTURE_ID, 0));
    assert_eq!(bridges_of(&scan["bridges"]), bridges_of(&solved["bridges"]));
    let out = run(
        &[
            "play",
            "hashi",
            "--image",
            img.to_str().unwrap(),
            "--dry-run",
        ],
        "",
        1,
    );
    assert!(out.stdout.contains("nothing") || out.stderr.contains("nothing"));
}

/// `--moves 2` on a capture: a hint of two bridges the rules force from what is drawn, drawn as
/// a picture; `--moves 0` is refused; a Flow hint from a capture is one pipe, one drag.
#[test]
fn a_hint_from_a_capture_plans_and_draws_only_its_moves() {
    let dir = tempfile::tempdir().unwrap();
    let picture = dir.path().join("hint.png");
    let img = fixture("bridges_10x10_partial_ts40.png");
    let out = run(
        &[
            "play",
            "hashi",
            "--image",
            img.to_str().unwrap(),
            "--moves",
            "2",
            "--solution",
            picture.to_str().unwrap(),
        ],
        "",
        0,
    );
    assert!(out.stdout.contains("hint: 2 move(s)"), "{}", out.stdout);
    let gestures = out
        .stdout
        .lines()
        .filter(|l| l.contains(". drag ("))
        .count();
    assert_eq!(gestures, 2, "{}", out.stdout);
    assert!(picture.exists());
    let out = run(
        &[
            "play",
            "hashi",
            "--image",
            img.to_str().unwrap(),
            "--moves",
            "0",
        ],
        "",
        2,
    );
    assert!(out.stderr.contains("--moves"), "{}", out.stderr);
    let flow = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/flow/clone/clone_10x10_fresh_900x1000.png");
    let out = run(
        &[
            "play",
            "flow",
            "--image",
            flow.to_str().unwrap(),
            "--moves",
            "1",
        ],
        "",
        0,
    );
    assert!(out.stdout.contains("hint: 1 move(s)"), "{}", out.stdout);
    let drags = out
        .stdout
        .lines()
        .filter(|l| l.contains(". drag ("))
        .count();
    assert_eq!(drags, 1, "{}", out.stdout);
}
