//! Loop on the browser test stage: real screenshots of the app shown 1:1 in Chromium under
//! Xvfb, `autoplayer play loop --window ...` dragging over them, the page recording every
//! pointer event. The real app is not in CI (it is built from its repository by hand), so the
//! stage proves the gesture and BENCHMARKS.md records the plays on the app itself.

use super::loopgame::{assert_cycle_meets, hints_of, lattice_of, screenshots};
use crate::support::command::TestCommand;
use crate::support::desktop::{self, Desktop};
use crate::support::installed;
use crate::support::stage::{self, Stage};
use serde_json::Value;
use std::time::Duration;

/// A fresh board gets one drag through a valid loop back into its start; a partly drawn one
/// gets a tap on each drawn cell first. Every press, move and release lands on the board.
#[test]
fn the_drag_on_the_stage_traces_a_loop_and_taps_clear_a_drawn_path() {
    if !(installed(desktop::TOOLS) && installed(stage::TOOLS)) {
        return;
    }
    let Some(shots) = screenshots() else { return };
    let desktop = Desktop::start_sized(2000, 1200).unwrap();
    let mut played = 0;
    for state in ["fresh", "partial"] {
        let (file, shot) = shots
            .iter()
            .find(|(f, s)| {
                s["state"] == state && s["size"] == 6 && f.to_str().unwrap().contains("1280x900")
            })
            .unwrap();
        let name = file.file_name().unwrap().to_str().unwrap();
        let stage = Stage::start(&desktop, file, &format!("stage {name}")).unwrap();
        let run = TestCommand::autoplayer()
            .on(&desktop)
            .args(["play", "loop", "--window", stage.window_title()])
            .args(["--no-verify", "--json", "--pause-ms", "5"])
            .timeout(Duration::from_secs(120))
            .run();
        run.assert_code(0);
        let report: Value = serde_json::from_str(&run.stdout).unwrap();
        let drawn = shot["drawn_path"].as_array().unwrap().len();
        let events = stage
            .wait_for_events(Duration::from_secs(10), |evs| {
                evs.iter().filter(|e| e.kind == "pointerup").count() > drawn
            })
            .unwrap();
        assert!(events.iter().all(|e| e.kind != "pointercancel"), "{name}");
        let (ox, oy, pitch) = lattice_of(&report);
        let size = shot["size"].as_i64().unwrap();
        let cell = |e: &stage::StageEvent| {
            let (px, py) = e.pixel();
            let (r, c) = (
                ((py as f64 - oy) / pitch).round() as i64,
                ((px as f64 - ox) / pitch).round() as i64,
            );
            assert!(
                (0..size).contains(&r) && (0..size).contains(&c),
                "{name}: off the board"
            );
            (r, c)
        };
        // Each press and release pair: the taps, then the drag.
        let downs: Vec<usize> = (0..events.len())
            .filter(|&i| events[i].kind == "pointerdown")
            .collect();
        assert_eq!(downs.len(), drawn + 1, "{name}: {drawn} taps and one drag");
        let mut tapped: Vec<(i64, i64)> =
            downs[..drawn].iter().map(|&i| cell(&events[i])).collect();
        let mut want: Vec<(i64, i64)> = shot["drawn_path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c[0].as_i64().unwrap(), c[1].as_i64().unwrap()))
            .collect();
        tapped.sort();
        want.sort();
        assert_eq!(tapped, want, "{name}: every drawn cell tapped");
        let mut visited: Vec<(i64, i64)> = Vec::new();
        for e in &events[downs[drawn]..] {
            if e.kind == "pointerup" {
                break;
            }
            let c = cell(e);
            if visited.last() != Some(&c) {
                visited.push(c);
            }
        }
        assert_eq!(
            visited.first(),
            visited.last(),
            "{name}: back into the start cell"
        );
        let hints = hints_of(shot);
        assert_cycle_meets(&visited[..visited.len() - 1], &hints);
        played += 1;
    }
    assert_eq!(played, 2);
}
