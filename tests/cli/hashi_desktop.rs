//! Hashi end to end on a real desktop: the real Bridges app under Xvfb + openbox, and the web
//! Hashi game's screenshots on the browser test stage. Every test starts what it needs and
//! stops it by PID (see `support`).

use crate::support::bridges_app::{self, BridgesApp};
use crate::support::command::TestCommand;
use crate::support::desktop::{self, Desktop};
use crate::support::installed;
use crate::support::stage::{self, Stage};
use autoplayer::games::hashi::model::{Bridge, Cell, Puzzle};
use autoplayer::games::hashi::solve;
use autoplayer::games::hashi::{check, format};
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Duration;

/// The puzzle of the project's own fixture captures (fixtures/hashi/PROVENANCE.md).
const FIXTURE_ID: &str = "10x10m2:2d4c3l1b2b2m5b4a2j1d1a2a1b4a6a4d5j3h4";

fn desktop_tools() -> bool {
    installed(desktop::TOOLS) && installed(bridges_app::TOOLS)
}

/// Reads the app's board through Game ▸ Copy (not through our own recogniser) and checks it
/// against every rule with the independent checker.
fn assert_app_board_solved(app: &BridgesApp, id: &str) -> Vec<Bridge> {
    let text = app.copy_text().unwrap();
    let (puzzle, bridges) = format::parse_copy_text(&text, "Game > Copy").unwrap();
    let truth = format::parse(id, "id").unwrap();
    assert_eq!(puzzle.rows(), truth.rows(), "islands differ:\n{text}");
    if let Err(why) = check::check(&truth, &bridges) {
        panic!("the app's board is not solved ({why}):\n{text}");
    }
    bridges
}

fn play_on(desktop: &Desktop, extra: &[&str]) -> crate::support::command::Run {
    TestCommand::autoplayer()
        .on(desktop)
        .args(["play", "hashi", "--window", "Bridges", "--pause-ms", "10"])
        .args(extra)
        .timeout(Duration::from_secs(120))
        .run()
}

#[test]
fn plays_a_fresh_board_in_the_real_app() {
    if !desktop_tools() {
        return;
    }
    let desktop = Desktop::start().unwrap();
    let app = BridgesApp::launch(&desktop, FIXTURE_ID, 48).unwrap();
    let log = tempfile::NamedTempFile::new().unwrap();
    let run = play_on(
        &desktop,
        &["--delay", "1", "--log", log.path().to_str().unwrap()],
    );
    run.assert_success();
    run.assert_stdout_contains("verified");
    assert!(run.stderr.contains("starting in 1 s"), "{}", run.stderr);
    assert_app_board_solved(&app, FIXTURE_ID);
    // The log holds what was sent: one press and one release per drag, in time order.
    let text = std::fs::read_to_string(log.path()).unwrap();
    let count = |kind: &str| {
        text.lines()
            .filter(|l| l.split(' ').nth(1) == Some(kind))
            .count()
    };
    let drags = run
        .stdout
        .lines()
        .filter(|l| l.contains(". drag ("))
        .count();
    assert!(
        drags > 0 && count("press") == drags,
        "{drags} drags\n{text}"
    );
    assert_eq!(count("release"), count("press"));
    let times: Vec<f64> = text
        .lines()
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]));
}

/// A wrong bridge is on the board first: play must take it away before it adds the others.
#[test]
fn removes_a_wrong_bridge_then_solves() {
    if !desktop_tools() {
        return;
    }
    let desktop = Desktop::start().unwrap();
    let app = BridgesApp::launch(&desktop, FIXTURE_ID, 32).unwrap();
    let truth = format::parse(FIXTURE_ID, "id").unwrap();
    let solution = match solve::solve(&truth, &Default::default()) {
        autoplayer::solving::Outcome::Solved(solve::Found { bridges, .. }) => bridges,
        other => panic!("fixture puzzle not solved: {other:?}"),
    };
    let wrong = truth
        .neighbour_pairs()
        .into_iter()
        .find(|(a, b)| !solution.iter().any(|s| s.a == *a && s.b == *b))
        .expect("some pair of neighbours is not bridged in the solution");
    let from = app
        .cell_centre(wrong.0.col as u32, wrong.0.row as u32)
        .unwrap();
    let to = app
        .cell_centre(wrong.1.col as u32, wrong.1.row as u32)
        .unwrap();
    desktop.drag(&[from, to]).unwrap();
    let before = app.copy_text().unwrap();
    let (_, drawn) = format::parse_copy_text(&before, "Game > Copy").unwrap();
    assert_eq!(
        drawn.len(),
        1,
        "the wrong bridge should be on the board:\n{before}"
    );

    play_on(&desktop, &[]).assert_success();
    let after = assert_app_board_solved(&app, FIXTURE_ID);
    assert!(!after.iter().any(|b| b.a == wrong.0 && b.b == wrong.1));
}

