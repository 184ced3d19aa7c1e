use super::*;
use crate::games::hashi::check;
use crate::games::hashi::model::{Bridge, Bridges, Cell};
use crate::games::hashi::solve::{self, Found};
use crate::solving::{Limits, Outcome};
use serde_json::Value;

fn cell(row: usize, col: usize) -> Cell {
    Cell { row, col }
}

/// Line, column and message of a parse error.
fn error_at<T: std::fmt::Debug>(r: Result<T>) -> (usize, usize, String) {
    match r {
        Err(Error::Parse { pos, message }) => {
            assert_eq!(pos.source, "t");
            (pos.line, pos.column, message)
        }
        other => panic!("expected a parse error, got {other:?}"),
    }
}

fn corpus_records(rel: &str) -> Option<Vec<(String, Value)>> {
    let text = std::fs::read_to_string(crate::corpus::path(rel)?).unwrap();
    Some(
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| (l.to_string(), serde_json::from_str(l).unwrap()))
            .collect(),
    )
}

fn xy_bridges(v: &Value) -> Bridges {
    bridges_from_json(v, CellOrder::ColumnFirst, "corpus").unwrap()
}

#[test]
fn a_board_past_the_size_limit_is_refused_before_any_work() {
    let mut rows = vec![".".repeat(300); 300];
    rows[0] = format!("1{}1", ".".repeat(298));
    let text = format!("hashi 300x300 max=2\n{}\n", rows.join("\n"));
    let e = parse(&text, "big.hashi").unwrap_err().to_string();
    assert!(e.contains("big.hashi:1:1") && e.contains("65536"), "{e}");
}

#[test]
fn bridge_lists_read_in_either_order_and_refuse_short_entries() {
    let v: Value = serde_json::from_str("[[0, 2, 0, 5, 2]]").unwrap();
    let rows = bridges_from_json(&v, CellOrder::RowFirst, "t").unwrap();
    let cols = bridges_from_json(&v, CellOrder::ColumnFirst, "t").unwrap();
    assert_eq!(rows, vec![Bridge::new(cell(0, 2), cell(0, 5), 2)]);
    assert_eq!(cols, vec![Bridge::new(cell(2, 0), cell(5, 0), 2)]);
    let bad: Value = serde_json::from_str("[[0, 2, 0, 5, 2], [1, 2]]").unwrap();
    let e = bridges_from_json(&bad, CellOrder::RowFirst, "t").unwrap_err();
    assert!(e.to_string().contains("bridge 2"), "{e}");
}

const README_ID: &str = "7x7m2:4e4a1a5a4zb23b5a4a";
const README_COPY: &str =
    "4=====4\n\"1-5=4\"\n\"..\".\"\"\n\"..\".\"\"\n\"..\".\"\"\n\"..\".\"2\n3--5=4.\n";

#[test]
fn game_id_reads_islands_and_rules() {
    let p = parse(README_ID, "t").unwrap();
    assert_eq!(
        (p.cols, p.rows, p.max_bridges, p.allow_loops),
        (7, 7, 2, true)
    );
    assert_eq!(p.islands.len(), 9);
    assert_eq!(p.island_at(cell(0, 0)).unwrap().target, 4);
    assert_eq!(p.island_at(cell(1, 1)).unwrap().target, 1);
    assert_eq!(p.island_at(cell(6, 3)).unwrap().target, 5);
    assert_eq!(to_game_id(&p), README_ID);
    let l = parse("3x1m2L:2a2", "t").unwrap();
    assert!(!l.allow_loops);
    assert_eq!(to_game_id(&l), "3x1m2L:2a2");
    let full = parse("3x1i30e10m3d2:2a2", "t").unwrap();
    assert_eq!(full.max_bridges, 3);
}

#[test]
fn game_id_capital_letters_are_islands_above_nine() {
    // Printed by `sgt-bridges --generate 1 7x7i30e10m4d0`.
    let id = "7x7m4:4a7a6a5a5c7g6c1a5b5dAh1a1b5";
    let p = parse(id, "t").unwrap();
    assert_eq!(p.max_bridges, 4);
    assert!(p.islands.iter().any(|i| i.target == 10));
    assert_eq!(to_game_id(&p), id);
}

#[test]
fn game_ids_the_app_generates_now_round_trip() {
    let app = "/usr/games/sgt-bridges";
    if !Path::new(app).exists() {
        eprintln!("SKIPPED: {app} not installed");
        return;
    }
    for params in [
        "7x7i30e10m4d0",
        "10x10i30e10m3d1",
        "12x8i30e10m2Ld2",
        "30x30i30e10m2d2",
    ] {
        let out = std::process::Command::new(app)
            .args(["--generate", "3", params])
            .output()
            .unwrap();
        let ids = String::from_utf8(out.stdout).unwrap();
        assert_eq!(ids.lines().count(), 3, "{params}");
        for id in ids.lines() {
            let p = parse(id, "t").unwrap();
            assert_eq!(to_game_id(&p), id);
            assert_eq!(parse(&to_canonical(&p), "t").unwrap(), p);
        }
    }
}

