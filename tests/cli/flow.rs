//! Flow Free through the real binary: solve from the seed format and mzucker's rows, errors
//! with positions.

use crate::support::command::{run_expecting as run, Run};
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
