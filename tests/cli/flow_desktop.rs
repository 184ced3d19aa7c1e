//! Flow Free on the browser test stage: a capture of the web clone (this project's own) and a
//! real phone screenshot (the corpus's) shown 1:1 in Chromium under Xvfb, `autoplayer play
//! flow --window ...` dragging over them, the page recording every pointer event. The real app
//! runs on phones only and the web clone is not in CI, so the stage proves the drags and
//! BENCHMARKS.md records the plays on the clone itself.

use crate::support::command::TestCommand;
use crate::support::desktop::{self, Desktop};
use crate::support::installed;
use crate::support::stage::{self, Stage, StageEvent};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

type Cell = (i64, i64);

/// Plays one picture on the stage and checks the recorded gestures against the board it shows:
/// taps only on the endpoints where wrong pipes begin, and before any drag; each drag runs cell
/// by cell between the two endpoints of one colour, and together with the pipes left standing
/// (drawn right already) the drags cover every cell exactly once. Returns (taps, drags).
fn play_on_stage(desktop: &Desktop, picture: &Path) -> (usize, usize) {
    let name = picture.file_name().unwrap().to_str().unwrap().to_string();
    let stage = Stage::start(desktop, picture, &format!("stage {name}")).unwrap();
    let run = TestCommand::autoplayer()
        .on(desktop)
        .args(["play", "flow", "--window", stage.window_title()])
        .args(["--no-verify", "--json", "--pause-ms", "5"])
        .timeout(Duration::from_secs(120))
        .run();
    run.assert_code(0);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let actions = report["plan"]["actions"].as_array().unwrap().len();
    let events = stage
        .wait_for_events(Duration::from_secs(20), |evs| {
            evs.iter().filter(|e| e.kind == "pointerup").count() >= actions
        })
        .unwrap();
    assert!(events.iter().all(|e| e.kind != "pointercancel"), "{name}");

    let scan = &report["scan"];
    let g = &scan["geometry"];
    let (ox, oy, pitch) = (
        g["origin"][0].as_f64().unwrap(),
        g["origin"][1].as_f64().unwrap(),
        g["pitch"].as_f64().unwrap(),
    );
    let rows: Vec<String> = scan["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    let (h, w) = (rows.len() as i64, rows[0].len() as i64);
    let at = |(r, c): Cell| rows[r as usize].as_bytes()[c as usize] as char;
    let cell = |e: &StageEvent| {
        let (px, py) = e.pixel();
        let c = (
            ((py as f64 - oy) / pitch).round() as i64,
            ((px as f64 - ox) / pitch).round() as i64,
        );
        assert!(
            (0..h).contains(&c.0) && (0..w).contains(&c.1) && at(c) != '#',
            "{name}: an event off the board at {c:?}"
        );
        c
    };

    // Where each drawn pipe begins: the only cells a tap may land on.
    let pipe_starts: Vec<Cell> = scan["drawn"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let c = &d["cells"][0];
            (c[0].as_i64().unwrap(), c[1].as_i64().unwrap())
        })
        .collect();
    let mut owner: BTreeMap<Cell, char> = BTreeMap::new();
    let mut drawn_by_drags = Vec::new();
    let mut taps = 0;
    let mut path: Vec<Cell> = Vec::new();
    for e in &events {
        match e.kind.as_str() {
            "pointerdown" => path = vec![cell(e)],
            "pointermove" | "pointerup" => {
                let c = cell(e);
                if path.last() != Some(&c) {
                    let last = *path.last().expect("a move after a press");
                    assert_eq!(
                        (c.0 - last.0).abs() + (c.1 - last.1).abs(),
                        1,
                        "{name}: the drag jumps from {last:?} to {c:?}"
                    );
                    path.push(c);
                }
                if e.kind == "pointerup" && path.len() == 1 {
                    assert!(
                        drawn_by_drags.is_empty() && pipe_starts.contains(&path[0]),
                        "{name}: a tap on {:?}, not first on a pipe's start",
                        path[0]
                    );
                    taps += 1;
                } else if e.kind == "pointerup" {
                    let (a, b) = (at(path[0]), at(*path.last().unwrap()));
                    assert!(
                        a != '.' && a == b && path.len() > 1,
                        "{name}: a drag from {:?} to {:?} joins no pair",
                        path[0],
                        path.last()
                    );
                    for &c in &path {
                        assert!(
                            owner.insert(c, a).is_none(),
                            "{name}: cell {c:?} drawn twice"
                        );
                    }
                    drawn_by_drags.push(a);
                }
            }
            _ => {}
        }
    }
    assert_eq!(
        taps + drawn_by_drags.len(),
        actions,
        "{name}: one gesture per action"
    );
    // Colours the plan left alone keep the pipe the board shows.
    for d in scan["drawn"].as_array().unwrap() {
        let flow = d["flow"].as_str().unwrap().chars().next().unwrap();
        if drawn_by_drags.contains(&flow) {
            continue;
        }
        for c in d["cells"].as_array().unwrap() {
            let c = (c[0].as_i64().unwrap(), c[1].as_i64().unwrap());
            assert!(
                owner.insert(c, flow).is_none(),
                "{name}: cell {c:?} drawn twice"
            );
        }
    }
    let cells = rows
        .iter()
        .map(|r| r.chars().filter(|&ch| ch != '#').count())
        .sum::<usize>();
    assert_eq!(owner.len(), cells, "{name}: every cell covered");
    (taps, drawn_by_drags.len())
}

#[test]
fn the_drags_on_the_stage_join_every_pair_and_cover_the_board() {
    if !(installed(desktop::TOOLS) && installed(stage::TOOLS)) {
        return;
    }
    let desktop = Desktop::start_sized(1400, 1600).unwrap();
    let clone = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/flow/clone/clone_5x5_partial_700x800.png");
    // Two colours drawn wrong are tapped away and drawn again, one drawn right is left alone,
    // two more are drawn: two taps, four drags.
    assert_eq!(play_on_stage(&desktop, &clone), (2, 4));
    match autoplayer::corpus::path("flow/screenshots/samgoldman_RegularPack7x7_1.jpg") {
        Some(phone) => assert!(play_on_stage(&desktop, &phone).1 > 0),
        None => eprintln!(
            "SKIPPED the phone screenshot on the stage: the shared corpus is absent (set \
             AUTOPLAYER_CORPUS)"
        ),
    }
}
