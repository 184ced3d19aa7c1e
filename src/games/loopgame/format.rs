//! Loop text formats: our canonical text, a bare grid, and one `daily.jsonl` record of the
//! corpus.
//!
//! Canonical text: a header line `loop <W>x<H>`, then H rows of W characters: a digit per
//! hint cell, `.` elsewhere. Without the header the rows alone are read (a bare grid).

use super::model::Puzzle;
use crate::error::{Error, Result};
use crate::games::Format;
use crate::solving::check_size;
use serde_json::Value;

/// The two hint sets a corpus record carries for the same loop (the app's A/B arms).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HintSet {
    /// `hints`: the spaced placement every player saw before the experiment.
    Control,
    /// `hints_dense`: the covering placement.
    Dense,
}

impl HintSet {
    pub fn field(self) -> &'static str {
        match self {
            HintSet::Control => "hints",
            HintSet::Dense => "hints_dense",
        }
    }
}

/// Reads any supported format, detected from the text: a JSON record (its `hints`), the
/// canonical text, or a bare grid. Errors name `source`, line and column.
pub fn parse(text: &str, source: &str) -> Result<Puzzle> {
    let body = text.trim_start();
    if body.is_empty() {
        return Err(Error::parse(source, 1, 1, "empty input"));
    }
    if body.starts_with('{') {
        parse_record(text, source, HintSet::Control)
    } else {
        parse_grid_text(text, source)
    }
}

/// One `daily.jsonl` record (a JSON object with `hints` / `hints_dense` row strings), reading
/// the hint set asked for.
pub fn parse_record(text: &str, source: &str, set: HintSet) -> Result<Puzzle> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| Error::parse(source, e.line(), e.column(), format!("bad JSON: {e}")))?;
    let key = set.field();
    let key_at = text
        .find(&format!("\"{key}\""))
        .ok_or_else(|| Error::parse(source, 1, 1, format!("the record has no `{key}` field")))?;
    let (kl, kc) = place(text, key_at);
    let bad_field = || {
        Error::parse(
            source,
            kl,
            kc,
            format!("`{key}` must be a list of row strings"),
        )
    };
    let rows = v.get(key).and_then(Value::as_array).ok_or_else(bad_field)?;
    let starts = string_starts(text, key_at + key.len() + 2, rows.len());
    let mut lines = Vec::with_capacity(rows.len());
    for (k, row) in rows.iter().enumerate() {
        let row = row.as_str().ok_or_else(bad_field)?;
        let (line, column) = starts.get(k).map_or((kl, kc), |&off| place(text, off));
        lines.push(Row {
            line,
            column,
            text: row,
        });
    }
    let size = match v.get("size") {
        None => None,
        Some(s) => {
            let (l, c) = place(text, text.find("\"size\"").unwrap_or(0));
            let n = s
                .as_u64()
                .ok_or_else(|| Error::parse(source, l, c, "`size` must be a whole number"))?
                as usize;
            Some((n, n, l, c))
        }
    };
    build(&lines, size, source)
}

/// The canonical text of a puzzle: header, then one row per line.
pub fn to_canonical(p: &Puzzle) -> String {
    let mut t = format!("loop {}x{}\n", p.cols, p.rows);
    for row in p.rows() {
        t.push_str(&row);
        t.push('\n');
    }
    t
}

/// What `scan --to` writes: the canonical text is Loop's only one (the corpus record holds a
/// date and a solution a puzzle does not know).
pub const FORMATS: &[Format] = &[Format {
    name: "loop",
    extension: "loop",
    about: "the canonical text",
}];

/// The puzzle in one of [`FORMATS`].
pub fn write(p: &Puzzle, format: &Format) -> Result<String> {
    match format.name {
        "loop" => Ok(to_canonical(p)),
        other => Err(Error::Usage(format!("loop writes no {other} format"))),
    }
}

/// One grid row with where it starts in the input, for error positions.
struct Row<'a> {
    line: usize,
    column: usize,
    text: &'a str,
}

/// 1-based line and column of a byte offset.
fn place(text: &str, off: usize) -> (usize, usize) {
    let before = &text[..off];
    let line = before.matches('\n').count() + 1;
    let column = before[before.rfind('\n').map_or(0, |k| k + 1)..]
        .chars()
        .count()
        + 1;
    (line, column)
}

/// Byte offsets where the first `count` string literals after `from` start (inside the quote).
fn string_starts(text: &str, from: usize, count: usize) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(count);
    let mut k = from;
    while out.len() < count && k < bytes.len() {
        if bytes[k] == b'"' {
            out.push(k + 1);
            k += 1;
            while k < bytes.len() && bytes[k] != b'"' {
                k += if bytes[k] == b'\\' { 2 } else { 1 };
            }
        }
        k += 1;
    }
    out
}