use std::path::Path;

#[test]
fn bridges_jsonl_records_agree_with_their_ids_and_copy_text() {
    let Some(records) = corpus_records("hashi/bridges.jsonl") else {
        return;
    };
    for (line, v) in &records {
        let id = v["id"].as_str().unwrap();
        let p = parse(line, "t").unwrap();
        assert_eq!(p, parse(id, "t").unwrap());
        assert_eq!(to_game_id(&p), id);
        assert_eq!(parse(&to_canonical(&p), "t").unwrap(), p);
        // The corpus tool writes triple bridges as digits, which Copy text never holds.
        if v["maxb"] == 2 {
            let text: Vec<&str> = v["solution_text"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap())
                .collect();
            let (q, bridges) = parse_copy_text(&text.join("\n"), "t").unwrap();
            assert_eq!(q.islands, p.islands);
            assert_eq!(bridges, xy_bridges(&v["solution_bridges"]));
        }
    }
}

#[test]
fn copy_text_reads_islands_and_bridges() {
    let (p, bridges) = parse_copy_text(README_COPY, "t").unwrap();
    assert_eq!(p, parse(README_ID, "t").unwrap());
    assert_eq!(parse(README_COPY, "t").unwrap(), p);
    assert_eq!(bridges.len(), 9);
    assert!(bridges.contains(&Bridge::new(cell(0, 0), cell(0, 6), 2)));
    assert!(bridges.contains(&Bridge::new(cell(1, 1), cell(1, 3), 1)));
    assert!(bridges.contains(&Bridge::new(cell(0, 0), cell(6, 0), 2)));
    check::check(&p, &bridges).unwrap();
    let Outcome::Solved(Found { bridges: b, .. }) = solve::solve(&p, &Limits::default()) else {
        panic!("README puzzle solves");
    };
    assert_eq!(b, bridges);
    // Our renderer's characters read back the same way.
    let drawn = crate::games::hashi::model::render(&p, &bridges).join("\n");
    assert_eq!(parse_copy_text(&drawn, "t").unwrap().1, bridges);
}

#[test]
fn copy_text_reads_the_apps_numbers_above_nine() {
    let (p, bridges) = parse_copy_text(":=:\n\"..\n3..", "t").unwrap();
    assert_eq!(p.islands[0].target, 10);
    assert_eq!(p.max_bridges, 3);
    assert_eq!(bridges.len(), 2);
}

#[test]
fn seed_json_islands_and_rle_task() {
    let islands = r#"{"id": "easy-001", "w": 3, "h": 3,
        "islands": [{"r":0,"c":0,"target":2},{"r":0,"c":2,"target":2},
                    {"r":2,"c":0,"target":1},{"r":2,"c":2,"target":1}]}"#;
    let p = parse(islands, "t").unwrap();
    assert_eq!(p.rows(), vec!["2.2", "...", "1.1"]);
    assert_eq!(p.max_bridges, 2);
    let task = parse(r#"{"w":3,"h":3,"task":"2a2c1a1"}"#, "t").unwrap();
    assert_eq!(task, p);
    // The seed writes them as JavaScript literals.
    let js = "{\n  id: 'easy-001',\n  w: 3, h: 3,\n  islands: [ {r:0,c:0,target:2}, {r:0,c:2,target:2},\n    {r:2,c:0,target:1}, {r:2,c:2,target:1}, ]\n}";
    assert_eq!(parse(js, "t").unwrap(), p);
    assert_eq!(parse("{w:3, h:3, task:'2a2c1a1'}", "t").unwrap(), p);
    let e = error_at(parse("{w:3, h:1, task:'2a?'}", "t"));
    assert_eq!((e.0, e.1), (1, 20));
    let e = error_at(parse("{w:3,\n h:1, islands: [[7, 0, 1]]}", "t"));
    assert_eq!((e.0, e.1), (2, 7));
}

#[test]
fn tr1_code_from_the_web_game() {
    // E0001 from the web game's easy pack, as listed in app-screens/index.jsonl.
    let p = parse("TR1:axa:c1d2b2d2zm3a2n1b3a2b1h1g2a", "t").unwrap();
    assert_eq!((p.cols, p.rows, p.islands.len()), (10, 10, 12));
    assert_eq!(p.islands[0].at, cell(0, 3));
    let Outcome::Solved(Found { bridges, unique }) = solve::solve(&p, &Limits::default()) else {
        panic!("E0001 solves");
    };
    assert!(unique);
    check::check(&p, &bridges).unwrap();
}

