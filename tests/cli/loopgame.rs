//! The Loop game through the real binary: solve from the canonical text, errors with positions.

use crate::support::command::{run_expecting as run, Run};
use std::collections::BTreeSet;

fn fixture(name: &str) -> String {
    crate::support::fixture("loop", name)
        .to_string_lossy()
        .into_owned()
}

/// The hint grid as the fixture writes it, without the header.
const HINTS: [&str; 8] = [
    "3.......", ".....3..", "....2...", "...7.3..", "3..6.3..", "...5....", "...3203.", ".33...2.",
];

/// Checks the printed cycle against the rules here, not with the solver's own checker:
/// every cell once, each step to an orthogonal neighbour (the last back to the first), and
/// each number equal to the corner cells of the loop in its clipped 3×3 block.
fn assert_perfect_loop(out: &Run, hints: &[&str]) {
    let v = out.json();
    let n = hints.len() as i64;
    let cycle: Vec<(i64, i64)> = v["cycle"]
        .as_array()
        .unwrap_or_else(|| out.fail("no cycle"))
        .iter()
        .map(|c| (c[0].as_i64().unwrap(), c[1].as_i64().unwrap()))
        .collect();
    assert_eq!(cycle.len() as i64, n * n);
    let distinct: BTreeSet<_> = cycle.iter().collect();
    assert_eq!(distinct.len(), cycle.len(), "a cell visited twice");
    let mut corner = vec![vec![false; n as usize]; n as usize];
    for i in 0..cycle.len() {
        let prev = cycle[(i + cycle.len() - 1) % cycle.len()];
        let here = cycle[i];
        let next = cycle[(i + 1) % cycle.len()];
        assert_eq!(
            (here.0 - next.0).abs() + (here.1 - next.1).abs(),
            1,
            "{here:?} -> {next:?} is not a step"
        );
        // A corner: the loop enters along one axis and leaves along the other.
        corner[here.0 as usize][here.1 as usize] = (prev.0 == here.0) != (next.0 == here.0);
    }
    for (r, row) in hints.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let Some(want) = ch.to_digit(10) else {
                continue;
            };
            let block = |v: usize| v.saturating_sub(1)..(v + 2).min(n as usize);
            let seen: u32 = corner[block(r)]
                .iter()
                .map(|line| line[block(c)].iter().filter(|&&t| t).count() as u32)
                .sum();
            assert_eq!(seen, want, "number at ({r},{c})");
        }
    }
}

#[test]
fn solve_prints_a_loop_through_every_cell_that_meets_every_number() {
    let out = run(
        &[
            "solve",
            "loop",
            &fixture("daily_2026-01-01_hard.loop"),
            "--json",
        ],
        "",
        0,
    );
    let v = out.json();
    assert_eq!(v["game"], "loop");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["any_loop"], false);
    assert!(v["elapsed_ms"].as_f64().is_some());
    assert_perfect_loop(&out, &HINTS);
    let text = run(
        &["solve", "loop", &fixture("daily_2026-01-01_hard.loop")],
        "",
        0,
    );
    assert!(text.stdout.contains("64 of 64 cells"), "{}", text.stdout);
}

#[test]
fn a_bare_grid_on_stdin_parses_and_any_loop_is_reported() {
    let grid = HINTS.join("\n");
    let out = run(&["solve", "loop", "-", "--json", "--any-loop"], &grid, 0);
    let v = out.json();
    assert_eq!(v["any_loop"], true);
    assert!(v["cycle"].as_array().is_some_and(|c| c.len() >= 4));
}

#[test]
fn no_loop_is_exit_one_and_bad_text_names_its_place() {
    // An odd number of cells has no loop through all of them.
    let out = run(&["solve", "loop", "-", "--json"], "...\n...\n...\n", 1);
    assert_eq!(out.json()["status"], "unsolvable");
    let bad = run(&["solve", "loop", "-"], "....\n..x.\n", 2);
    assert!(bad.stderr.contains("<stdin>:2:3"), "{}", bad.stderr);
    let ragged = run(&["solve", "loop", "-"], "....\n...\n", 2);
    assert!(ragged.stderr.contains(":2:"), "{}", ragged.stderr);
}

#[test]
fn reading_the_screen_is_refused_until_it_is_built() {
    let img = crate::support::fixture("hashi", "bridges_10x10_fresh_ts40.png");
    let out = run(&["scan", "loop", img.to_str().unwrap()], "", 2);
    assert!(out.stderr.contains("not built yet"), "{}", out.stderr);
}