/// Plays the first corpus puzzle that `pick` accepts at tile size `tile`, and checks the app's
/// board equals the app's own recorded solution.
fn play_a_corpus_puzzle(pick: impl Fn(&Value) -> bool, tile: u32) {
    if !desktop_tools() {
        return;
    }
    let Some(path) = autoplayer::corpus::path("hashi/bridges.jsonl") else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let record: Value = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| pick(v))
        .expect("such a puzzle in bridges.jsonl");
    let id = record["id"].as_str().unwrap();
    let desktop = Desktop::start().unwrap();
    let app = BridgesApp::launch(&desktop, id, tile).unwrap();
    let run = play_on(&desktop, &[]);
    run.assert_success();
    println!("{id} played and verified in {:?}", run.elapsed);
    run.assert_stdout_contains("verified");
    // Game > Copy writes every count above one as a double (`=`, `"`), so with a limit of 3
    // the independent reading is compared with the solution's counts capped at 2.
    let board = if record["maxb"] == 2 {
        assert_app_board_solved(&app, id)
    } else {
        let text = app.copy_text().unwrap();
        format::parse_copy_text(&text, "Game > Copy").unwrap().1
    };
    let got: BTreeMap<(Cell, Cell), u8> = board
        .into_iter()
        .map(|b| ((b.a, b.b), b.count.min(2)))
        .collect();
    let want: BTreeMap<(Cell, Cell), u8> = format::bridges_from_json(
        &record["solution_bridges"],
        format::CellOrder::ColumnFirst,
        "bridges.jsonl",
    )
    .unwrap()
    .into_iter()
    .map(|b| ((b.a, b.b), b.count.min(2)))
    .collect();
    assert_eq!(got, want, "differs from the app's own solution");
}

/// The largest boards the app makes at a small tile size, from the corpus.
#[test]
fn plays_a_30x30_board_and_matches_the_apps_own_solution() {
    play_a_corpus_puzzle(|v| v["w"] == 30 && v["h"] == 30, 24);
}

/// Up to three bridges per pair (a third drag wraps nothing yet), at a large tile size.
#[test]
fn plays_a_corpus_puzzle_with_triple_bridges_at_a_large_tile_size() {
    play_a_corpus_puzzle(|v| v["maxb"] == 3, 64);
}

/// The user parks the pointer in a corner while play runs: exit 3, and the board is left as
/// it was at that moment (no further gestures).
#[test]
fn parking_the_pointer_in_a_corner_stops_play() {
    if !desktop_tools() {
        return;
    }
    let desktop = Desktop::start().unwrap();
    let _app = BridgesApp::launch(&desktop, FIXTURE_ID, 48).unwrap();
    let player = desktop
        .command(env!("CARGO_BIN_EXE_autoplayer"))
        .args(["play", "hashi", "--window", "Bridges", "--pause-ms", "400"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    desktop.run("xdotool", &["mousemove", "0", "0"]).unwrap();
    let out = player.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("fail-safe"), "{err}");
}

/// `--moves 1`: one bridge the rules force, played and verified; the app's own text of its
/// board shows that one bridge and no other.
#[test]
fn a_hint_plays_one_forced_bridge() {
    if !desktop_tools() {
        return;
    }
    let desktop = Desktop::start().unwrap();
    let app = BridgesApp::launch(&desktop, FIXTURE_ID, 40).unwrap();
    let log = tempfile::NamedTempFile::new().unwrap();
    let run = play_on(
        &desktop,
        &["--moves", "1", "--log", log.path().to_str().unwrap()],
    );
    run.assert_success();
    run.assert_stdout_contains("hint: 1 move(s)");
    run.assert_stdout_contains("verified: the board shows the hint");
    let text = std::fs::read_to_string(log.path()).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.contains(" press ")).count(),
        1,
        "{text}"
    );
    let (_, bridges) = format::parse_copy_text(&app.copy_text().unwrap(), "Game > Copy").unwrap();
    assert_eq!(bridges.len(), 1, "{bridges:?}");
    assert_eq!(bridges[0].count, 1);
    // The bridge is one the answer has.
    let truth = format::parse(FIXTURE_ID, "id").unwrap();
    let answer = match solve::solve(&truth, &Default::default()) {
        autoplayer::solving::Outcome::Solved(f) => f.bridges,
        other => panic!("{other:?}"),
    };
    assert!(answer
        .iter()
        .any(|b| b.a == bridges[0].a && b.b == bridges[0].b));
}

