use super::*;
use crate::games::flow::check::check;
use crate::games::flow::format::{parse, parse_pack};
use std::time::{Duration, Instant};

fn solved(text: &str) -> (Puzzle, Solution) {
    let p = parse(text, "t").unwrap();
    match solve(&p, &Limits::default()) {
        Outcome::Solved(s) => {
            assert_eq!(check(&p, &s), Ok(()), "{text}");
            (p, s)
        }
        other => panic!("{other:?} for\n{text}"),
    }
}

#[test]
fn solves_a_small_puzzle_of_each_variant() {
    solved("STANDARD\nA-.-B-.-C\n| | | | |\n.-.-D-.-E\n| | | | |\n.-.-.-.-.\n| | | | |\n.-B-.-C-.\n| | | | |\n.-A-D-E-.\n");
    let (p, s) = solved(
        "BRIDGES\n  A-B-C\n  | | |\nA-.-.-.-C\n| | | | |\nD-.-*-.-D\n| | | | |\nE-.-B-.-E\n  | | |\n  .-.-.\n",
    );
    let bridge = p.cell_at(2, 2).unwrap();
    assert_eq!(
        s.paths.iter().flatten().filter(|&&c| c == bridge).count(),
        2
    );
    solved("WARPS\n  A-.-A\n  | | |\nB-C-.-C-B-.-\n  | | |\n  D-.-D\n");
    solved("HEX\n  A   B\n /|\\ /|\\\nC-.-.-.-D\n|/|\\|/|\\|\n.-.-.-.-E\n|/|\\|/|\\|\n.-A-.-D-.\n|/|\\|/|\\|\n.-C-B-E-.\n");
    solved("R.G\nR.G\n");
}

#[test]
fn warps_need_the_wrap() {
    // A and B must each leave the board across its edge to reach their partners.
    let text = "WARPS\nA-B-.-B-A-\n";
    let (p, s) = solved(text);
    let wrap = p
        .link_between(p.cell_at(0, 0).unwrap(), p.cell_at(0, 4).unwrap())
        .unwrap();
    assert!(s.paths[0]
        .windows(2)
        .any(|w| (w[0].min(w[1]), w[0].max(w[1])) == (wrap.a, wrap.b)));
    let flat = parse("STANDARD\nA-B-.-B-A\n", "t").unwrap();
    assert_eq!(solve(&flat, &Limits::default()), Outcome::Unsolvable);
}

#[test]
fn proves_unsolvable_boards() {
    // Crossing pairs on an open board, and a cell no path can cover.
    for text in [
        "R...G\n.....\n.....\n.....\nG...R\n",
        "A.A\n...\n",
        "AB\nBA\n",
    ] {
        let p = parse(text, "t").unwrap();
        assert_eq!(solve(&p, &Limits::default()), Outcome::Unsolvable, "{text}");
    }
}

#[test]
fn a_passed_deadline_gives_up() {
    // Open boards need search; a deadline already passed stops it at the first check, in
    // the propagation search or before clause learning starts.
    let p = parse(
        "A.............\n..............\n..............\n..............\n..............\n..............\n..............\n..............\n..............\n..............\n..............\n..............\n..............\n.............A\n",
        "t",
    )
    .unwrap();
    let limits = Limits {
        deadline: Some(Instant::now() - Duration::from_millis(1)),
        ..Limits::default()
    };
    assert_eq!(solve(&p, &limits), Outcome::GaveUp(None));
}

