//! What each known capture shows, from the corpus index (`flow/screenshots/index.jsonl`) and
//! the clone fixtures' index, and how a reading differs from it: for the tests and the bench.
//! Letters are compared up to renaming, since the indexes letter flows their own way.

use super::super::format::parse;
use super::super::model::{Axis, Puzzle, Variant};
use super::Reading;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One capture and what it shows.
#[derive(Debug, Clone)]
pub struct Known {
    pub path: PathBuf,
    /// A letter per endpoint, `.` elsewhere; `None` when the index gives no grid (the hex
    /// board, whose puzzle is in a file of another format).
    pub rows: Option<Vec<String>>,
    /// The puzzle file the index names instead of a grid, if any.
    pub puzzle_file: Option<PathBuf>,
    /// Pipes drawn, by the index's letter: cells `[row, col]` from an endpoint.
    pub drawn: BTreeMap<char, Vec<[usize; 2]>>,
}

fn index(dir: &Path, grid_key: &str) -> Vec<Known> {
    let Ok(text) = std::fs::read_to_string(dir.join("index.jsonl")) else {
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("index lines are JSON");
            let rows = v[grid_key].as_array().map(|a| {
                a.iter()
                    .map(|r| r.as_str().expect("grid rows are strings").to_string())
                    .collect()
            });
            let drawn = v["drawn"]
                .as_object()
                .map(|m| {
                    m.iter()
                        .map(|(k, cells)| {
                            let cells = cells
                                .as_array()
                                .expect("drawn cells are a list")
                                .iter()
                                .map(|c| {
                                    [
                                        c[0].as_u64().expect("row") as usize,
                                        c[1].as_u64().expect("col") as usize,
                                    ]
                                })
                                .collect();
                            (k.chars().next().expect("a letter"), cells)
                        })
                        .collect()
                })
                .unwrap_or_default();
            let puzzle_file = v["source_puzzle_file"]
                .as_str()
                .map(|f| dir.parent().unwrap_or(dir).join(f));
            let mut known = Known {
                path: dir.join(v["file"].as_str().expect("index entries name their file")),
                rows,
                puzzle_file,
                drawn,
            };
            if let Some(cells) = feygelson_input(&v["partial_input"]) {
                let rows = known.rows.as_ref().expect("a partial capture has its grid");
                let [r, c] = cells[0];
                let letter = rows[r].chars().nth(c).expect("the drag starts on a dot");
                known.drawn.insert(letter, cells);
            }
            known
        })
        .collect()
}

/// The cells the FeygelsonE clone's input went through (a click on a dot, then mouse moves,
/// in canvas pixels of 100 per cell): the pipe it drew.
fn feygelson_input(v: &serde_json::Value) -> Option<Vec<[usize; 2]>> {
    let cell = |p: &serde_json::Value| -> Option<[usize; 2]> {
        let x = p[0].as_f64()?;
        let y = p[1].as_f64()?;
        Some([(y / 100.0) as usize, (x / 100.0) as usize])
    };
    let mut cells = vec![cell(&v["click_canvas_px"])?];
    for p in v["then_mousemove_canvas_px"].as_array()? {
        cells.push(cell(p)?);
    }
    Some(cells)
}

/// The FeygelsonE web clone's captures in the corpus, or none when it is absent.
pub fn corpus_app_screens() -> Vec<Known> {
    crate::corpus::dir()
        .map(|d| index(&d.join("flow/app-screens"), "dots_grid_rows"))
        .unwrap_or_default()
}

/// The corpus screenshots, or none when the corpus is absent.
pub fn corpus_screenshots() -> Vec<Known> {
    crate::corpus::dir()
        .map(|d| index(&d.join("flow/screenshots"), "grid"))
        .unwrap_or_default()
}

/// The clone's window captures kept with the project.
pub fn clone_fixtures() -> Vec<Known> {
    index(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/flow/clone"),
        "rows",
    )
}

/// The clone's captures in windows from phone-narrow to full screen, kept with the project.
pub fn sizes_fixtures() -> Vec<Known> {
    index(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/flow/sizes"),
        "rows",
    )
}

/// How the reading differs from what is known; empty when it reads exactly.
pub fn differences(reading: &Reading, known: &Known) -> Vec<String> {
    let Some(want) = &known.rows else {
        return match &known.puzzle_file {
            Some(file) => differences_from_file(reading, file),
            None => vec!["no grid known to compare with".into()],
        };
    };
    let got = reading.rows();
    if got.len() != want.len() || got.iter().zip(want).any(|(a, b)| a.len() != b.len()) {
        return vec![format!(
            "size {}×{}, want {}×{}",
            got.first().map_or(0, |r| r.len()),
            got.len(),
            want.first().map_or(0, |r| r.len()),
            want.len()
        )];
    }
    let mut out = Vec::new();
    // Read letter → known letter, and back, both one to one.
    let mut map: BTreeMap<char, char> = BTreeMap::new();
    let mut back: BTreeMap<char, char> = BTreeMap::new();
    for (r, (g, w)) in got.iter().zip(want).enumerate() {
        for (c, (a, b)) in g.chars().zip(w.chars()).enumerate() {
            let ok = match (a, b) {
                ('.', '.') | ('#', '#') => true,
                (a, b) if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() => {
                    *map.entry(a).or_insert(b) == b && *back.entry(b).or_insert(a) == a
                }
                _ => false,
            };
            if !ok {
                out.push(format!("({r}, {c}): read {a:?}, want {b:?}"));
            }
        }
    }
    if !out.is_empty() {
        return out;
    }
    let p = &reading.puzzle;
    let mut got_drawn: BTreeMap<char, Vec<Vec<[usize; 2]>>> = BTreeMap::new();
    for pipe in &reading.drawn {
        let letter = map[&p.flows[pipe.flow].letter];
        let cells = pipe
            .cells
            .iter()
            .map(|&k| [p.cells[k].row, p.cells[k].col])
            .collect();
        got_drawn.entry(letter).or_default().push(cells);
    }
    for (letter, want_cells) in &known.drawn {
        let mut rev = want_cells.clone();
        rev.reverse();
        match got_drawn.remove(letter).as_deref() {
            Some([one]) if one == want_cells || *one == rev => {}
            other => out.push(format!(
                "pipe {letter}: read {other:?}, want {want_cells:?}"
            )),
        }
    }
    for (letter, extra) in got_drawn {
        out.push(format!("pipe {letter}: read {extra:?}, none drawn"));
    }
    out
}