#[test]
fn janko_records_and_problem_text_agree() {
    let Some(records) = corpus_records("hashi/sets/puzzlekit-janko/hashi.jsonl") else {
        return;
    };
    for (line, v) in &records {
        let p = parse(line, "t").unwrap();
        assert_eq!(p.cols, v["w"].as_u64().unwrap() as usize);
        assert_eq!(p.islands.len(), v["islands"].as_array().unwrap().len());
        let problem = v["problem"].as_str().unwrap();
        assert_eq!(parse(problem, "t").unwrap(), p);
        let only = serde_json::json!({ "problem": problem }).to_string();
        assert_eq!(parse(&only, "t").unwrap(), p);
        assert_eq!(parse(&to_canonical(&p), "t").unwrap(), p);
        assert_eq!(parse(&to_game_id(&p), "t").unwrap(), p);
    }
}

#[test]
fn canonical_text_keeps_rules_and_big_numbers() {
    let text = "hashi 3x2 max=3 noloops\nC.2\n...\n";
    let p = parse(text, "t").unwrap();
    assert_eq!((p.max_bridges, p.allow_loops), (3, false));
    assert_eq!(p.islands[0].target, 12);
    assert_eq!(to_canonical(&p), text);
}

#[test]
fn errors_name_line_and_column() {
    let e = error_at(parse("hashi 3x2\n1.1\n1..1\n", "t"));
    assert_eq!((e.0, e.1), (3, 4));
    assert!(e.2.contains("4 cells"), "{}", e.2);
    let e = error_at(parse("hashi 3x2\n1.1\n1x1\n", "t"));
    assert_eq!((e.0, e.1), (3, 2));
    let e = error_at(parse("hashi 3x3\n1.1\n1.1\n", "t"));
    assert!(e.2.contains("expected 3 rows"), "{}", e.2);
    let e = error_at(parse("hashi 3x1\n...\n", "t"));
    assert!(e.2.contains("no islands"), "{}", e.2);
    let e = error_at(parse("hashi 3x1 max=1\n5.1\n", "t"));
    assert_eq!((e.0, e.1), (2, 1));
    assert!(e.2.contains("1..=4"), "{}", e.2);
    let e = error_at(parse("hashi 3x1 max=9\n1.1\n", "t"));
    assert!(e.2.contains("1..=8"), "{}", e.2);
    let e = error_at(parse("3x1m9:2a2", "t"));
    assert_eq!((e.0, e.1), (1, 4));
    let e = error_at(parse(r#"{"w":3,"h":1,"maxb":0,"islands":[[0,0,1]]}"#, "t"));
    assert_eq!((e.0, e.1), (1, 14));
    let e = error_at(parse("hashi 3x1 wide\n1.1\n", "t"));
    assert_eq!((e.0, e.1), (1, 11));
    // Game IDs: one line, so the column is the character offset plus one.
    let e = error_at(parse("3x1m2:2a", "t"));
    assert_eq!((e.0, e.1), (1, 9));
    assert!(e.2.contains("covers 2 cells"), "{}", e.2);
    let e = error_at(parse("3x1m2:2a2a", "t"));
    assert_eq!((e.0, e.1), (1, 10));
    let e = error_at(parse("3x1m2:2?2", "t"));
    assert_eq!((e.0, e.1), (1, 8));
    let e = error_at(parse("3x1q2:2a2", "t"));
    assert_eq!((e.0, e.1), (1, 4));
    let e = error_at(parse("3x1m2:c", "t"));
    assert!(e.2.contains("no islands"), "{}", e.2);
    let e = error_at(parse("TR1:3y1:2a2", "t"));
    assert_eq!((e.0, e.1), (1, 5));
    let e = error_at(parse("TR1:3x1:2A", "t"));
    assert!(e.2.contains("covers 2"), "{}", e.2);
    // JSON: syntax errors come from the JSON reader, field errors point at the field.
    let e = error_at(parse("{\"w\": 3,\n \"h\": }", "t"));
    assert_eq!(e.0, 2);
    let e = error_at(parse(
        "{\"w\": 3,\n \"h\": 1, \"islands\": [[5, 0, 1]]}",
        "t",
    ));
    assert_eq!((e.0, e.1), (2, 10));
    assert!(e.2.contains("outside"), "{}", e.2);
    let e = error_at(parse(r#"{"w":3,"h":1,"islands":[[0,0,1],[0,0,2]]}"#, "t"));
    assert!(e.2.contains("two islands"), "{}", e.2);
    let e = error_at(parse(r#"{"w":3,"h":1,"islands":[[0,0,9]],"maxb":2}"#, "t"));
    assert!(e.2.contains("1..=8"), "{}", e.2);
    let e = error_at(parse(r#"{"w":3,"h":1,"task":"2a?"}"#, "t"));
    assert_eq!((e.0, e.1), (1, 24));
    let e = error_at(parse(r#"{"w":"3","h":1,"task":"2a2"}"#, "t"));
    assert!(e.2.contains("`w`"), "{}", e.2);
    let e = error_at(parse(r#"{"w":3,"h":1}"#, "t"));
    assert!(e.2.contains("needs"), "{}", e.2);
    // janko problem text.
    let e = error_at(parse("1 3\n- 2 x", "t"));
    assert_eq!(e.0, 2);
    let e = error_at(parse("\n1 3\n- 2 x", "t"));
    assert_eq!(e.0, 3);
    let e = error_at(parse(r#"{"problem": ""}"#, "t"));
    assert!(e.2.contains("empty"), "{}", e.2);
    let e = error_at(parse("2 3\n- 2 -", "t"));
    assert!(e.2.contains("expected 2 rows"), "{}", e.2);
    // Copy text.
    let e = error_at(parse_copy_text("1-1\n1-", "t"));
    assert_eq!((e.0, e.1), (2, 3));
    let e = error_at(parse_copy_text("1-.\n...", "t"));
    assert_eq!((e.0, e.1), (1, 2));
    assert!(e.2.contains("does not join"), "{}", e.2);
    let e = error_at(parse_copy_text("1.\n.|", "t"));
    assert_eq!((e.0, e.1), (2, 2));
    let e = error_at(parse_copy_text("1.x", "t"));
    assert_eq!((e.0, e.1), (1, 3));
    let e = error_at(parse("", "t"));
    assert_eq!((e.0, e.1), (1, 1));
}

#[test]
fn janko_lines_keep_the_bridges_rules_the_problem_text_cannot() {
    let p = parse("hashi 3x2 max=4 noloops\nC.2\n...\n", "t").unwrap();
    let line = to_janko(&p);
    assert_eq!(
        line,
        "{\"w\": 3, \"h\": 2, \"maxb\": 4, \"allow_loops\": false, \"islands\": [[0, 0, 12], \
         [2, 0, 2]], \"problem\": \"2 3\\n12 - 2\\n- - -\"}\n"
    );
    assert_eq!(parse(&line, "t").unwrap(), p);
    // The problem text alone states only the size, so the classic rules come back.
    let v: Value = serde_json::from_str(&line).unwrap();
    let bare = parse(v["problem"].as_str().unwrap(), "t").unwrap();
    assert_eq!((bare.max_bridges, bare.allow_loops), (3, true));
}

#[test]
fn every_format_name_writes_and_an_unknown_one_is_refused() {
    let p = parse(README_ID, "t").unwrap();
    for f in FORMATS {
        assert!(write(&p, f).unwrap().ends_with('\n'), "{}", f.name);
    }
    assert_eq!(write(&p, &FORMATS[1]).unwrap(), format!("{README_ID}\n"));
    let bogus = crate::games::Format {
        name: "bogus",
        extension: "x",
        about: "",
    };
    assert!(write(&p, &bogus).is_err());
}

/// Every puzzle in the corpus, named: the Bridges records and their game IDs, the janko set,
/// the screenshots' game IDs and the web game's `TR1:` codes.
fn corpus_puzzles() -> Vec<(String, Puzzle)> {
    let mut out = Vec::new();
    let fields = [
        ("hashi/bridges.jsonl", None),
        ("hashi/bridges.jsonl", Some("id")),
        ("hashi/sets/puzzlekit-janko/hashi.jsonl", None),
        ("hashi/screenshots/index.jsonl", Some("game_id")),
        ("hashi/app-screens/index.jsonl", Some("tr1_code")),
    ];
    for (rel, field) in fields {
        let Some(records) = corpus_records(rel) else {
            continue;
        };
        for (k, (line, v)) in records.iter().enumerate() {
            let name = format!("{rel}:{}", k + 1);
            let text = match field {
                None => line.as_str(),
                Some(f) => match v[f].as_str() {
                    Some(t) => t,
                    None => continue,
                },
            };
            out.push((name.clone(), parse(text, &name).unwrap()));
        }
    }
    out
}

/// The bar of `scan --to`: each format reads back as the very puzzle it was written from.
#[test]
fn every_corpus_puzzle_round_trips_through_every_format() {
    let puzzles = corpus_puzzles();
    let read = |t: &str| parse(t, "rt");
    crate::games::assert_round_trips("hashi", FORMATS, (&puzzles, 800), write, read);
}
