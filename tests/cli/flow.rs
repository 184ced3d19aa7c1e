//! Flow Free through the real binary: solve from the seed format and mzucker's rows, errors
//! with positions.

use crate::support::command::{play_refuses, run_expecting as run, Run};
use std::collections::BTreeMap;

fn fixture(name: &str) -> String {
    crate::support::fixture("flow", name)
        .to_string_lossy()
        .into_owned()
}

/// Checks the printed paths against the rules here, not with the solver's own validator:
/// each path runs between its letter's two cells through orthogonal steps, and together the
/// paths cover every cell of the (square, wall-less) board exactly once.
fn assert_square_board_solved(out: &Run, rows: &[&str]) {
    let v = out.json();
    assert_eq!(v["status"], "solved");
    let mut ends: BTreeMap<char, Vec<(i64, i64)>> = BTreeMap::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch.is_ascii_alphabetic() {
                ends.entry(ch).or_default().push((r as i64, c as i64));
            }
        }
    }
    let mut covered = BTreeMap::new();
    for (letter, want) in &ends {
        let path: Vec<(i64, i64)> = v["paths"][letter.to_string()]
            .as_array()
            .unwrap_or_else(|| out.fail(&format!("no path for {letter}")))
            .iter()
            .map(|c| (c[0].as_i64().unwrap(), c[1].as_i64().unwrap()))
            .collect();
        let (first, last) = (path[0], *path.last().unwrap());
        assert!(
            (first, last) == (want[0], want[1]) || (first, last) == (want[1], want[0]),
            "{letter}: {path:?}"
        );
        for w in path.windows(2) {
            assert_eq!(
                (w[0].0 - w[1].0).abs() + (w[0].1 - w[1].1).abs(),
                1,
                "{letter}"
            );
        }
        for cell in path {
            assert!(covered.insert(cell, *letter).is_none(), "{cell:?} shared");
        }
    }
    assert_eq!(
        covered.len(),
        rows.len() * rows[0].len(),
        "every cell covered"
    );
}

#[test]
fn solve_joins_every_pair_and_covers_the_board() {
    let out = run(
        &["solve", "flow", &fixture("standard_5x5.flow"), "--json"],
        "",
        0,
    );
    assert_eq!(out.json()["game"], "flow");
    assert_square_board_solved(&out, &["A.B.C", "..D.E", ".....", ".B.C.", ".ADE."]);
}

#[test]
fn mzucker_rows_on_stdin_parse_and_solve() {
    let rows = ["R.G.Y", "..B.O", ".....", ".G.Y.", ".RBO."];
    let out = run(&["solve", "flow", "-", "--json"], &rows.join("\n"), 0);
    assert_square_board_solved(&out, &rows);
    let text = run(&["solve", "flow", "-"], &rows.join("\n"), 0);
    assert!(text.stdout.contains("5 flows joined"), "{}", text.stdout);
}

#[test]
fn no_solution_is_exit_one_and_a_lone_endpoint_names_its_place() {
    // R and B must cross: no way to join both.
    let out = run(&["solve", "flow", "-", "--json"], "R.B\n...\nB.R\n", 1);
    assert_eq!(out.json()["status"], "unsolvable");
    let bad = run(&["solve", "flow", "-"], "A..\n...\n..B\n", 2);
    assert!(bad.stderr.contains("<stdin>:"), "{}", bad.stderr);
}

/// Whether two boards' rows are the same up to renaming the letters (one to one).
fn same_up_to_renaming(got: &[String], want: &[String]) -> bool {
    let mut map = BTreeMap::new();
    let mut back = BTreeMap::new();
    got.len() == want.len()
        && got.iter().zip(want).all(|(g, w)| {
            g.len() == w.len()
                && g.chars().zip(w.chars()).all(|(a, b)| match (a, b) {
                    ('.', '.') => true,
                    (a, b) if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() => {
                        *map.entry(a).or_insert(b) == b && *back.entry(b).or_insert(a) == a
                    }
                    _ => false,
                })
        })
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

fn cells(v: &serde_json::Value) -> Vec<[u64; 2]> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| [c[0].as_u64().unwrap(), c[1].as_u64().unwrap()])
        .collect()
}

/// The clone fixtures' index: file, rows and the pipes drawn by letter.
fn clone_index() -> Vec<serde_json::Value> {
    std::fs::read_to_string(crate::support::fixture("flow", "clone/index.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Scans a picture and checks it against an index entry: rows up to renaming, and each pipe
/// drawn (either way round) under the letter the renaming gives it.
fn assert_scan_reads(picture: &str, want_rows: &[String], drawn: &serde_json::Value) {
    let out = run(&["scan", "flow", picture, "--json"], "", 0);
    let v = out.json();
    assert_eq!(v["game"], "flow");
    let rows = strings(&v["rows"]);
    assert!(
        same_up_to_renaming(&rows, want_rows),
        "{picture}: read {rows:?}, want {want_rows:?}"
    );
    assert!(v["confidence"].as_f64().unwrap() >= 0.4, "{picture}");
    assert!(v["puzzle"].as_str().unwrap().starts_with("STANDARD\n"));
    // Read letter → index letter, from the endpoints' cells.
    let mut letter = BTreeMap::new();
    for (g, w) in rows.iter().zip(want_rows) {
        for (a, b) in g.chars().zip(w.chars()) {
            letter.insert(a, b);
        }
    }
    let read: BTreeMap<char, Vec<[u64; 2]>> = v["drawn"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let l = d["flow"].as_str().unwrap().chars().next().unwrap();
            (letter[&l], cells(&d["cells"]))
        })
        .collect();
    let want: BTreeMap<char, Vec<[u64; 2]>> = drawn
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, c)| (k.chars().next().unwrap(), cells(c)))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        read.len(),
        want.len(),
        "{picture}: pipes {read:?}, want {want:?}"
    );
    for (l, w) in &want {
        let mut rev = w.clone();
        rev.reverse();
        assert!(
            read.get(l) == Some(w) || read.get(l) == Some(&rev),
            "{picture}: pipe {l} read {:?}, want {w:?}",
            read.get(l)
        );
    }
}