/// Esc stops play as the mouse does, though no autoplayer window has the keyboard focus.
#[test]
fn pressing_esc_stops_play() {
    if !desktop_tools() {
        return;
    }
    let desktop = Desktop::start().unwrap();
    let _app = BridgesApp::launch(&desktop, FIXTURE_ID, 48).unwrap();
    let player = desktop
        .command(env!("CARGO_BIN_EXE_autoplayer"))
        .args(["play", "hashi", "--window", "Bridges", "--pause-ms", "400"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    desktop.run("xdotool", &["keydown", "Escape"]).unwrap();
    std::thread::sleep(Duration::from_millis(80));
    desktop.run("xdotool", &["keyup", "Escape"]).unwrap();
    let out = player.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("Esc pressed"), "{err}");
}

/// `--series 2`: the fixture board, then Game ▸ New game found on the screen and clicked, and
/// the new board played too; each verified, one JSON object each, each kept in the log folder.
#[test]
fn plays_a_series_through_the_game_menu() {
    if !desktop_tools() {
        return;
    }
    let desktop = Desktop::start().unwrap();
    let app = BridgesApp::launch(&desktop, FIXTURE_ID, 40).unwrap();
    let logs = tempfile::tempdir().unwrap();
    let run = play_on(
        &desktop,
        &[
            "--series",
            "2",
            "--json",
            "--log-dir",
            logs.path().to_str().unwrap(),
        ],
    );
    run.assert_success();
    let boards: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(boards.len(), 2, "{}", run.stdout);
    for (i, b) in boards.iter().enumerate() {
        assert_eq!(b["board"], i + 1);
        assert_eq!(b["verified"], true);
        assert_eq!(b["size"], "10×10");
    }
    assert_ne!(
        boards[0]["puzzle"], boards[1]["puzzle"],
        "the same board twice"
    );
    // The app's own text of its board: the second puzzle, solved.
    let (puzzle, bridges) =
        format::parse_copy_text(&app.copy_text().unwrap(), "Game > Copy").unwrap();
    check::check(&puzzle, &bridges).unwrap();
    let second = std::fs::read_to_string(logs.path().join("board-002.hashi")).unwrap();
    let second = format::parse(&second, "board-002.hashi").unwrap();
    assert_eq!(puzzle.rows(), second.rows());
    assert!(logs.path().join("board-001.png").exists());
    assert!(logs.path().join("board-002.solution").exists());
}

/// Replays recorded pointer presses with the web Hashi game's rules: a press on an island
/// when a neighbour it sees is selected cycles their bridge 0→1→2→0 and selects it; a press on
/// an island otherwise selects it; a press on an empty cell off every bridge line clears the
/// selection.
fn replay_web_presses(
    p: &Puzzle,
    drawn: &[Bridge],
    presses: &[(usize, usize)],
) -> BTreeMap<(Cell, Cell), u8> {
    let pairs = p.neighbour_pairs();
    let mut counts: BTreeMap<(Cell, Cell), u8> =
        drawn.iter().map(|b| ((b.a, b.b), b.count)).collect();
    let mut selected: Option<Cell> = None;
    for &(row, col) in presses {
        let c = Cell { row, col };
        if p.island_at(c).is_none() {
            let on_line = pairs.iter().any(|(a, b)| {
                (a.row == b.row && a.row == row && a.col < col && col < b.col)
                    || (a.col == b.col && a.col == col && a.row < row && row < b.row)
            });
            assert!(!on_line, "a press at {c:?} lands on a bridge line");
            selected = None;
            continue;
        }
        if let Some(s) = selected.filter(|&s| s != c) {
            let key = if s < c { (s, c) } else { (c, s) };
            if pairs.contains(&key) {
                let n = counts.entry(key).or_insert(0);
                *n = (*n + 1) % 3;
            }
        }
        selected = Some(c);
    }
    counts.retain(|_, n| *n > 0);
    counts
}

/// The web game's screenshots on the browser test stage: the presses the player sends, replayed
/// by the game's rules over what the screenshot shows, must make a solution of the puzzle.
#[test]
fn web_hashi_screenshots_on_the_stage_get_solving_clicks() {
    if !installed(desktop::TOOLS) || !installed(stage::TOOLS) {
        return;
    }
    let Some(index) = autoplayer::corpus::path("hashi/app-screens/index.jsonl") else {
        return;
    };
    let dir = index.parent().unwrap().to_path_buf();
    let desktop = Desktop::start_sized(2200, 1300).unwrap();
    let text = std::fs::read_to_string(&index).unwrap();
    let mut played = 0;
    for line in text.lines() {
        let rec: Value = serde_json::from_str(line).unwrap();
        let file = rec["file"].as_str().unwrap();
        if !file.starts_with("hashi_") {
            continue;
        }
        let truth = format::parse(rec["tr1_code"].as_str().unwrap(), file).unwrap();
        let title = format!("autoplayer stage {file}");
        let stage = Stage::start(&desktop, &dir.join(file), &title).unwrap();
        let run = TestCommand::autoplayer()
            .on(&desktop)
            .args([
                "play",
                "hashi",
                "--window",
                stage.window_title(),
                "--no-verify",
                "--json",
                "--pause-ms",
                "5",
            ])
            .timeout(Duration::from_secs(60))
            .run();
        run.assert_success();
        let report: Value = serde_json::from_str(&run.stdout).unwrap();
        let g = &report["scan"]["geometry"];
        let (ox, oy, pitch) = (
            g["origin"][0].as_f64().unwrap(),
            g["origin"][1].as_f64().unwrap(),
            g["pitch"].as_f64().unwrap(),
        );
        let drawn = format::bridges_from_json(
            &report["scan"]["bridges"],
            format::CellOrder::RowFirst,
            "scan --json",
        )
        .unwrap();
        let want = report["plan"]["actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["kind"] == "click")
            .count();
        let events = stage
            .wait_for_events(Duration::from_secs(10), |evs| {
                evs.iter().filter(|e| e.kind == "pointerdown").count() >= want
            })
            .unwrap();
        assert!(
            events.iter().all(|e| e.kind != "pointercancel"),
            "{file}: a gesture was cancelled"
        );
        let presses: Vec<(usize, usize)> = events
            .iter()
            .filter(|e| e.kind == "pointerdown")
            .map(|e| {
                let (px, py) = e.pixel();
                let col = (px as f64 - ox) / pitch;
                let row = (py as f64 - oy) / pitch;
                assert!(
                    col > -0.5 && row > -0.5,
                    "{file}: press at {px},{py} is off the grid"
                );
                (row.round() as usize, col.round() as usize)
            })
            .collect();
        assert_eq!(
            presses.len(),
            want,
            "{file}: every planned click arrived, no more"
        );
        let result: Vec<Bridge> = replay_web_presses(&truth, &drawn, &presses)
            .into_iter()
            .map(|((a, b), n)| Bridge::new(a, b, n))
            .collect();
        if let Err(why) = check::check(&truth, &result) {
            panic!("{file}: the recorded clicks do not solve the puzzle: {why}");
        }
        played += 1;
    }
    assert_eq!(played, 8, "every web screenshot was played");
}
