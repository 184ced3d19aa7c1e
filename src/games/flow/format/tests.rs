use super::*;
use crate::games::flow::check::check;

const STANDARD: &str = "STANDARD
A-.-B-.-C
| | | | |
.-.-D-.-E
| | | | |
.-.-.-.-.
| | | | |
.-B-.-C-.
| | | | |
.-A-D-E-.
";

const BRIDGES: &str = "BRIDGES
  A-B-C
  | | |
A-.-.-.-C
| | | | |
D-.-*-.-D
| | | | |
E-.-B-.-E
  | | |
  .-.-.
";

const WARPS: &str = "WARPS
  A-.-A
  | | |
B-C-.-C-B-.-
  | | |
  D-.-D
";

const HEX: &str = "HEX
  A   B
 /|\\ /|\\
C-.-.-.-D
|/|\\|/|\\|
.-.-.-.-E
|/|\\|/|\\|
.-A-.-D-.
|/|\\|/|\\|
.-C-B-E-.
";

fn error_at<T: std::fmt::Debug>(r: Result<T>) -> (usize, usize, String) {
    match r.unwrap_err() {
        Error::Parse { pos, message } => (pos.line, pos.column, message),
        other => panic!("not a parse error: {other}"),
    }
}

fn degree(p: &Puzzle, row: usize, col: usize) -> usize {
    p.links_at(p.cell_at(row, col).unwrap()).len()
}

#[test]
fn seed_standard_reads_cells_links_and_pairs() {
    let p = parse(STANDARD, "t").unwrap();
    assert_eq!(p.variant, Variant::Standard);
    assert_eq!((p.rows, p.cols, p.cells.len()), (5, 5, 25));
    assert_eq!(p.links.len(), 2 * 5 * 4);
    let letters: Vec<char> = p.flows.iter().map(|f| f.letter).collect();
    assert_eq!(letters, vec!['A', 'B', 'C', 'D', 'E']);
    let a = p.flows[0];
    let at = |c: usize| (p.cells[c].row, p.cells[c].col);
    assert_eq!([at(a.ends[0]), at(a.ends[1])], [(0, 0), (4, 1)]);
}

#[test]
fn seed_bridges_skip_missing_cells_and_mark_the_bridge() {
    let p = parse(BRIDGES, "t").unwrap();
    assert_eq!(p.cells.len(), 3 + 5 + 5 + 5 + 3);
    let star = p.cell_at(2, 2).unwrap();
    assert!(p.cells[star].bridge);
    assert_eq!(p.cell_at(0, 0), None);
    assert_eq!(degree(&p, 2, 2), 4);
}

#[test]
fn seed_warps_link_around_the_edge() {
    let p = parse(WARPS, "t").unwrap();
    let (first, last) = (p.cell_at(1, 0).unwrap(), p.cell_at(1, 5).unwrap());
    let l = p.link_between(first, last).expect("the trailing `-` wraps");
    assert_eq!(l.axis, Axis::Row);
    // Without the WARPS header the same trailing link leads nowhere.
    let (line, column, msg) = error_at(parse(&WARPS.replace("WARPS", "STANDARD"), "t"));
    assert_eq!((line, column), (4, 12), "{msg}");
    assert!(msg.contains("nowhere"), "{msg}");
}

#[test]
fn seed_hex_reads_diagonals() {
    let p = parse(HEX, "t").unwrap();
    assert_eq!(p.variant, Variant::Hex);
    // Row 0 col 1 (`A`): below, `/` down-left and `\` down-right.
    assert_eq!(degree(&p, 0, 1), 3);
    // An inner cell of a hex board touches six others.
    assert_eq!(degree(&p, 2, 2), 6);
}

#[test]
fn seed_errors_name_line_and_column() {
    let once = STANDARD.replace(".-A-D-E-.", ".-A-D-.-.");
    let (line, column, msg) = error_at(parse(&once, "t"));
    assert!(msg.contains("appears once"), "{msg}");
    assert_eq!((line, column), (4, 9));

    let thrice = STANDARD.replacen(".-.-.-.-.", ".-A-.-.-.", 1);
    let (line, column, msg) = error_at(parse(&thrice, "t"));
    assert!(msg.contains("third time"), "{msg}");
    assert_eq!((line, column), (10, 3));

    let unknown = STANDARD.replacen("D-.-E", "D-%-E", 1);
    let (line, column, msg) = error_at(parse(&unknown, "t"));
    assert!(msg.contains("unexpected '%'"), "{msg}");
    assert_eq!((line, column), (4, 7));

    let dangling = "STANDARD\nA-B\n| |\n";
    let (line, column, msg) = error_at(parse(dangling, "t"));
    assert!(msg.contains("nowhere"), "{msg}");
    assert_eq!((line, column), (3, 1));
}