#[test]
fn scan_reads_every_clone_fixture_exactly_with_its_pipes() {
    for e in clone_index() {
        let file = fixture(&format!("clone/{}", e["file"].as_str().unwrap()));
        assert_scan_reads(&file, &strings(&e["rows"]), &e["drawn"]);
    }
}

#[test]
fn scan_reads_jpeg_copies_of_the_clone_fixtures_the_same() {
    let dir = tempfile::tempdir().unwrap();
    for e in clone_index() {
        let name = e["file"].as_str().unwrap();
        let img = image::open(fixture(&format!("clone/{name}")))
            .unwrap()
            .to_rgb8();
        let copy = dir.path().join(name.replace(".png", ".jpg"));
        let mut bytes = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 90)
            .encode_image(&img)
            .unwrap();
        std::fs::write(&copy, bytes).unwrap();
        assert_scan_reads(copy.to_str().unwrap(), &strings(&e["rows"]), &e["drawn"]);
    }
}

#[test]
fn scan_reads_every_corpus_screenshot_with_a_known_grid() {
    let Some(dir) = autoplayer::corpus::path("flow/screenshots") else {
        return;
    };
    let index = std::fs::read_to_string(dir.join("index.jsonl")).unwrap();
    let mut read = 0;
    for line in index.lines() {
        let e: serde_json::Value = serde_json::from_str(line).unwrap();
        let Some(grid) = e["grid"].as_array() else {
            continue;
        };
        let grid: Vec<String> = grid.iter().map(|r| r.as_str().unwrap().into()).collect();
        let file = dir.join(e["file"].as_str().unwrap());
        assert_scan_reads(file.to_str().unwrap(), &grid, &serde_json::Value::Null);
        read += 1;
    }
    assert_eq!(read, 30);
}

#[test]
fn scan_prints_the_seed_text_and_draws_what_it_read() {
    let dir = tempfile::tempdir().unwrap();
    let overlay = dir.path().join("read.png");
    let out = run(
        &[
            "scan",
            "flow",
            &fixture("clone/clone_5x5_partial_700x800.png"),
            "--overlay",
            overlay.to_str().unwrap(),
        ],
        "",
        0,
    );
    assert!(out.stdout.starts_with("STANDARD\n"), "{}", out.stdout);
    // The printed text solves.
    let solved = run(&["solve", "flow", "-", "--json"], &out.stdout, 0);
    assert_eq!(solved.json()["status"], "solved");
    let drawn = image::open(&overlay).unwrap();
    assert_eq!((drawn.width(), drawn.height()), (700, 800));
}

#[test]
fn a_picture_of_another_game_is_refused_naming_why() {
    let hashi = crate::support::fixture("hashi", "bridges_10x10_fresh_ts40.png");
    let out = run(&["scan", "flow", hashi.to_str().unwrap()], "", 2);
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr.contains("Flow board") || out.stderr.contains("endpoint"),
        "{}",
        out.stderr
    );
    play_refuses("flow", &hashi);
}

#[test]
fn auto_names_the_clone_captures_flow() {
    for e in clone_index() {
        let file = fixture(&format!("clone/{}", e["file"].as_str().unwrap()));
        let out = run(&["scan", "auto", &file, "--json"], "", 0);
        assert_eq!(out.json()["game"], "flow", "{file}");
    }
}

/// `scan --to`: a puzzle file converted to the level-pack line and back reads as the same
/// puzzle; an unknown format is refused naming the game's formats.
#[test]
fn a_puzzle_converts_to_a_pack_line_and_back() {
    let file = crate::support::fixture("flow", "standard_5x5.flow");
    let own = run(&["scan", "flow", file.to_str().unwrap()], "", 0).stdout;
    let pack = run(
        &["scan", "flow", file.to_str().unwrap(), "--to", "pack"],
        "",
        0,
    )
    .stdout;
    let dir = tempfile::tempdir().unwrap();
    let line = dir.path().join("level.txt");
    std::fs::write(&line, &pack).unwrap();
    let back = run(&["scan", "flow", line.to_str().unwrap()], "", 0).stdout;
    assert_eq!(back, own, "pack line: {pack}");
    let bad = run(
        &["scan", "flow", file.to_str().unwrap(), "--to", "nope"],
        "",
        2,
    );
    assert!(bad.stderr.contains("mzucker"), "{}", bad.stderr);
}
