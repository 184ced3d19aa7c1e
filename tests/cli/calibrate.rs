//! `calibrate` and `--calibration` through the real binary, on captures this project took.

use crate::support::command::{run_expecting as run, Run};
use std::path::{Path, PathBuf};

const FIXTURE_ID: &str = "10x10m2:2d4c3l1b2b2m5b4a2j1d1a2a1b4a6a4d5j3h4";

fn fixture(name: &str) -> String {
    crate::support::fixture("hashi", name)
        .to_str()
        .unwrap()
        .to_string()
}

/// The Bridges captures kept with the shipped profile, each with its game ID (in its name).
fn kept_captures(dir: &Path) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration/hashi/captures");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    let mut args = Vec::new();
    for shot in names {
        let name = shot.file_name().unwrap().to_str().unwrap().to_string();
        let parts: Vec<&str> = name.split('_').collect();
        let puzzle = dir.join(format!("{name}.hashi"));
        std::fs::write(&puzzle, format!("{}:{}\n", parts[1], parts[2])).unwrap();
        args.push(shot.to_str().unwrap().to_string());
        args.push(puzzle.to_str().unwrap().to_string());
    }
    args
}

/// Learns from the fresh 10×10 capture and the three kept captures (digits 0–8 between them).
fn learn(dir: &Path) -> PathBuf {
    let puzzle = dir.join("fresh.hashi");
    std::fs::write(&puzzle, FIXTURE_ID).unwrap();
    let profile = dir.join("mine.json");
    let mut args = vec![
        "calibrate".to_string(),
        "hashi".into(),
        fixture("bridges_10x10_fresh_ts40.png"),
        puzzle.to_str().unwrap().into(),
    ];
    args.extend(kept_captures(dir));
    args.extend(["-o".into(), profile.to_str().unwrap().into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&args, "", 0);
    assert!(out.stdout.contains("hashi (sgt)"), "{}", out.stdout);
    profile
}

#[test]
fn a_learned_profile_names_its_pictures_and_reads_another_capture_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let profile = learn(dir.path());
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&profile).unwrap()).unwrap();
    assert_eq!(v["game"], "hashi");
    assert_eq!(v["style"], "sgt");
    let made_from = v["made_from"].as_array().unwrap();
    assert_eq!(made_from.len(), 1 + kept_captures(dir.path()).len() / 2);
    assert!(made_from[0]
        .as_str()
        .unwrap()
        .ends_with("bridges_10x10_fresh_ts40.png"));
    let labels: Vec<&str> = v["templates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"1") && labels.contains(&"6"), "{labels:?}");

    // A capture it never saw, with bridges drawn over the board.
    let out = run(
        &[
            "scan",
            "hashi",
            &fixture("bridges_10x10_partial_ts40.png"),
            "--calibration",
            profile.to_str().unwrap(),
            "-o",
            dir.path().join("read.hashi").to_str().unwrap(),
        ],
        "",
        0,
    );
    let read = std::fs::read_to_string(dir.path().join("read.hashi")).unwrap();
    let want = run(&["solve", "hashi", "-", "--json"], FIXTURE_ID, 0);
    let got = run(&["solve", "hashi", "-", "--json"], &read, 0);
    assert_eq!(
        Run::json(&want)["bridges"],
        Run::json(&got)["bridges"],
        "{}",
        out.stdout
    );
}

#[test]
fn a_profile_for_another_look_or_a_broken_one_is_refused_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let profile = learn(dir.path());
    let web = dir.path().join("web.json");
    let text = std::fs::read_to_string(&profile).unwrap();
    std::fs::write(&web, text.replace("\"style\":\"sgt\"", "\"style\":\"web\"")).unwrap();
    let img = fixture("bridges_10x10_fresh_ts40.png");
    let out = run(
        &[
            "scan",
            "hashi",
            &img,
            "--calibration",
            web.to_str().unwrap(),
        ],
        "",
        2,
    );
    assert!(out.stderr.contains("hashi (web)"), "{}", out.stderr);

    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\"game\": \"hashi\",\n  \"style\": 7}").unwrap();
    let out = run(
        &[
            "scan",
            "hashi",
            &img,
            "--calibration",
            broken.to_str().unwrap(),
        ],
        "",
        2,
    );
    assert!(
        out.stderr.contains("broken.json") && out.stderr.contains("line 2"),
        "{}",
        out.stderr
    );
}