/// The solver and validator over a corpus sample: every 50th app level and every mzucker and
/// samgoldman puzzle up to 9 cells a side, every 100th app level of 10 or 11 a side (these
/// mostly go through clause learning), plus mzucker's unsolvable board. The bench covers every
/// level; larger boards can still time out (docs/flow-solver.md).
#[test]
fn solves_a_corpus_sample() {
    let Some(dir) = crate::corpus::path("flow/puzzles") else {
        return;
    };
    let limits = || Limits::within(Some(Duration::from_secs(20)));
    let mut packs: Vec<_> = std::fs::read_dir(dir.join("bigduck_levelpacks_via_nubango"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    packs.sort();
    let mut levels = Vec::new();
    for f in &packs {
        let text = std::fs::read_to_string(f).unwrap();
        levels.extend(parse_pack(&text, &f.display().to_string()).unwrap());
    }
    let mut n = 0;
    let small = |p: &Puzzle| p.rows.max(p.cols) <= 9;
    for lvl in levels.iter().filter(|l| small(&l.puzzle)).step_by(50) {
        match solve(&lvl.puzzle, &limits()) {
            Outcome::Solved(s) => assert_eq!(check(&lvl.puzzle, &s), Ok(())),
            other => panic!("level {}: {other:?}", lvl.level),
        }
        n += 1;
    }
    assert!(n >= 50, "{n} levels sampled");
    let mut big = 0;
    let medium = |p: &Puzzle| (10..=11).contains(&p.rows.max(p.cols));
    for lvl in levels.iter().filter(|l| medium(&l.puzzle)).step_by(100) {
        match solve(&lvl.puzzle, &limits()) {
            Outcome::Solved(s) => assert_eq!(check(&lvl.puzzle, &s), Ok(())),
            other => panic!("level {}: {other:?}", lvl.level),
        }
        big += 1;
    }
    assert!(big >= 10, "{big} larger levels sampled");
    for sub in [
        "mzucker_flow_solver",
        "samgoldman_FlowSolver/standard",
        "samgoldman_FlowSolver/bridges",
        "samgoldman_FlowSolver/hex",
        "samgoldman_FlowSolver/warps",
    ] {
        let mut files: Vec<_> = std::fs::read_dir(dir.join(sub))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        files.sort();
        for f in files {
            let p = parse(&std::fs::read_to_string(&f).unwrap(), "t").unwrap();
            let name = f.display().to_string();
            if !small(&p) {
                continue;
            }
            let outcome = solve(&p, &limits());
            if p.flows.is_empty() || name.contains("unsolvable") {
                assert_eq!(outcome, Outcome::Unsolvable, "{name}");
                continue;
            }
            match outcome {
                Outcome::Solved(s) => assert_eq!(check(&p, &s), Ok(()), "{name}"),
                other => panic!("{name}: {other:?}"),
            }
        }
    }
}

/// Clause learning on its own, from the root fixpoint, so small boards reach it too.
fn solved_by_clauses(text: &str) -> Outcome<Solution> {
    let p = parse(text, "t").unwrap();
    let g = Graph::new(&p).ok().unwrap();
    let mut st = State::new(&g);
    if st.propagate().is_err() {
        return Outcome::Unsolvable;
    }
    let mut decisions = 0;
    match encode::solve(&mut st, &Limits::default(), &mut decisions) {
        encode::Found::Solved => {
            let s = solution(&st);
            assert_eq!(check(&p, &s), Ok(()), "{text}");
            Outcome::Solved(s)
        }
        encode::Found::Unsolvable => Outcome::Unsolvable,
        encode::Found::OutOfTime | encode::Found::OutOfMemory => Outcome::GaveUp(None),
    }
}

#[test]
fn a_formula_past_the_memory_allowed_gives_up() {
    // An open board: one pair in opposite corners, every cell undecided at the root.
    let text = format!(
        "A{}\n{}{}A\n",
        ".".repeat(13),
        format!("{}\n", ".".repeat(14)).repeat(12),
        ".".repeat(13)
    );
    let p = parse(&text, "t").unwrap();
    let g = Graph::new(&p).ok().unwrap();
    let mut st = State::new(&g);
    st.propagate().unwrap();
    let tiny = Limits {
        memory: 1,
        ..Limits::default()
    };
    assert!(matches!(
        encode::solve(&mut st, &tiny, &mut 0),
        encode::Found::OutOfMemory
    ));
}

#[test]
fn clause_learning_falls_back_when_every_solution_touches_itself() {
    // One path over a 2×3 board from corner to opposite corner must run along itself, so the
    // first pass (no path touches itself) has no model and the exact formula must answer.
    assert!(matches!(
        solved_by_clauses("A..\n..A\n"),
        Outcome::Solved(_)
    ));
    // Same with a second colour beside it.
    assert!(matches!(
        solved_by_clauses("A..\n..A\nB.B\n"),
        Outcome::Solved(_)
    ));
    for text in ["R...G\n.....\n.....\n.....\nG...R\n", "AB\nBA\n"] {
        assert_eq!(solved_by_clauses(text), Outcome::Unsolvable, "{text}");
    }
}
