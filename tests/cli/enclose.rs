//! enclose.horse through the real binary: solve, scan and dry-run play on real screenshots and
//! on puzzle files this project wrote.

use crate::support::command::{play_refuses, run_expecting as run, Run};
use autoplayer::games::enclose::model::{Level, Tile};
use autoplayer::games::enclose::{check, format};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    crate::support::fixture("enclose", name)
}

fn walls_of(v: &Value) -> Vec<[usize; 2]> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|w| {
            [
                w[0].as_u64().unwrap() as usize,
                w[1].as_u64().unwrap() as usize,
            ]
        })
        .collect()
}

/// The best score over every set of at most `budget` new walls, by the checker alone.
fn brute_force_optimum(level: &Level) -> i32 {
    let grass: Vec<[usize; 2]> = (0..level.tiles.len())
        .filter(|&i| level.tiles[i] == Tile::Grass)
        .map(|i| [i / level.cols, i % level.cols])
        .collect();
    let left = level.budget as usize - level.preplaced_walls() as usize;
    let mut best = i32::MIN;
    let mut chosen = Vec::new();
    fn go(
        level: &Level,
        grass: &[[usize; 2]],
        from: usize,
        left: usize,
        chosen: &mut Vec<[usize; 2]>,
        best: &mut i32,
    ) {
        if let Ok(s) = check::score(level, chosen) {
            *best = (*best).max(s);
        }
        if left == 0 {
            return;
        }
        for i in from..grass.len() {
            chosen.push(grass[i]);
            go(level, grass, i + 1, left - 1, chosen, best);
            chosen.pop();
        }
    }
    go(level, &grass, 0, left, &mut chosen, &mut best);
    best
}

/// A real level from the corpus, by the game's level id.
fn corpus_level(id: &str) -> Option<String> {
    let path = autoplayer::corpus::path("enclose/levels.jsonl")?;
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .find(|l| serde_json::from_str::<Value>(l).unwrap()["id"] == id)
        .map(str::to_string)
}