/// Each cell's place as the picture shows it: (half-rows down, column) from the top cell, and
/// its letter or `.`. Hex files put their columns' half-row offset either way (the level
/// packs lower the even columns, flowsolver's files the odd ones), so a board is compared
/// by where its cells sit, not by row numbers.
fn placements(p: &Puzzle) -> BTreeMap<(i64, usize), char> {
    // Even columns sit lower when an even column's diagonal goes one row down.
    let even_low = p.links.iter().any(|l| {
        let (a, b) = (p.cells[l.a], p.cells[l.b]);
        let (even, odd) = if a.col.is_multiple_of(2) {
            (a, b)
        } else {
            (b, a)
        };
        l.axis == Axis::Diagonal && odd.row == even.row + 1
    });
    let hex = p.variant == Variant::Hex;
    let half_row = |row: usize, col: usize| -> i64 {
        let shift = match (hex, col.is_multiple_of(2), even_low) {
            (false, _, _) => 0,
            (true, true, true) => 1,
            (true, true, false) => -1,
            (true, false, _) => 0,
        };
        2 * row as i64 + shift
    };
    let top = p
        .cells
        .iter()
        .map(|c| half_row(c.row, c.col))
        .min()
        .unwrap_or(0);
    p.cells
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let letter = p.flow_at(k).map_or('.', |f| p.flows[f].letter);
            ((half_row(c.row, c.col) - top, c.col), letter)
        })
        .collect()
}

/// How the reading differs from the puzzle in a file: the same cells in the same places,
/// the same endpoints up to renaming, and no pipe drawn.
fn differences_from_file(reading: &Reading, file: &Path) -> Vec<String> {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => return vec![format!("{}: {e}", file.display())],
    };
    let want = match parse(&text, &file.display().to_string()) {
        Ok(p) => p,
        Err(e) => return vec![e.to_string()],
    };
    let (got, want) = (placements(&reading.puzzle), placements(&want));
    let mut out = Vec::new();
    let mut map: BTreeMap<char, char> = BTreeMap::new();
    let mut back: BTreeMap<char, char> = BTreeMap::new();
    for (at, &b) in &want {
        let Some(&a) = got.get(at) else {
            out.push(format!(
                "no cell read at (half-row {}, column {})",
                at.0, at.1
            ));
            continue;
        };
        let ok = match (a, b) {
            ('.', '.') => true,
            ('.', _) | (_, '.') => false,
            _ => *map.entry(a).or_insert(b) == b && *back.entry(b).or_insert(a) == a,
        };
        if !ok {
            out.push(format!(
                "(half-row {}, column {}): read {a:?}, want {b:?}",
                at.0, at.1
            ));
        }
    }
    for at in got.keys().filter(|at| !want.contains_key(at)) {
        out.push(format!(
            "a cell read at (half-row {}, column {}) the puzzle has not",
            at.0, at.1
        ));
    }
    if !reading.drawn.is_empty() {
        out.push(format!("{} pipe(s) read, none drawn", reading.drawn.len()));
    }
    out
}

/// The rows a reading of the puzzle in a file shows (`Reading::rows`): a hex board in
/// the level packs' rows, whichever way the file offsets its columns. `None` when the file
/// does not read.
pub fn rows_from_file(file: &Path) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(file).ok()?;
    let puzzle = parse(&text, &file.display().to_string()).ok()?;
    let places = placements(&puzzle);
    // Odd columns on even half-rows, even columns on odd ones, as the reader counts them.
    let lift = places
        .keys()
        .map(|&(h, c)| (h + i64::from(c.is_multiple_of(2))).rem_euclid(2))
        .max()
        .unwrap_or(0);
    let row = |h: i64, c: usize| ((h + lift - i64::from(c.is_multiple_of(2))) / 2) as usize;
    let rows = places.keys().map(|&(h, c)| row(h, c) + 1).max()?;
    let cols = places.keys().map(|&(_, c)| c + 1).max()?;
    let mut grid = vec![vec!['#'; cols]; rows];
    for (&(h, c), &letter) in &places {
        grid[row(h, c)][c] = letter;
    }
    Some(grid.into_iter().map(|r| r.into_iter().collect()).collect())
}