#[test]
fn mzucker_rows_pair_letters_by_case() {
    let p = parse("Rm.\n...\nmR.\n", "t").unwrap();
    assert_eq!((p.rows, p.cols), (3, 3));
    let letters: Vec<char> = p.flows.iter().map(|f| f.letter).collect();
    assert_eq!(letters, vec!['R', 'm']);

    let (line, column, msg) = error_at(parse("R..\n..\nR..\n", "t"));
    assert!(msg.contains("one length"), "{msg}");
    assert_eq!((line, column), (2, 3));

    let (line, column, msg) = error_at(parse("R.G\n...\nR..\n", "t"));
    assert!(msg.contains("appears once"), "{msg}");
    assert_eq!((line, column), (1, 3));
}

#[test]
fn pack_line_reads_shape_and_endpoints() {
    let line =
        "W_6:3,0,1,4,,0_0:4_0:5_0:12_0:16_0:17_0,3|15:2|14:1|13;10,11,6;1,2,3;7,8,9;13,14,15";
    let lvl = parse_pack_line(line, "t", 1).unwrap();
    let p = &lvl.puzzle;
    assert_eq!((p.rows, p.cols, p.variant), (3, 6, Variant::Warps));
    assert_eq!(p.cells.len(), 18 - 6);
    assert_eq!(lvl.level, 1);
    assert_eq!(p.flows.len(), 4);
    // 3|15 is a wall although the torus would join them.
    let (c3, c15) = (p.cell_at(0, 3).unwrap(), p.cell_at(2, 3).unwrap());
    assert!(p.link_between(c3, c15).is_none());
    // 11 → 6 wraps from the last column to the first.
    assert!(p
        .link_between(p.cell_at(1, 5).unwrap(), p.cell_at(1, 0).unwrap())
        .is_some());
    assert_eq!(check(p, &lvl.solution), Ok(()));
    assert_eq!(parse(line, "t").unwrap(), *p);
}

#[test]
fn pack_line_errors_name_the_column() {
    let (line, column, msg) = error_at(parse_pack_line("5,0,1,2;0,1,2;3", "t", 7));
    assert!(msg.contains("two endpoints"), "{msg}");
    assert_eq!((line, column), (7, 15));
    let (_, column, msg) = error_at(parse_pack_line("5+Q,0,1,1;0,1", "t", 1));
    assert!(msg.contains("flag"), "{msg}");
    assert_eq!(column, 2);
    let (_, column, msg) = error_at(parse_pack_line("5,0,1,1;0,99", "t", 1));
    assert!(msg.contains("outside"), "{msg}");
    assert_eq!(column, 11);
    let (_, _, msg) = error_at(parse_pack_line("5,0,1,2;0,1", "t", 1));
    assert!(msg.contains("2 flows"), "{msg}");
}

#[test]
fn canonical_text_round_trips_each_variant() {
    for text in [STANDARD, BRIDGES, WARPS, HEX] {
        let p = parse(text, "t").unwrap();
        let out = to_text(&p).unwrap();
        assert_eq!(out, text, "canonical text of\n{text}");
        assert_eq!(parse(&out, "t").unwrap(), p);
    }
}

/// Every level of every pack: the app's own solution must be valid on the graph we build, so
/// each trace step is a link (hex diagonals, torus wraps, walls, holes, bridges), and the
/// canonical text must rebuild the same board.
#[test]
fn every_pack_level_accepts_the_apps_solution() {
    let Some(dir) = crate::corpus::path("flow/puzzles/bigduck_levelpacks_via_nubango") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut count = 0;
    let mut variants = std::collections::BTreeSet::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.display().to_string();
        for (k, lvl) in parse_pack(&text, &name).unwrap().into_iter().enumerate() {
            let p = &lvl.puzzle;
            if let Err(e) = check(p, &lvl.solution) {
                panic!("{name} line {}: {e}", k + 1);
            }
            let out = to_text(p).unwrap();
            assert_eq!(to_text(&parse(&out, "rt").unwrap()).unwrap(), out);
            variants.insert(format!("{:?}", p.variant));
            count += 1;
        }
    }
    assert_eq!(count, 7287);
    assert_eq!(variants.len(), 4, "{variants:?}");
}

#[test]
fn every_samgoldman_and_mzucker_file_parses() {
    for rel in [
        "flow/puzzles/samgoldman_FlowSolver",
        "flow/puzzles/mzucker_flow_solver",
    ] {
        let Some(dir) = crate::corpus::path(rel) else {
            return;
        };
        let mut n = 0;
        for sub in std::fs::read_dir(&dir).unwrap() {
            let sub = sub.unwrap().path();
            let files: Vec<_> = if sub.is_dir() {
                if sub.ends_with("hints") {
                    continue;
                }
                std::fs::read_dir(&sub)
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .collect()
            } else {
                vec![sub]
            };
            for f in files
                .iter()
                .filter(|f| f.extension().is_some_and(|e| e == "txt"))
            {
                let text = std::fs::read_to_string(f).unwrap();
                let p = parse(&text, &f.display().to_string()).unwrap();
                assert!(!p.cells.is_empty());
                n += 1;
            }
        }
        assert!(n >= 23, "{rel}: {n} files");
    }
}