#[test]
fn solve_proves_the_optimum_of_a_puzzle_file_and_draws_the_pen() {
    for (name, variant) in [
        ("portal_pen.enclose", "main"),
        ("lovebirds.enclose", "lovebirds"),
    ] {
        let path = fixture(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let level = format::parse(&text, name, None).unwrap();
        let out = run(
            &["solve", "enclose", path.to_str().unwrap(), "--json"],
            "",
            0,
        );
        let v = Run::json(&out);
        assert_eq!(v["game"], "enclose");
        assert_eq!(v["status"], "optimal", "{name}");
        assert_eq!(v["variant"], variant);
        let walls = walls_of(&v["walls"]);
        let score = v["score"].as_i64().unwrap() as i32;
        assert_eq!(check::score(&level, &walls), Ok(score), "{name}: re-scored");
        assert_eq!(score, brute_force_optimum(&level), "{name}: optimum");
        assert_eq!(v["bound"].as_i64().unwrap() as i32, score);
        let shown = run(&["solve", "enclose", path.to_str().unwrap()], "", 0).stdout;
        let map: Vec<&str> = shown.lines().take(level.rows).collect();
        for [r, c] in &walls {
            assert_eq!(
                map[*r].as_bytes()[*c],
                b'W',
                "{name}: wall at {r},{c}\n{shown}"
            );
        }
        assert!(map.iter().any(|l| l.contains('#')), "pen marked:\n{shown}");
    }
}

#[test]
fn the_variant_option_overrides_the_file() {
    let path = fixture("lovebirds.enclose");
    // As a main level the unicorn is not allowed: the error names where it stands.
    let out = run(
        &[
            "solve",
            "enclose",
            path.to_str().unwrap(),
            "--variant",
            "main",
        ],
        "",
        2,
    );
    assert!(out.stderr.contains("lovebirds.enclose:"), "{}", out.stderr);
    let out = run(
        &[
            "solve",
            "enclose",
            path.to_str().unwrap(),
            "--variant",
            "quarrel",
            "--json",
        ],
        "",
        0,
    );
    assert_eq!(Run::json(&out)["variant"], "quarrel");
    let out = run(
        &["solve", "enclose", path.to_str().unwrap(), "--variant", "x"],
        "",
        2,
    );
    assert!(out.stderr.contains("unknown variant"), "{}", out.stderr);
}

#[test]
fn malformed_levels_are_exit_2_naming_line_and_column() {
    for (text, needle) in [
        ("budget: 3\n~~~\n~H.~\n~~~\n", "<stdin>:3:"),
        ("budget: 3\n~~~~\n~HH~\n~~~~\n", "<stdin>:3:3"),
        ("budget: 3\n~~~~\n~H1~\n~~~~\n", "<stdin>:3:3"),
        ("~~~~\n~H.~\n~~~~\n", "budget"),
        ("budget: 3\n~~~~\n~H?~\n~~~~\n", "<stdin>:3:3"),
    ] {
        let out = run(&["solve", "enclose", "-"], text, 2);
        assert!(
            out.stderr.contains(needle),
            "{text:?}: wanted {needle:?} in {}",
            out.stderr
        );
        assert!(out.stdout.is_empty());
    }
}

/// A map over the solver's size limit is refused up front, naming the limit, before any
/// memory is spent on it.
#[test]
fn a_map_over_the_size_limit_is_refused_up_front() {
    let row = ".".repeat(300);
    let mut text = String::from("budget: 5\n");
    for r in 0..300 {
        if r == 150 {
            text.push_str(&format!("{}H{}\n", &row[..150], &row[151..]));
        } else {
            text.push_str(&row);
            text.push('\n');
        }
    }
    let out = run(&["solve", "enclose", "-", "--timeout", "1"], &text, 2);
    assert!(out.stderr.contains("300×300"), "{}", out.stderr);
    assert!(out.stderr.contains("65536"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
}

#[test]
fn solve_reads_the_game_api_json_and_matches_the_official_optimum() {
    // Day 1 (2025-12-30), a main level the corpus names with its official optimum.
    let Some(line) = corpus_level("E03KkY") else {
        return;
    };
    let v: Value = serde_json::from_str(&line).unwrap();
    let out = run(&["solve", "enclose", "-", "--json"], &line, 0);
    let got = Run::json(&out);
    assert_eq!(got["status"], "optimal");
    assert_eq!(got["score"], v["optimal"]);
    let level = format::parse(&line, "E03KkY", None).unwrap();
    assert_eq!(
        check::score(&level, &walls_of(&got["walls"])).ok(),
        v["optimal"].as_i64().map(|x| x as i32)
    );
}

/// The screenshots whose level the corpus knows: file, level id.
const KNOWN_SCREENSHOTS: &[(&str, &str)] = &[
    ("dt_1_2025-12-30.png", "E03KkY"),
    ("djk_2026.01.23.png", "1XHKfu"),
];

/// A corpus screenshot and its level's line, when the corpus is there.
fn known_screenshot(file: &str, id: &str) -> Option<(std::path::PathBuf, String)> {
    let img = autoplayer::corpus::path(&format!("enclose/screenshots/{file}"))?;
    Some((img, corpus_level(id)?))
}

#[test]
fn scan_reads_real_screenshots_into_the_map() {
    for (file, id) in KNOWN_SCREENSHOTS {
        let Some((img, line)) = known_screenshot(file, id) else {
            return;
        };
        let level: Value = serde_json::from_str(&line).unwrap();
        let budget = level["budget"].to_string();
        let out = run(
            &[
                "scan",
                "enclose",
                img.to_str().unwrap(),
                "--budget",
                &budget,
                "--json",
            ],
            "",
            0,
        );
        let v = Run::json(&out);
        let rows: Vec<&str> = v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        let want: Vec<&str> = level["map"].as_str().unwrap().lines().collect();
        assert_eq!(rows, want, "{file}");
        assert_eq!(v["budget"].to_string(), budget);
    }
}

/// Every planned click lands on a grass tile of the picture's grid, and the tiles clicked are
/// an optimal wall set by the checker.
#[test]
fn dry_run_clicks_on_a_screenshot_form_an_optimal_wall_set() {
    let (file, id) = KNOWN_SCREENSHOTS[0];
    let Some((img, line)) = known_screenshot(file, id) else {
        return;
    };
    let truth: Value = serde_json::from_str(&line).unwrap();
    let level = format::parse(&line, id, None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let overlay = dir.path().join("plan.png");
    let out = run(
        &[
            "play",
            "enclose",
            "--image",
            img.to_str().unwrap(),
            "--budget",
            &truth["budget"].to_string(),
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
    let g = &v["scan"]["geometry"];
    let (ox, oy, pitch) = (
        g["origin"][0].as_f64().unwrap(),
        g["origin"][1].as_f64().unwrap(),
        g["pitch"].as_f64().unwrap(),
    );
    let mut walls = Vec::new();
    for a in v["plan"]["actions"].as_array().unwrap() {
        assert_eq!(
            a["kind"], "click",
            "walls are placed by clicks, never drags"
        );
        let (x, y) = (
            a["at"]["x"].as_f64().unwrap(),
            a["at"]["y"].as_f64().unwrap(),
        );
        let (col, row) = ((x - ox) / pitch, (y - oy) / pitch);
        assert!(
            (col - col.round()).abs() < 0.25 && (row - row.round()).abs() < 0.25,
            "click {x},{y} is not near a tile centre"
        );
        let (r, c) = (row.round() as usize, col.round() as usize);
        assert_eq!(level.tile(r, c), Tile::Grass, "click on ({r},{c})");
        walls.push([r, c]);
    }
    assert_eq!(
        check::score(&level, &walls).ok(),
        truth["optimal"].as_i64().map(|x| x as i32)
    );
    assert!(image::open(&overlay).is_ok());
}

#[test]
fn a_picture_of_another_game_or_of_nothing_is_an_error_and_plans_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let blank = dir.path().join("blank.png");
    image::RgbaImage::from_pixel(900, 700, image::Rgba([24, 107, 59, 255]))
        .save(&blank)
        .unwrap();
    let bridges = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/hashi/bridges_10x10_partial_fullscreen.png");
    for img in [blank, bridges] {
        let out = play_refuses("enclose", &img);
        assert!(!out.stderr.is_empty());
    }
}

/// The horse's speech bubble and escape arrow over the board (the page shows them when the
/// horse is clicked): the board is refused, naming a covered tile, and no plan is made.
#[test]
fn a_board_under_the_page_s_speech_bubble_is_refused_naming_a_tile() {
    let shot = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/enclose/covered/2026-01-06_default_1400x1000_horse_speaks.png");
    let shot = shot.to_str().unwrap();
    let out = run(&["scan", "enclose", shot], "", 2);
    assert!(
        out.stderr.contains("region x=") && out.stderr.contains("tile row"),
        "{}",
        out.stderr
    );
    let play = run(&["play", "enclose", "--image", shot, "--dry-run"], "", 2);
    assert!(
        play.stdout.is_empty(),
        "a plan was printed: {}",
        play.stdout
    );
}
