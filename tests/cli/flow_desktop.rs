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
    let rows: Vec<String> = scan["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    let at = |(r, c): Cell| rows[r as usize].as_bytes()[c as usize] as char;
    // Cells by their centres, as read: square and hex boards alike.
    let centres: Vec<(Cell, f64, f64)> = scan["centres"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                (
                    v["cell"][0].as_i64().unwrap(),
                    v["cell"][1].as_i64().unwrap(),
                ),
                v["x"].as_f64().unwrap(),
                v["y"].as_f64().unwrap(),
            )
        })
        .collect();
    let dist = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).hypot(a.1 - b.1);
    // Neighbouring cells are the nearest centres; a little more than that apart is not.
    let spacing = centres
        .iter()
        .flat_map(|a| {
            centres
                .iter()
                .filter(move |b| b.0 != a.0)
                .map(move |b| dist((a.1, a.2), (b.1, b.2)))
        })
        .fold(f64::INFINITY, f64::min);
    let centre_of = |c: Cell| {
        let &(_, x, y) = centres.iter().find(|e| e.0 == c).unwrap();
        (x, y)
    };
    let cell = |e: &StageEvent| {
        let (px, py) = e.pixel();
        let p = (px as f64, py as f64);
        let &(c, x, y) = centres
            .iter()
            .min_by(|a, b| dist(p, (a.1, a.2)).total_cmp(&dist(p, (b.1, b.2))))
            .unwrap();
        assert!(
            dist(p, (x, y)) < 0.5 * spacing,
            "{name}: an event off the board at {p:?}"
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
                    assert!(
                        dist(centre_of(c), centre_of(last)) < 1.2 * spacing,
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
    // A square and a hex phone screenshot (the hex one with the author's own lines drawn
    // over it, which are no pipes).
    for shot in [
        "flow/screenshots/samgoldman_RegularPack7x7_1.jpg",
        "flow/screenshots/samgoldman_hex_Classic5x5_1.jpg",
    ] {
        match autoplayer::corpus::path(shot) {
            Some(phone) => assert!(play_on_stage(&desktop, &phone).1 > 0),
            None => eprintln!(
                "SKIPPED {shot} on the stage: the shared corpus is absent (set \
                 AUTOPLAYER_CORPUS)"
            ),
        }
    }
}
