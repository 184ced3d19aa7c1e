//! Conversions: `scan --to FORMAT` writes a picture's board or a puzzle file in another of the
//! game's formats, and each reads back as the same puzzle; an unknown format is a usage error
//! that lists the game's.

use crate::support::command::{run_expecting as run, TestCommand};
use crate::support::fixture;

fn path(game: &str, name: &str) -> String {
    fixture(game, name).display().to_string()
}

/// A file of its own under the temporary folder, for one test's output.
fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("autoplayer-formats-{}-{name}", std::process::id()))
}

#[test]
fn a_pictures_board_as_a_game_id_reads_back_as_the_board_scanned() {
    let picture = path("hashi", "bridges_10x10_fresh_ts40.png");
    let canonical = run(&["scan", "hashi", &picture], "", 0).stdout;
    let id = run(&["scan", "hashi", &picture, "--to", "id"], "", 0).stdout;
    assert!(id.starts_with("10x10m") && id.lines().count() == 1, "{id}");
    let file = temp("board.txt");
    std::fs::write(&file, &id).unwrap();
    let file = file.display().to_string();
    let janko = run(&["scan", "hashi", &file, "--to", "janko"], "", 0).stdout;
    let back_file = temp("board.json");
    std::fs::write(&back_file, &janko).unwrap();
    let back = run(&["scan", "hashi", &back_file.display().to_string()], "", 0).stdout;
    assert_eq!(back, canonical);
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&back_file);
}

#[test]
fn a_puzzle_file_goes_through_each_of_flows_formats_and_back() {
    let seed = path("flow", "standard_5x5.flow");
    let original = std::fs::read_to_string(&seed).unwrap();
    for format in ["mzucker", "pack"] {
        let out = run(&["scan", "flow", &seed, "--to", format], "", 0).stdout;
        let file = temp(&format!("5x5.{format}"));
        std::fs::write(&file, &out).unwrap();
        let back = run(&["scan", "flow", &file.display().to_string()], "", 0).stdout;
        assert_eq!(back, original, "through {format}:\n{out}");
        let _ = std::fs::remove_file(&file);
    }
    let json = run(&["scan", "flow", &seed, "--to", "pack", "--json"], "", 0).json();
    assert_eq!(json["game"], "flow");
    assert_eq!(json["format"], "pack");
    assert!(json["puzzle"].as_str().unwrap().starts_with("5,0,1,5;"));
}

#[test]
fn a_batch_names_its_files_with_the_formats_extension() {
    let dir = temp("batch");
    let out = TestCommand::autoplayer()
        .args(["scan", "enclose", "--to", "json", "-o"])
        .arg(&dir)
        .arg(fixture("enclose", "lovebirds.enclose"))
        .arg(fixture("enclose", "portal_pen.enclose"))
        .run();
    out.assert_success();
    for name in ["lovebirds", "portal_pen"] {
        let text = std::fs::read_to_string(dir.join(format!("{name}.json")))
            .unwrap_or_else(|e| out.fail(&format!("{name}.json: {e}")));
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(v["map"].is_string() && v["budget"].is_u64(), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_format_is_refused_naming_the_games_formats() {
    let puzzle = path("loop", "daily_2026-01-01_hard.loop");
    let out = run(&["scan", "loop", &puzzle, "--to", "xml"], "", 2);
    assert!(out.stdout.is_empty(), "{out}");
    assert!(
        out.stderr.contains("--to xml") && out.stderr.contains("it writes loop"),
        "{out}"
    );
    let out = run(&["scan", "auto", &puzzle, "--to", "xml"], "", 2);
    assert!(
        out.stderr.contains("hashi writes hashi, id, janko"),
        "{out}"
    );
    // A format of another game is as unknown to this one.
    let out = run(&["scan", "loop", &puzzle, "--to", "janko"], "", 2);
    assert!(out.stderr.contains("--to janko"), "{out}");
}

#[test]
fn a_board_a_format_cannot_draw_is_an_error_not_a_wrong_file() {
    let file = temp("bridged.flow");
    std::fs::write(&file, "BRIDGES\nA-*-A\n| | |\nB-.-B\n").unwrap();
    let out = run(
        &[
            "scan",
            "flow",
            &file.display().to_string(),
            "--to",
            "mzucker",
        ],
        "",
        2,
    );
    assert!(out.stdout.is_empty(), "{out}");
    assert!(
        out.stderr.contains("no mzucker form") && out.stderr.contains("bridges"),
        "{out}"
    );
    let _ = std::fs::remove_file(&file);
}

#[test]
fn solve_to_points_at_scan() {
    let puzzle = path("flow", "standard_5x5.flow");
    let out = run(&["solve", "flow", &puzzle, "--to", "pack"], "", 2);
    assert!(out.stderr.contains("scan flow FILE --to pack"), "{out}");
}
