//! Self-tests of the harness: each starts its own desktop, so they run in parallel.

use crate::support::bridges_app::{self, BridgesApp};
use crate::support::command::TestCommand;
use crate::support::desktop::{self, Desktop};
use crate::support::installed;
use crate::support::process::group_alive;
use crate::support::stage::{self, Stage, StageEvent};
use std::time::{Duration, Instant};

/// A 7x7 puzzle from the corpus (`corpus/hashi/README.md`) and its Game ▸ Copy text
/// before any move.
const GAME: &str = "7x7m2:4e4a1a5a4zb23b5a4a";
const FRESH: &str = "\
4.....4
.1.5.4.
.......
.......
.......
......2
3..5.4.
";

fn desktop_tools() -> bool {
    installed(desktop::TOOLS)
}

#[test]
fn desktop_starts_and_stops_cleanly() {
    if !desktop_tools() {
        return;
    }
    let start = Instant::now();
    let desktop = Desktop::start().unwrap();
    println!(
        "desktop {} ready in {:?}",
        desktop.display(),
        start.elapsed()
    );
    let info = desktop.run("xdpyinfo", &[]).unwrap();
    assert!(info.contains("1920x1080 pixels"), "{info}");
    let shot = desktop.temp_path("shot.png");
    desktop.screenshot(&shot).unwrap();
    assert!(std::fs::metadata(&shot).unwrap().len() > 0);

    let pids = desktop.pids();
    let lock = desktop.lock_file();
    assert!(lock.exists());
    let start = Instant::now();
    drop(desktop);
    println!("desktop stopped in {:?}", start.elapsed());
    for pid in pids {
        assert!(!group_alive(pid), "process group {pid} survived the drop");
    }
    assert!(!lock.exists(), "{} survived the drop", lock.display());
}