#[test]
fn calibrate_refuses_a_wrong_puzzle_a_missing_one_and_a_game_with_nothing_to_learn() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.hashi");
    std::fs::write(&other, "7x7m2:4e4a1a5a4zb23b5a4a").unwrap();
    let img = fixture("bridges_10x10_fresh_ts40.png");
    let out_file = dir.path().join("p.json");
    let o = out_file.to_str().unwrap();
    let out = run(
        &["calibrate", "hashi", &img, other.to_str().unwrap(), "-o", o],
        "",
        2,
    );
    assert!(
        out.stderr.contains("bridges_10x10_fresh_ts40.png") && out.stderr.contains("7x7"),
        "{}",
        out.stderr
    );
    assert!(!out_file.exists(), "nothing is written after an error");

    let out = run(
        &[
            "calibrate",
            "hashi",
            &img,
            other.to_str().unwrap(),
            &img,
            "-o",
            o,
        ],
        "",
        2,
    );
    assert!(out.stderr.contains("without its puzzle"), "{}", out.stderr);

    let out = run(
        &["calibrate", "flow", &img, other.to_str().unwrap(), "-o", o],
        "",
        2,
    );
    assert!(out.stderr.contains("nothing to learn"), "{}", out.stderr);
}

/// A fresh enclose.horse board captured here, and its map (rows and budget) from the
/// fixture's index, written as a puzzle file.
fn enclose_page(dir: &Path, name: &str) -> (String, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/enclose/page");
    let index = std::fs::read_to_string(root.join("index.jsonl")).unwrap();
    let entry: serde_json::Value = index
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["file"] == name)
        .unwrap();
    let rows: Vec<&str> = entry["map_rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let puzzle = dir.join(format!("{name}.enclose"));
    std::fs::write(
        &puzzle,
        format!("budget: {}\n{}\n", entry["budget"], rows.join("\n")),
    )
    .unwrap();
    (
        root.join(name).to_str().unwrap().to_string(),
        puzzle.to_str().unwrap().to_string(),
    )
}

/// Sprites learned from one theme's capture (girl: horse, cherries, portals) read a board of
/// another theme (classic) exactly; a map of another size is refused, naming both sizes.
#[test]
fn enclose_sprites_learned_on_one_theme_read_another() {
    let dir = tempfile::tempdir().unwrap();
    let (girl, girl_map) = enclose_page(dir.path(), "2026-01-15_girl_1600x1000_fresh.png");
    let (classic, classic_map) = enclose_page(dir.path(), "2026-01-16_classic_1600x1000_fresh.png");
    let profile = dir.path().join("page.json");
    let p = profile.to_str().unwrap();
    let out = run(&["calibrate", "enclose", &girl, &girl_map, "-o", p], "", 0);
    assert!(out.stdout.contains("enclose (page)"), "{}", out.stdout);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&profile).unwrap()).unwrap();
    let labels: Vec<&str> = v["templates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["label"].as_str().unwrap())
        .collect();
    for sprite in ["horse", "cherry", "portal"] {
        assert!(labels.contains(&sprite), "{labels:?}");
    }

    let read = dir.path().join("read.enclose");
    run(
        &[
            "scan",
            "enclose",
            &classic,
            "--calibration",
            p,
            "-o",
            read.to_str().unwrap(),
        ],
        "",
        0,
    );
    let want = std::fs::read_to_string(&classic_map).unwrap();
    assert_eq!(std::fs::read_to_string(&read).unwrap().trim(), want.trim());

    // A Hashi profile is refused for an enclose picture, before reading.
    let hashi = Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration/hashi/sgt_digits.json");
    let out = run(
        &[
            "scan",
            "enclose",
            &classic,
            "--calibration",
            hashi.to_str().unwrap(),
        ],
        "",
        2,
    );
    assert!(out.stderr.contains("enclose (page)"), "{}", out.stderr);

    let out = run(
        &["calibrate", "enclose", &girl, &classic_map, "-o", p],
        "",
        2,
    );
    assert!(
        out.stderr.contains("the map is 14×") && out.stderr.contains("19×"),
        "{}",
        out.stderr
    );
}