#[test]
fn a_board_past_the_size_limit_is_refused_before_any_solving() {
    let mut rows = vec![".".repeat(257); 256];
    rows[0] = format!("A{}A", ".".repeat(255));
    rows[1] = format!("B{}B", ".".repeat(255));
    let e = parse(&rows.join("\n"), "big.txt").unwrap_err().to_string();
    assert!(e.contains("big.txt:1:1") && e.contains("65536"), "{e}");
}

/// A board as positions, so two readings compare whatever their cell numbers and colour
/// letters: hex or wrapping, size, cells (with bridges), links, and endpoint pairs.
type BoardKey = (
    bool,
    bool,
    usize,
    usize,
    Vec<(usize, usize, bool)>,
    std::collections::BTreeSet<((usize, usize), (usize, usize), Axis)>,
    std::collections::BTreeSet<[(usize, usize); 2]>,
);

fn board_key(p: &Puzzle) -> BoardKey {
    let at = |k: usize| (p.cells[k].row, p.cells[k].col);
    let mut cells: Vec<_> = p.cells.iter().map(|c| (c.row, c.col, c.bridge)).collect();
    cells.sort();
    let links = p
        .links
        .iter()
        .map(|l| {
            let (a, b) = (at(l.a), at(l.b));
            (a.min(b), a.max(b), l.axis)
        })
        .collect();
    let flows = p
        .flows
        .iter()
        .map(|f| {
            let (a, b) = (at(f.ends[0]), at(f.ends[1]));
            [a.min(b), a.max(b)]
        })
        .collect();
    (
        p.variant == Variant::Hex,
        p.variant == Variant::Warps,
        p.rows,
        p.cols,
        cells,
        links,
        flows,
    )
}

/// Every corpus puzzle, named, with the format it was read from: each level of every pack,
/// and every puzzle file (seed format or mzucker's rows).
fn corpus_puzzles() -> Vec<(String, &'static str, Puzzle)> {
    let mut out = Vec::new();
    let files = |rel: &str| -> Vec<std::path::PathBuf> {
        let Some(dir) = crate::corpus::path(rel) else {
            return Vec::new();
        };
        let mut all = Vec::new();
        let mut todo = vec![dir];
        while let Some(d) = todo.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                // mzucker's hints are partial solutions, not puzzles.
                if p.is_dir() && !p.ends_with("hints") {
                    todo.push(p);
                } else if p.extension().is_some_and(|e| e == "txt") {
                    all.push(p);
                }
            }
        }
        all.sort();
        all
    };
    for f in files("flow/puzzles/bigduck_levelpacks_via_nubango") {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.display().to_string();
        for (k, lvl) in parse_pack(&text, &name).unwrap().into_iter().enumerate() {
            out.push((format!("{name}:{}", k + 1), "pack", lvl.puzzle));
        }
    }
    for rel in [
        "flow/puzzles/samgoldman_FlowSolver",
        "flow/puzzles/mzucker_flow_solver",
        "flow/puzzles/hand_read_screenshots",
    ] {
        for f in files(rel) {
            let text = std::fs::read_to_string(&f).unwrap();
            let name = f.display().to_string();
            let from = if variant_of(text.lines().next().unwrap_or("").trim()).is_some() {
                "flow"
            } else {
                "mzucker"
            };
            out.push((name.clone(), from, parse(&text, &name).unwrap()));
        }
    }
    out
}

/// The bar of `scan --to`: each format reads back as the board it was written from. A format
/// may refuse a board it cannot draw (mzucker's rows hold plain rectangles only), but never
/// one read from that very format, and never the seed format.
#[test]
fn every_corpus_puzzle_round_trips_through_every_format() {
    let puzzles = corpus_puzzles();
    if puzzles.is_empty() {
        return;
    }
    for f in FORMATS {
        let (mut kept, mut refused) = (0, 0);
        for (name, from, p) in &puzzles {
            let text = match write(p, f) {
                Ok(t) => t,
                Err(e) => {
                    assert!(
                        f.name != "flow" && f.name != *from,
                        "{name}, read as {from}, refused as {}: {e}",
                        f.name
                    );
                    refused += 1;
                    continue;
                }
            };
            let back = parse(&text, "rt").unwrap_or_else(|e| panic!("{name} as {}: {e}", f.name));
            assert_eq!(
                board_key(&back),
                board_key(p),
                "{name} as {}:\n{text}",
                f.name
            );
            kept += 1;
        }
        eprintln!(
            "flow {}: {kept} corpus puzzles round-tripped, {refused} refused (no form there)",
            f.name
        );
    }
    assert!(puzzles.len() >= 7287 + 53, "{} puzzles", puzzles.len());
}

#[test]
fn mzucker_rows_keep_the_colours_letters_and_the_seed_format_renames_lower_case_ones() {
    let p = parse("Rm.\n...\nmR.\n", "t").unwrap();
    let letters = |text: String| -> Vec<char> {
        parse(&text, "t")
            .unwrap()
            .flows
            .iter()
            .map(|f| f.letter)
            .collect()
    };
    assert_eq!(letters(write(&p, &FORMATS[1]).unwrap()), ['R', 'm']);
    // The seed format's endpoints are capitals only.
    assert_eq!(letters(write(&p, &FORMATS[0]).unwrap()), ['A', 'B']);
}