#[test]
fn a_panicking_test_still_stops_what_it_started() {
    if !desktop_tools() || !installed(bridges_app::TOOLS) {
        return;
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let outcome = std::thread::spawn(move || {
        let desktop = Desktop::start().unwrap();
        let app = BridgesApp::launch(&desktop, GAME, 32).unwrap();
        tx.send((desktop.pids(), app.pid(), desktop.lock_file()))
            .unwrap();
        panic!("deliberate panic: the harness must clean up while unwinding");
    })
    .join();
    assert!(outcome.is_err());
    let (pids, app, lock) = rx.recv().unwrap();
    for pid in pids.into_iter().chain([app]) {
        assert!(!group_alive(pid), "process group {pid} survived the panic");
    }
    assert!(!lock.exists(), "{} survived the panic", lock.display());
}

#[test]
fn two_desktops_get_different_displays() {
    if !desktop_tools() {
        return;
    }
    let a = Desktop::start().unwrap();
    let b = Desktop::start().unwrap();
    assert_ne!(a.display(), b.display());
}

#[test]
fn bridges_window_has_the_documented_size_at_two_tile_sizes() {
    if !desktop_tools() || !installed(bridges_app::TOOLS) {
        return;
    }
    let desktop = Desktop::start().unwrap();
    for ts in [32, 48] {
        let start = Instant::now();
        let app = BridgesApp::launch(&desktop, GAME, ts).unwrap();
        println!("Bridges ts={ts} mapped in {:?}", start.elapsed());
        let g = app.geometry().unwrap();
        assert_eq!((g.width, g.height), app.expected_size(), "ts={ts}: {g:?}");
        assert_eq!((g.width, g.height), (8 * ts, 8 * ts + 25));
        let info = desktop.run("xwininfo", &["-id", app.window_id()]).unwrap();
        assert!(info.contains("\"Bridges\""), "{info}");

        // The player's own capture (xcap, reading DISPLAY) must see the same client area.
        let png = desktop.temp_path(&format!("bridges-{ts}.png"));
        TestCommand::autoplayer()
            .on(&desktop)
            .args(["capture", "--window", "Bridges", "-o"])
            .arg(&png)
            .run()
            .assert_success();
        let shot = image::open(&png).unwrap();
        assert_eq!((shot.width(), shot.height()), (g.width, g.height));
        let pid = app.pid();
        drop(app);
        assert!(!group_alive(pid));
    }
}

#[test]
fn bridges_copy_text_shows_the_board_and_a_dragged_bridge() {
    if !desktop_tools() || !installed(bridges_app::TOOLS) {
        return;
    }
    let desktop = Desktop::start().unwrap();
    let app = BridgesApp::launch(&desktop, GAME, 40).unwrap();
    let start = Instant::now();
    assert_eq!(app.copy_text().unwrap().trim_end(), FRESH.trim_end());
    println!("copy_text took {:?}", start.elapsed());

    // Drags between the centres given by the geometry formula: one bridge from the 4 at
    // (0,0) right to the 4 at (6,0), and two down to the 3 at (0,6), so both axes and the
    // far row and column are checked.
    let right = (
        app.cell_centre(0, 0).unwrap(),
        app.cell_centre(6, 0).unwrap(),
    );
    let down = (
        app.cell_centre(0, 0).unwrap(),
        app.cell_centre(0, 6).unwrap(),
    );
    for (from, to) in [right, down, down] {
        let steps: Vec<(i32, i32)> = (0..=8)
            .map(|i| {
                (
                    from.0 + (to.0 - from.0) * i / 8,
                    from.1 + (to.1 - from.1) * i / 8,
                )
            })
            .collect();
        desktop.drag(&steps).unwrap();
    }
    let expected = "\
4-----4
\"1.5.4.
\"......
\"......
\"......
\".....2
3..5.4.";
    assert_eq!(app.copy_text().unwrap().trim_end(), expected);
}

#[test]
fn command_runs_the_binary_and_reports_failures() {
    let run = TestCommand::autoplayer().arg("--version").run();
    run.assert_success()
        .assert_stdout_contains(env!("CARGO_PKG_VERSION"));
    TestCommand::autoplayer()
        .arg("--help")
        .run()
        .assert_success()
        .assert_stdout_contains("Usage");
    let bad = TestCommand::autoplayer()
        .arg("--no-such-flag")
        .env("RUST_BACKTRACE", "0")
        .run();
    assert_ne!(bad.code, Some(0));
    let report = bad.to_string();
    assert!(
        report.contains("--no-such-flag") && report.contains("--- stderr ---"),
        "{report}"
    );
    let piped = TestCommand::new("cat").stdin("hello").run();
    piped.assert_success().assert_stdout_contains("hello");
    let slow = TestCommand::new("sleep")
        .arg("5")
        .timeout(std::time::Duration::from_millis(200))
        .run();
    assert!(slow.timed_out && slow.code.is_none(), "{slow}");
}

#[test]
fn stage_shows_the_image_and_records_a_click_at_a_known_pixel() {
    if !desktop_tools() || !installed(stage::TOOLS) {
        return;
    }
    let desktop = Desktop::start().unwrap();
    // A picture with a distinct pixel grid, so a misplaced or scaled page cannot match.
    let picture = image::RgbImage::from_fn(300, 200, |x, y| {
        image::Rgb([
            (x % 256) as u8,
            (y % 256) as u8,
            ((x * 7 + y * 13) % 256) as u8,
        ])
    });
    let png = desktop.temp_path("stage.png");
    picture.save(&png).unwrap();

    let start = Instant::now();
    let stage = Stage::start(&desktop, &png, "Harness Stage").unwrap();
    println!(
        "stage up in {:?} at {}, image origin {:?}",
        start.elapsed(),
        stage.url(),
        stage.image_origin()
    );
    let info = desktop
        .run("xwininfo", &["-name", stage.window_title()])
        .unwrap();
    assert!(info.contains("\"Harness Stage\""), "{info}");

    let (px, py) = (123, 45);
    let (sx, sy) = stage.to_screen(px, py);
    let xy = [sx.to_string(), sy.to_string()];
    desktop
        .run("xdotool", &["mousemove", &xy[0], &xy[1], "click", "1"])
        .unwrap();
    let events = stage
        .wait_for_events(Duration::from_secs(5), |e| {
            e.iter().any(|e| e.kind == "click")
        })
        .unwrap();
    let kinds: Vec<&str> = events.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["pointerdown", "pointerup", "click"], "{events:#?}");
    for e in &events {
        assert_eq!((e.x, e.y), (px as f64, py as f64), "{e:?}");
        assert_eq!(e.pixel(), (px as i64, py as i64));
    }
    assert_eq!((events[0].button, events[0].buttons), (0, 1));
    assert_eq!(events[1].buttons, 0);

    // A drag shows up as down, moves with the button held, up.
    let path: Vec<(i32, i32)> = (0..=4).map(|i| stage.to_screen(10 + 20 * i, 100)).collect();
    desktop.drag(&path).unwrap();
    let events = stage
        .wait_for_events(Duration::from_secs(5), |e| {
            e.iter().filter(|e| e.kind == "pointerup").count() == 2
        })
        .unwrap();
    let drag = &events[3..];
    assert_eq!(drag.first().map(|e| e.kind.as_str()), Some("pointerdown"));
    assert!(drag.iter().all(|e| e.kind != "pointercancel"), "{drag:#?}");
    let moves: Vec<(i64, i64)> = drag
        .iter()
        .filter(|e| e.kind == "pointermove")
        .map(StageEvent::pixel)
        .collect();
    assert_eq!(
        moves,
        [(30, 100), (50, 100), (70, 100), (90, 100)],
        "{drag:#?}"
    );

    let pid = stage.chromium_pid();
    let start = Instant::now();
    drop(stage);
    println!("stage stopped in {:?}", start.elapsed());
    assert!(!group_alive(pid));
}