fn parse_grid_text(text: &str, source: &str) -> Result<Puzzle> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .peekable();
    let mut size = None;
    if let Some(&(k, first)) = lines.peek() {
        let first = first.trim();
        if first == "loop" || first.starts_with("loop ") {
            size = Some(parse_header(first, k + 1, source)?);
            lines.next();
        }
    }
    let rows: Vec<Row> = lines
        .map(|(k, l)| {
            let lead = l.len() - l.trim_start().len();
            Row {
                line: k + 1,
                column: l[..lead].chars().count() + 1,
                text: l.trim(),
            }
        })
        .collect();
    build(&rows, size, source)
}

/// `loop <W>x<H>`: the size, with the header's position for later complaints.
fn parse_header(header: &str, line: usize, source: &str) -> Result<(usize, usize, usize, usize)> {
    let mut size = None;
    let mut column = 1;
    for word in header.split(' ') {
        let bad = || Error::parse(source, line, column, format!("bad header word {word:?}"));
        if word == "loop" || word.is_empty() {
        } else if let Some((w, h)) = word.split_once('x') {
            let w: usize = w.parse().map_err(|_| bad())?;
            let h: usize = h.parse().map_err(|_| bad())?;
            size = Some((w, h, line, column));
        } else {
            return Err(bad());
        }
        column += word.chars().count() + 1;
    }
    size.ok_or_else(|| Error::parse(source, line, 1, "header needs the size, e.g. `loop 8x8`"))
}

