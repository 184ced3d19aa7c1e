//! enclose.horse on the browser test stage: real screenshots shown 1:1 in Chromium under Xvfb,
//! `autoplayer play enclose --window ...` clicking on them, the page recording every press.

use crate::support::command::TestCommand;
use crate::support::desktop::{self, Desktop};
use crate::support::installed;
use crate::support::stage::{self, Stage};
use autoplayer::games::enclose::model::Tile;
use autoplayer::games::enclose::{check, format};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

fn stage_tools() -> bool {
    installed(desktop::TOOLS) && installed(stage::TOOLS)
}

fn play_on_stage(desktop: &Desktop, stage: &Stage, extra: &[&str], code: i32) -> Value {
    let run = TestCommand::autoplayer()
        .on(desktop)
        .args([
            "play",
            "enclose",
            "--window",
            stage.window_title(),
            "--no-verify",
            "--json",
            "--pause-ms",
            "5",
        ])
        .args(extra)
        .timeout(Duration::from_secs(120))
        .run();
    run.assert_code(code);
    if code != 0 {
        return Value::Null;
    }
    serde_json::from_str(&run.stdout).unwrap()
}

/// The tiles pressed on the stage, by the grid the scan reported.
fn pressed_tiles(stage: &Stage, report: &Value, file: &str) -> Vec<[usize; 2]> {
    let want = report["plan"]["actions"].as_array().unwrap().len();
    let events = stage
        .wait_for_events(Duration::from_secs(10), |evs| {
            evs.iter().filter(|e| e.kind == "pointerdown").count() >= want
        })
        .unwrap();
    assert!(events.iter().all(|e| e.kind != "pointercancel"), "{file}");
    let g = &report["scan"]["geometry"];
    let (ox, oy, pitch) = (
        g["origin"][0].as_f64().unwrap(),
        g["origin"][1].as_f64().unwrap(),
        g["pitch"].as_f64().unwrap(),
    );
    let presses: Vec<[usize; 2]> = events
        .iter()
        .filter(|e| e.kind == "pointerdown")
        .map(|e| {
            let (px, py) = e.pixel();
            let (col, row) = ((px as f64 - ox) / pitch, (py as f64 - oy) / pitch);
            assert!(
                (col - col.round()).abs() < 0.3 && (row - row.round()).abs() < 0.3,
                "{file}: press at {px},{py} is not on a tile centre"
            );
            [row.round() as usize, col.round() as usize]
        })
        .collect();
    assert_eq!(presses.len(), want, "{file}: every planned click, no more");
    presses
}

/// Fresh real screenshots: the presses are exactly an optimal wall set.
#[test]
fn real_screenshots_on_the_stage_get_optimal_walls() {
    if !stage_tools() {
        return;
    }
    let (Some(index), Some(levels)) = (
        autoplayer::corpus::path("enclose/screenshots/index.jsonl"),
        autoplayer::corpus::path("enclose/levels.jsonl"),
    ) else {
        return;
    };
    let levels = std::fs::read_to_string(levels).unwrap();
    let dir = index.parent().unwrap().to_path_buf();
    let desktop = Desktop::start_sized(2200, 1300).unwrap();
    let mut played = 0;
    for (file, id) in [
        ("dt_1_2025-12-30.png", "E03KkY"),
        ("djk_2026.01.23.png", "1XHKfu"),
    ] {
        let line = levels
            .lines()
            .find(|l| serde_json::from_str::<Value>(l).unwrap()["id"] == id)
            .unwrap();
        let truth: Value = serde_json::from_str(line).unwrap();
        let level = format::parse(line, id, None).unwrap();
        let stage = Stage::start(&desktop, &dir.join(file), &format!("stage {file}")).unwrap();
        let budget = truth["budget"].to_string();
        let report = play_on_stage(&desktop, &stage, &["--budget", &budget], 0);
        let walls = pressed_tiles(&stage, &report, file);
        for &[r, c] in &walls {
            assert_eq!(level.tile(r, c), Tile::Grass, "{file}: press on ({r},{c})");
        }
        assert_eq!(
            check::score(&level, &walls).ok(),
            truth["optimal"].as_i64().map(|x| x as i32),
            "{file}: the pressed tiles are not an optimal wall set"
        );
        played += 1;
    }
    assert_eq!(played, 2);
}

/// The game's own page with walls already placed (one escaping, one partial): the budget comes
/// from the page's counter, and the presses toggle the placed walls into an optimal set.
#[test]
fn game_page_captures_with_walls_placed_are_corrected() {
    if !stage_tools() {
        return;
    }
    let Some(index) = autoplayer::corpus::path("enclose/app-screens/index.jsonl") else {
        return;
    };
    let dir = index.parent().unwrap().to_path_buf();
    let desktop = Desktop::start_sized(2200, 1300).unwrap();
    let text = std::fs::read_to_string(&index).unwrap();
    let mut played = 0;
    for line in text.lines() {
        let rec: Value = serde_json::from_str(line).unwrap();
        let file = rec["file"].as_str().unwrap();
        if !file.contains("partial") {
            continue;
        }
        let l = &rec["level"];
        let rows: Vec<&str> = l["map_rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        let budget = l["budget"].as_u64().unwrap() as u32;
        let level = format::parse_map(
            &rows.join("\n"),
            file,
            budget,
            autoplayer::games::enclose::model::Variant::Main,
        )
        .unwrap();
        let stage = Stage::start(&desktop, &dir.join(file), &format!("stage {file}")).unwrap();
        let report = play_on_stage(&desktop, &stage, &[], 0);
        assert_eq!(report["scan"]["budget"].as_u64(), Some(budget as u64));
        // What the page shows before play: the scan's `W` tiles.
        let mut walls: BTreeSet<[usize; 2]> = BTreeSet::new();
        for (r, row) in report["scan"]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            for (c, ch) in row.as_str().unwrap().chars().enumerate() {
                if ch == 'W' {
                    walls.insert([r, c]);
                }
            }
        }
        assert!(!walls.is_empty(), "{file}: walls on the page were read");
        for p in pressed_tiles(&stage, &report, file) {
            // A click toggles a wall.
            if !walls.remove(&p) {
                walls.insert(p);
            }
        }
        let walls: Vec<[usize; 2]> = walls.into_iter().collect();
        assert_eq!(
            check::score(&level, &walls).ok(),
            l["optimalScore"].as_i64().map(|x| x as i32),
            "{file}: the walls after the presses are not optimal"
        );
        played += 1;
    }
    assert!(played >= 2, "both partial captures were played");
}

/// A Bridges capture on the stage: an error, and the page records no press at all.
#[test]
fn another_game_on_the_stage_gets_no_click() {
    if !stage_tools() {
        return;
    }
    let desktop = Desktop::start_sized(2200, 1300).unwrap();
    let img =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hashi/bridges_10x10_partial_ts40.png");
    let stage = Stage::start(&desktop, &img, "stage bridges").unwrap();
    play_on_stage(&desktop, &stage, &["--budget", "10"], 2);
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        stage.events().iter().all(|e| e.kind != "pointerdown"),
        "no press may reach the page"
    );
}