/// Checks the rows (and the stated size, with where it was stated) and reads the hints.
fn build(rows: &[Row], size: Option<(usize, usize, usize, usize)>, source: &str) -> Result<Puzzle> {
    let Some(first) = rows.first() else {
        let (line, column) = size.map_or((1, 1), |s| (s.2, s.3));
        return Err(Error::parse(source, line, column, "no grid rows"));
    };
    let width = first.text.chars().count();
    if let Some((w, h, line, column)) = size {
        if w == 0 || h == 0 {
            return Err(Error::parse(
                source,
                line,
                column,
                "width and height must be at least 1",
            ));
        }
        if rows.len() != h {
            let at = rows.last().unwrap_or(first);
            return Err(Error::parse(
                source,
                at.line,
                at.column,
                format!("expected {h} rows, found {}", rows.len()),
            ));
        }
        if width != w {
            return Err(Error::parse(
                source,
                first.line,
                first.column + width.min(w),
                format!("row has {width} cells, expected {w}"),
            ));
        }
    }
    check_size(rows.len(), width, source, first.line, first.column)?;
    let mut p = Puzzle::empty(width, rows.len());
    for (r, row) in rows.iter().enumerate() {
        let n = row.text.chars().count();
        if n != width {
            return Err(Error::parse(
                source,
                row.line,
                row.column + n.min(width),
                format!("row has {n} cells, the first row has {width}"),
            ));
        }
        for (c, ch) in row.text.chars().enumerate() {
            let column = row.column + c;
            let value = match ch {
                '.' => continue,
                '0'..='9' => ch as u8 - b'0',
                _ => {
                    return Err(Error::parse(
                        source,
                        row.line,
                        column,
                        format!("unexpected {ch:?}: use `.` or a hint digit"),
                    ))
                }
            };
            let room = p.block_size(r, c);
            if value as usize > room {
                return Err(Error::parse(
                    source,
                    row.line,
                    column,
                    format!("hint {value} cannot be met: its block has only {room} cells"),
                ));
            }
            p.hints[r * width + c] = Some(value);
        }
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err_at(text: &str) -> (usize, usize, String) {
        match parse(text, "t") {
            Err(Error::Parse { pos, message }) => (pos.line, pos.column, message),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn a_grid_past_the_size_limit_is_refused_before_any_work() {
        let row = ".".repeat(257);
        let text = format!("loop 257x256\n{}\n", vec![row; 256].join("\n"));
        let e = parse(&text, "big.loop").unwrap_err().to_string();
        assert!(e.contains("big.loop:2:1") && e.contains("65536"), "{e}");
        let row = ".".repeat(256);
        assert!(parse(&vec![row; 256].join("\n"), "ok").is_ok());
    }

    #[test]
    fn canonical_round_trip() {
        let text = "loop 4x3\n3...\n..5.\n...2\n";
        let p = parse(text, "t").unwrap();
        assert_eq!((p.cols, p.rows), (4, 3));
        assert_eq!(p.hint(0, 0), Some(3));
        assert_eq!(p.hint(1, 2), Some(5));
        assert_eq!(p.hint(1, 1), None);
        assert_eq!(to_canonical(&p), text);
    }

    #[test]
    fn bare_grid_parses() {
        let p = parse("\n..\n4.\n..\n", "t").unwrap();
        assert_eq!((p.cols, p.rows), (2, 3));
        assert_eq!(p.hint(1, 0), Some(4));
    }

    #[test]
    fn ragged_row_is_blamed_where_it_ends() {
        let (line, column, msg) = err_at("loop 3x2\n...\n..\n");
        assert_eq!((line, column), (3, 3), "{msg}");
        assert!(msg.contains("2 cells"), "{msg}");
        let (line, column, _) = err_at("....\n.....\n");
        assert_eq!((line, column), (2, 5));
    }

    #[test]
    fn bad_character_is_blamed_exactly() {
        let (line, column, msg) = err_at("loop 3x2\n...\n.x.\n");
        assert_eq!((line, column), (3, 2));
        assert!(msg.contains("'x'"), "{msg}");
    }

    #[test]
    fn hint_larger_than_its_block_is_refused() {
        // A corner block holds 4 cells, an edge block 6.
        let (line, column, msg) = err_at("5..\n...\n...\n");
        assert_eq!((line, column), (1, 1));
        assert!(msg.contains("only 4 cells"), "{msg}");
        let (line, column, msg) = err_at("loop 3x3\n...\n7..\n...\n");
        assert_eq!((line, column), (3, 1));
        assert!(msg.contains("only 6 cells"), "{msg}");
        assert!(parse("...\n.9.\n...\n", "t").is_ok());
    }

    #[test]
    fn header_errors_and_size_mismatch() {
        let (line, column, msg) = err_at("loop 3y3\n...\n");
        assert_eq!((line, column), (1, 6), "{msg}");
        let (line, _, msg) = err_at("loop 3x3\n...\n...\n");
        assert_eq!(line, 3);
        assert!(msg.contains("expected 3 rows"), "{msg}");
        let (line, column, msg) = err_at("loop 4x1\n...\n");
        assert_eq!((line, column), (2, 4), "{msg}");
        assert!(matches!(err_at("   \n"), (1, 1, _)));
    }

    #[test]
    fn record_reads_either_hint_set() {
        let rec = r#"{"size":4,"hints":["3...","....","....","3..."],"hints_dense":["...3",".7..","..7.","3..."]}"#;
        let a = parse(rec, "t").unwrap();
        assert_eq!(a.hint(0, 0), Some(3));
        assert_eq!(a.hint(1, 1), None);
        let b = parse_record(rec, "t", HintSet::Dense).unwrap();
        assert_eq!(b.hint(1, 1), Some(7));
        assert_eq!(b.hint(0, 0), None);
    }

    #[test]
    fn record_errors_point_into_the_json() {
        let rec = r#"{"size":4,"hints":["3...","..x.","....","3..."]}"#;
        match parse(rec, "t") {
            Err(Error::Parse { pos, message }) => {
                assert_eq!((pos.line, pos.column), (1, 30), "{message}");
                assert_eq!(&rec[29..30], "x");
            }
            other => panic!("{other:?}"),
        }
        let short = r#"{"size":4,"hints":["3...","....","...."]}"#;
        assert!(parse(short, "t")
            .unwrap_err()
            .to_string()
            .contains("expected 4 rows"));
        let missing = r#"{"size":4,"hints":["3..."]}"#;
        assert!(parse_record(missing, "t", HintSet::Dense)
            .unwrap_err()
            .to_string()
            .contains("no `hints_dense`"));
        let broken = "{\"size\":4,\n \"hints\": [}";
        match parse(broken, "t") {
            Err(Error::Parse { pos, .. }) => assert_eq!(pos.line, 2),
            other => panic!("{other:?}"),
        }
    }

    /// The bar of `scan --to`: every corpus puzzle, both hint sets of each daily record,
    /// reads back from each format as the very puzzle it was written from.
    #[test]
    fn every_corpus_puzzle_round_trips_through_every_format() {
        let Some(path) = crate::corpus::path("loop/daily.jsonl") else {
            return;
        };
        let text = std::fs::read_to_string(path).unwrap();
        let mut puzzles = Vec::new();
        for (k, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            for set in [HintSet::Control, HintSet::Dense] {
                let name = format!("daily.jsonl:{} {}", k + 1, set.field());
                puzzles.push((name.clone(), parse_record(line, &name, set).unwrap()));
            }
        }
        let read = |t: &str| parse(t, "rt");
        crate::games::assert_round_trips("loop", FORMATS, (&puzzles, 1752), write, read);
    }
}
