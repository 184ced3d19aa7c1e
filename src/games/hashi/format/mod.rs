//! Hashi text formats: the Bridges app's game ID and Copy text, the seed's JSON forms, the web
//! game's `TR1:` code, janko/puzzlekit and `bridges.jsonl` records, and our canonical text.
//!
//! Canonical text: a header line `hashi <W>x<H> max=<M>` (plus ` noloops` for the `L` rule),
//! then H rows of W characters: `.` for an empty cell, a digit or a letter (`A` = 10) per island.

use super::model::{target_char, Bridge, Bridges, Cell, Island, Puzzle};
use crate::error::{Error, Result};
use crate::solving::check_size;
use serde_json::Value;

/// Island numbers are written as one character, `Z` = 35 at most, so 4 × max must stay below.
const MAX_BRIDGES: u8 = 8;

/// An island as read, with the text position to blame if it is invalid.
struct Raw {
    row: usize,
    col: usize,
    target: u32,
    line: usize,
    column: usize,
}

/// What a format states about the rules; `None` max means "2 unless a number needs more".
struct Header {
    width: usize,
    height: usize,
    max: Option<u8>,
    allow_loops: bool,
}

/// Reads any supported format, detected from the text: Bridges game ID, Game ▸ Copy text,
/// seed JSON islands, seed RLE task (`{w,h,task}` JSON), `TR1:` code, janko JSON line,
/// `bridges.jsonl` record, and our canonical text. Errors name `source`, line and column.
pub fn parse(text: &str, source: &str) -> Result<Puzzle> {
    let body = text.trim();
    let first = body.lines().next().unwrap_or("").trim();
    if body.is_empty() {
        return Err(Error::parse(source, 1, 1, "empty input"));
    }
    if body.starts_with('{') {
        parse_json(body, source)
    } else if let Some(rest) = first.strip_prefix("TR1:") {
        parse_tr1(rest, source)
    } else if first.starts_with("hashi ") || first == "hashi" {
        parse_canonical(text, source)
    } else if is_game_id(first) {
        parse_game_id(first, source)
    } else if is_janko_header(first) {
        parse_janko_problem(text, source, 1, 0)
    } else {
        parse_copy_text(text, source).map(|(p, _)| p)
    }
}

/// `7x7m2:...` or a full params string such as `7x7i30e10m2d0:...` before the colon.
fn is_game_id(line: &str) -> bool {
    let Some((params, _)) = line.split_once(':') else {
        return false;
    };
    let mut chars = params.chars();
    chars.next().is_some_and(|c| c.is_ascii_digit())
        && params.contains('x')
        && params.chars().all(|c| c.is_ascii_alphanumeric())
}

fn is_janko_header(line: &str) -> bool {
    let parts: Vec<&str> = line.split_whitespace().collect();
    parts.len() == 2 && parts.iter().all(|p| p.parse::<usize>().is_ok())
}

/// Checks and orders the islands; positions in `raws` are blamed for the first problem found.
fn build(h: Header, raws: Vec<Raw>, source: &str) -> Result<Puzzle> {
    if h.width == 0 || h.height == 0 {
        return Err(Error::parse(
            source,
            1,
            1,
            "width and height must be at least 1",
        ));
    }
    check_size(h.height, h.width, source, 1, 1)?;
    let Some(first) = raws.first() else {
        return Err(Error::parse(source, 1, 1, "no islands"));
    };
    let (first_line, first_col) = (first.line, first.column);
    let top = raws.iter().map(|r| r.target).max().unwrap_or(0);
    let max = match h.max {
        Some(m) => m,
        None => top.div_ceil(4).clamp(2, MAX_BRIDGES as u32) as u8,
    };
    if !(1..=MAX_BRIDGES).contains(&max) {
        return Err(Error::parse(
            source,
            first_line,
            first_col,
            format!("max bridges must be 1..={MAX_BRIDGES}"),
        ));
    }
    let mut seen = vec![false; h.width * h.height];
    let mut islands = Vec::with_capacity(raws.len());
    for r in &raws {
        if r.row >= h.height || r.col >= h.width {
            return Err(Error::parse(
                source,
                r.line,
                r.column,
                format!(
                    "island at row {} col {} lies outside the {}x{} grid",
                    r.row, r.col, h.width, h.height
                ),
            ));
        }
        if r.target == 0 || r.target > 4 * max as u32 {
            return Err(Error::parse(
                source,
                r.line,
                r.column,
                format!(
                    "island target {} must be 1..={} with at most {} bridges per pair",
                    r.target,
                    4 * max as u32,
                    max
                ),
            ));
        }
        let k = r.row * h.width + r.col;
        if std::mem::replace(&mut seen[k], true) {
            return Err(Error::parse(
                source,
                r.line,
                r.column,
                format!("two islands at row {} col {}", r.row, r.col),
            ));
        }
        islands.push(Island {
            at: Cell {
                row: r.row,
                col: r.col,
            },
            target: r.target as u8,
        });
    }
    islands.sort_by_key(|i| i.at);
    Ok(Puzzle {
        width: h.width,
        height: h.height,
        max_bridges: max,
        allow_loops: h.allow_loops,
        islands,
    })
}

/// Decodes the shared run-length form: a digit or capital letter (`A` = 10) is an island, a
/// lower-case letter a run of 1..=26 empty cells. `column0` is where `desc` starts on line 1.
fn decode_rle(desc: &str, w: usize, h: usize, column0: usize, source: &str) -> Result<Vec<Raw>> {
    let mut raws = Vec::new();
    let mut pos = 0usize;
    for (k, ch) in desc.chars().enumerate() {
        let column = column0 + k;
        let (run, target) = match ch {
            'a'..='z' => (ch as usize - 'a' as usize + 1, None),
            '1'..='9' => (1, Some(ch as u32 - '0' as u32)),
            'A'..='Z' => (1, Some(ch as u32 - 'A' as u32 + 10)),
            _ => {
                return Err(Error::parse(
                    source,
                    1,
                    column,
                    format!("unexpected {ch:?} in the grid description"),
                ))
            }
        };
        if pos + run > w * h {
            return Err(Error::parse(
                source,
                1,
                column,
                format!("description runs past the {w}x{h} grid"),
            ));
        }
        if let Some(target) = target {
            raws.push(Raw {
                row: pos / w,
                col: pos % w,
                target,
                line: 1,
                column,
            });
        }
        pos += run;
    }
    if pos != w * h {
        return Err(Error::parse(
            source,
            1,
            column0 + desc.chars().count(),
            format!(
                "description covers {pos} cells, the {w}x{h} grid has {}",
                w * h
            ),
        ));
    }
    Ok(raws)
}

fn parse_dims(s: &str, radix: u32, column: usize, source: &str) -> Result<(usize, usize)> {
    let bad = || Error::parse(source, 1, column, format!("bad grid size {s:?}"));
    let (w, h) = s.split_once('x').ok_or_else(bad)?;
    let w = usize::from_str_radix(w, radix).map_err(|_| bad())?;
    let h = usize::from_str_radix(h, radix).map_err(|_| bad())?;
    Ok((w, h))
}

/// `WxHm<max>[L]:<desc>`; the full params form (`i30e10`, `d2`) is accepted too.
fn parse_game_id(line: &str, source: &str) -> Result<Puzzle> {
    let (params, desc) = line.split_once(':').expect("checked by is_game_id");
    let size_end = params
        .char_indices()
        .skip_while(|(_, c)| c.is_ascii_digit())
        .skip(1)
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(params.len(), |(k, _)| k);
    let (width, height) = parse_dims(&params[..size_end], 10, 1, source)?;
    let mut max = 2u8;
    let mut allow_loops = true;
    let rest = &params[size_end..];
    let mut k = 0;
    let bytes = rest.as_bytes();
    while k < bytes.len() {
        let key = bytes[k] as char;
        let start = k;
        k += 1;
        while k < bytes.len() && bytes[k].is_ascii_digit() {
            k += 1;
        }
        let num = &rest[start + 1..k];
        let column = size_end + start + 1;
        match key {
            'L' if num.is_empty() => allow_loops = false,
            'i' | 'e' | 'd' if !num.is_empty() => {}
            'm' => {
                max = num
                    .parse()
                    .ok()
                    .filter(|m| (1..=MAX_BRIDGES).contains(m))
                    .ok_or_else(|| {
                        Error::parse(source, 1, column, format!("bad max bridges {num:?}"))
                    })?
            }
            _ => {
                return Err(Error::parse(
                    source,
                    1,
                    column,
                    format!("unknown parameter {key:?}"),
                ))
            }
        }
    }
    let raws = decode_rle(desc, width, height, params.len() + 2, source)?;
    build(
        Header {
            width,
            height,
            max: Some(max),
            allow_loops,
        },
        raws,
        source,
    )
}

/// The web game's `TR1:<w>x<h>:<RLE>`, sizes in base 36.
fn parse_tr1(rest: &str, source: &str) -> Result<Puzzle> {
    let (dims, desc) = rest
        .split_once(':')
        .ok_or_else(|| Error::parse(source, 1, 5, "TR1 code needs `<w>x<h>:<cells>`"))?;
    let (width, height) = parse_dims(dims, 36, 5, source)?;
    let raws = decode_rle(desc.trim(), width, height, 5 + dims.len() + 1, source)?;
    build(
        Header {
            width,
            height,
            max: None,
            allow_loops: true,
        },
        raws,
        source,
    )
}

fn parse_canonical(text: &str, source: &str) -> Result<Puzzle> {
    let mut lines = text
        .lines()
        .enumerate()
        .skip_while(|(_, l)| l.trim().is_empty());
    let (hl, header) = lines.next().expect("checked non-empty");
    let mut width = None;
    let mut max = None;
    let mut allow_loops = true;
    let mut column = 1;
    for word in header.split(' ') {
        let bad = || Error::parse(source, hl + 1, column, format!("bad header word {word:?}"));
        if word == "hashi" || word.is_empty() {
        } else if word == "noloops" {
            allow_loops = false;
        } else if let Some(m) = word.strip_prefix("max=") {
            max = Some(m.parse::<u8>().map_err(|_| bad())?);
        } else if word.contains('x') {
            width = Some(parse_dims(word, 10, column, source).map_err(|_| bad())?);
        } else {
            return Err(bad());
        }
        column += word.chars().count() + 1;
    }
    let (width, height) = width.ok_or_else(|| {
        Error::parse(
            source,
            hl + 1,
            1,
            "header needs the size, e.g. `hashi 7x7 max=2`",
        )
    })?;
    let rows: Vec<(usize, &str)> = lines
        .map(|(k, l)| (k, l.trim_end()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    if rows.len() != height {
        return Err(Error::parse(
            source,
            rows.last().map_or(hl + 1, |r| r.0 + 1),
            1,
            format!("expected {height} rows, found {}", rows.len()),
        ));
    }
    let mut raws = Vec::new();
    for (r, (k, line)) in rows.iter().enumerate() {
        let n = line.chars().count();
        if n != width {
            return Err(Error::parse(
                source,
                k + 1,
                n.min(width) + 1,
                format!("row has {n} cells, expected {width}"),
            ));
        }
        for (c, ch) in line.chars().enumerate() {
            let target = match ch {
                '.' => continue,
                '1'..='9' => ch as u32 - '0' as u32,
                'A'..='Z' => ch as u32 - 'A' as u32 + 10,
                _ => {
                    return Err(Error::parse(
                        source,
                        k + 1,
                        c + 1,
                        format!("unexpected {ch:?}: use `.` or an island number"),
                    ))
                }
            };
            raws.push(Raw {
                row: r,
                col: c,
                target,
                line: k + 1,
                column: c + 1,
            });
        }
    }
    build(
        Header {
            width,
            height,
            max: Some(max.unwrap_or(2)),
            allow_loops,
        },
        raws,
        source,
    )
}

/// janko/puzzlekit `problem` text: `rows cols`, then rows of `-` or a number, space separated.
/// `line0` and `column0` place the text inside its container for error messages.
fn parse_janko_problem(text: &str, source: &str, line0: usize, column0: usize) -> Result<Puzzle> {
    let mut lines = text
        .lines()
        .enumerate()
        .skip_while(|(_, l)| l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        return Err(Error::parse(
            source,
            line0,
            column0 + 1,
            "empty problem text",
        ));
    };
    let nums: Vec<usize> = header
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect();
    let &[height, width] = nums.as_slice() else {
        return Err(Error::parse(
            source,
            line0,
            column0 + 1,
            "header must be `rows cols`",
        ));
    };
    let rows: Vec<(usize, &str)> = lines.filter(|(_, l)| !l.trim().is_empty()).collect();
    if rows.len() != height {
        return Err(Error::parse(
            source,
            line0,
            column0 + 1,
            format!("expected {height} rows, found {}", rows.len()),
        ));
    }
    let mut raws = Vec::new();
    for (r, (k, line)) in rows.iter().enumerate() {
        let cells: Vec<&str> = line.split_whitespace().collect();
        if cells.len() != width {
            return Err(Error::parse(
                source,
                line0 + k,
                column0 + 1,
                format!("row {} has {} cells, expected {width}", r + 1, cells.len()),
            ));
        }
        for (c, cell) in cells.iter().enumerate() {
            if *cell == "-" {
                continue;
            }
            let target = cell.parse::<u32>().map_err(|_| {
                Error::parse(
                    source,
                    line0 + k,
                    column0 + 1,
                    format!(
                        "row {} cell {}: {cell:?} is neither `-` nor a number",
                        r + 1,
                        c + 1
                    ),
                )
            })?;
            raws.push(Raw {
                row: r,
                col: c,
                target,
                line: line0 + k,
                column: column0 + 1,
            });
        }
    }
    build(
        Header {
            width,
            height,
            max: None,
            allow_loops: true,
        },
        raws,
        source,
    )
}

/// The JSON forms, told apart by their fields: `task` (seed RLE), `islands` as objects
/// `{r,c,target}` (seed) or as `[x,y,n]` triples (janko, `bridges.jsonl`), or only `problem`.
fn parse_json(body: &str, source: &str) -> Result<Puzzle> {
    let v: Value = match serde_json::from_str(body) {
        Ok(v) => v,
        Err(e) => serde_json::from_str(&js_to_json(body))
            .map_err(|_| Error::parse(source, e.line(), e.column(), format!("bad JSON: {e}")))?,
    };
    let place = |off: usize| -> (usize, usize) {
        let line = body[..off].matches('\n').count() + 1;
        let col = off - body[..off].rfind('\n').map_or(0, |k| k + 1) + 1;
        (line, col)
    };
    let key_at = |key: &str| key_offset(body, key).unwrap_or(0);
    let blame = |key: &str| place(key_at(key));
    let err = |key: &str, msg: String| {
        let (l, c) = blame(key);
        Error::parse(source, l, c, msg)
    };
    let dim = |key: &str| -> Result<usize> {
        v.get(key)
            .and_then(Value::as_u64)
            .map(|n| n as usize)
            .ok_or_else(|| err(key, format!("field `{key}` must be a whole number")))
    };
    if v.get("islands").is_none() && v.get("task").is_none() {
        if let Some(problem) = v.get("problem").and_then(Value::as_str) {
            let (l, c) = blame("problem");
            return parse_janko_problem(problem, source, l, c);
        }
        return Err(Error::parse(
            source,
            1,
            1,
            "JSON needs `islands`, `task` or `problem`",
        ));
    }
    let (width, height) = (dim("w")?, dim("h")?);
    let max = match v.get("maxb") {
        None => None,
        Some(m) => Some(
            m.as_u64()
                .filter(|m| (1..=MAX_BRIDGES as u64).contains(m))
                .ok_or_else(|| err("maxb", format!("field `maxb` must be 1..={MAX_BRIDGES}")))?
                as u8,
        ),
    };
    let allow_loops = match v.get("allow_loops") {
        None => true,
        Some(b) => b.as_bool().ok_or_else(|| {
            err(
                "allow_loops",
                "field `allow_loops` must be true or false".into(),
            )
        })?,
    };
    let header = Header {
        width,
        height,
        max,
        allow_loops,
    };
    if let Some(task) = v.get("task") {
        let task = task
            .as_str()
            .ok_or_else(|| err("task", "field `task` must be a string".into()))?;
        // Errors inside the string point at its characters, so find where it opens.
        let colon = key_at("task") + body[key_at("task")..].find(':').unwrap_or(0);
        let open = colon + body[colon..].find(['"', '\'']).unwrap_or(0);
        let (l, c) = place(open);
        let raws = decode_rle(task, width, height, c + 1, source).map_err(|e| match e {
            Error::Parse { pos, message } => Error::parse(source, l, pos.column, message),
            other => other,
        })?;
        return build(header, raws, source);
    }
    let (line, column) = blame("islands");
    let list = v["islands"]
        .as_array()
        .ok_or_else(|| err("islands", "field `islands` must be a list".into()))?;
    let mut raws = Vec::with_capacity(list.len());
    for (k, item) in list.iter().enumerate() {
        let num = |x: Option<&Value>| x.and_then(Value::as_u64).map(|n| n as usize);
        let got = match item {
            Value::Array(a) if a.len() == 3 => num(a.get(1)).zip(num(a.first())).zip(num(a.get(2))),
            Value::Object(_) => num(item.get("r"))
                .zip(num(item.get("c")))
                .zip(num(item.get("target"))),
            _ => None,
        };
        let ((row, col), target) = got.ok_or_else(|| {
            Error::parse(
                source,
                line,
                column,
                format!("island {k} must be [x, y, n] or {{r, c, target}} with whole numbers"),
            )
        })?;
        raws.push(Raw {
            row,
            col,
            target: target.min(u32::MAX as usize) as u32,
            line,
            column,
        });
    }
    build(header, raws, source)
}

/// Where `key` is named as an object key, quoted (JSON) or bare (JavaScript).
fn key_offset(body: &str, key: &str) -> Option<usize> {
    body.match_indices(key)
        .map(|(k, _)| k)
        .find(|&k| {
            let before = body[..k].chars().next_back();
            let after = body[k + key.len()..].trim_start_matches('"').trim_start();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after.starts_with(':')
        })
        .map(|k| if body[..k].ends_with('"') { k - 1 } else { k })
}

/// The seed writes its examples as JavaScript object literals (bare keys, single-quoted
/// strings, trailing commas); this rewrites such a literal as JSON.
fn js_to_json(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 16);
    let mut k = 0;
    while k < chars.len() {
        let ch = chars[k];
        if ch == '\'' || ch == '"' {
            out.push('"');
            k += 1;
            while k < chars.len() && chars[k] != ch {
                match chars[k] {
                    '\\' if k + 1 < chars.len() => {
                        out.push('\\');
                        out.push(chars[k + 1]);
                        k += 1;
                    }
                    '"' => out.push_str("\\\""),
                    c => out.push(c),
                }
                k += 1;
            }
            out.push('"');
            k += 1;
        } else if ch.is_alphabetic() || ch == '_' || ch == '$' {
            let start = k;
            while k < chars.len()
                && (chars[k].is_alphanumeric() || chars[k] == '_' || chars[k] == '$')
            {
                k += 1;
            }
            let word: String = chars[start..k].iter().collect();
            let next = chars[k..].iter().find(|c| !c.is_whitespace());
            if next == Some(&':') {
                out.push('"');
                out.push_str(&word);
                out.push('"');
            } else {
                out.push_str(&word);
            }
        } else if ch == ','
            && matches!(
                chars[k + 1..].iter().find(|c| !c.is_whitespace()),
                Some('}' | ']')
            )
        {
            k += 1;
        } else {
            out.push(ch);
            k += 1;
        }
    }
    out
}

/// The app's Game ▸ Copy text: the islands and the bridges drawn.
///
/// The app prints an island as `'0' + count`, so 10..=12 come out as `:` `;` `<`; higher
/// counts would clash with bridge characters and are not read. Our own rendering's letters
/// (`A` = 10) and `#`/`H` (three bridges) are read too. The app draws every count above one as
/// `=`/`"`, so those read as 2.
pub fn parse_copy_text(text: &str, source: &str) -> Result<(Puzzle, Bridges)> {
    let rows: Vec<(usize, Vec<char>)> = text
        .lines()
        .enumerate()
        .map(|(k, l)| (k, l.trim_end().chars().collect::<Vec<char>>()))
        .skip_while(|(_, l)| l.is_empty())
        .collect();
    let rows: Vec<(usize, Vec<char>)> = {
        let keep = rows
            .iter()
            .rposition(|(_, l)| !l.is_empty())
            .map_or(0, |k| k + 1);
        rows.into_iter().take(keep).collect()
    };
    let Some((first_line, first)) = rows.first() else {
        return Err(Error::parse(source, 1, 1, "empty grid"));
    };
    let width = first.len();
    let height = rows.len();
    let mut raws = Vec::new();
    for (r, (k, line)) in rows.iter().enumerate() {
        if line.len() != width {
            return Err(Error::parse(
                source,
                k + 1,
                line.len().min(width) + 1,
                format!(
                    "row has {} cells, line {} has {width}",
                    line.len(),
                    first_line + 1
                ),
            ));
        }
        for (c, &ch) in line.iter().enumerate() {
            let target = match ch {
                '1'..='9' | ':' | ';' | '<' => ch as u32 - '0' as u32,
                'A'..='G' => ch as u32 - 'A' as u32 + 10,
                '.' | '-' | '=' | '#' | '|' | '"' | 'H' | '!' | '~' => continue,
                _ => {
                    return Err(Error::parse(
                        source,
                        k + 1,
                        c + 1,
                        format!("unexpected {ch:?} in the grid"),
                    ))
                }
            };
            raws.push(Raw {
                row: r,
                col: c,
                target,
                line: k + 1,
                column: c + 1,
            });
        }
    }
    let grid: Vec<&Vec<char>> = rows.iter().map(|(_, l)| l).collect();
    let line_of = |r: usize| rows[r].0 + 1;
    let is_island =
        |r: usize, c: usize| matches!(grid[r][c], '1'..='9' | ':' | ';' | '<' | 'A'..='G');
    let mut bridges = Vec::new();
    // A run of one bridge character must join two islands and stay one count all along.
    let mut read_runs = |horizontal: bool| -> Result<()> {
        let (outer, inner) = if horizontal {
            (height, width)
        } else {
            (width, height)
        };
        for o in 0..outer {
            let at = |i: usize| if horizontal { (o, i) } else { (i, o) };
            let mut i = 0;
            while i < inner {
                let (r, c) = at(i);
                let count = match (horizontal, grid[r][c]) {
                    (true, '-') | (false, '|') => 1,
                    (true, '=') | (false, '"') => 2,
                    (true, '#') | (false, 'H') => 3,
                    _ => {
                        i += 1;
                        continue;
                    }
                };
                let start = i;
                while i < inner && grid[at(i).0][at(i).1] == grid[r][c] {
                    i += 1;
                }
                let closed = start > 0 && i < inner && {
                    let (a, b) = (at(start - 1), at(i));
                    is_island(a.0, a.1) && is_island(b.0, b.1)
                };
                if !closed {
                    return Err(Error::parse(
                        source,
                        line_of(r),
                        c + 1,
                        format!("bridge {:?} does not join two islands", grid[r][c]),
                    ));
                }
                let (a, b) = (at(start - 1), at(i));
                bridges.push(Bridge::new(
                    Cell { row: a.0, col: a.1 },
                    Cell { row: b.0, col: b.1 },
                    count,
                ));
            }
        }
        Ok(())
    };
    read_runs(true)?;
    read_runs(false)?;
    bridges.sort();
    let top = bridges.iter().map(|b| b.count).max().unwrap_or(0);
    let mut puzzle = build(
        Header {
            width,
            height,
            max: None,
            allow_loops: true,
        },
        raws,
        source,
    )?;
    puzzle.max_bridges = puzzle.max_bridges.max(top);
    Ok((puzzle, bridges))
}

/// Which number of a bridge array comes first: our JSON writes `[r1, c1, r2, c2, n]`, the
/// corpora's solutions `[x1, y1, x2, y2, n]` with x the column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellOrder {
    RowFirst,
    ColumnFirst,
}

/// Reads a JSON list of bridges, each five numbers in `order`; sorted.
pub fn bridges_from_json(v: &Value, order: CellOrder, source: &str) -> Result<Bridges> {
    let bad = |what: String| Error::parse(source, 1, 1, what);
    let list = v
        .as_array()
        .ok_or_else(|| bad("the bridges are not a list".into()))?;
    let mut out = Bridges::new();
    for (k, b) in list.iter().enumerate() {
        let n: Option<Vec<usize>> = b
            .as_array()
            .map(|a| a.iter().map(|x| x.as_u64().map(|x| x as usize)).collect())
            .unwrap_or(None);
        let Some(&[p, q, r, s, count]) = n.as_deref() else {
            return Err(bad(format!(
                "bridge {} is not five whole numbers: {b}",
                k + 1
            )));
        };
        let (a, b) = match order {
            CellOrder::RowFirst => (Cell { row: p, col: q }, Cell { row: r, col: s }),
            CellOrder::ColumnFirst => (Cell { row: q, col: p }, Cell { row: s, col: r }),
        };
        out.push(Bridge::new(a, b, count as u8));
    }
    out.sort();
    Ok(out)
}

/// Canonical text form (round-trips through `parse`).
pub fn to_canonical(p: &Puzzle) -> String {
    let mut s = format!("hashi {}x{} max={}", p.width, p.height, p.max_bridges);
    if !p.allow_loops {
        s.push_str(" noloops");
    }
    s.push('\n');
    for row in p.rows() {
        s.push_str(&row);
        s.push('\n');
    }
    s
}

/// The Bridges app game ID `WxHm<max>[L]:<desc>`.
pub fn to_game_id(p: &Puzzle) -> String {
    let mut s = format!(
        "{}x{}m{}{}:",
        p.width,
        p.height,
        p.max_bridges,
        if p.allow_loops { "" } else { "L" }
    );
    let mut run = 0u8;
    let flush = |s: &mut String, run: &mut u8| {
        if *run > 0 {
            s.push((b'a' + *run - 1) as char);
            *run = 0;
        }
    };
    for r in 0..p.height {
        for c in 0..p.width {
            match p.island_at(Cell { row: r, col: c }) {
                Some(i) => {
                    flush(&mut s, &mut run);
                    s.push(target_char(i.target));
                }
                None => {
                    if run == 26 {
                        flush(&mut s, &mut run);
                    }
                    run += 1;
                }
            }
        }
    }
    flush(&mut s, &mut run);
    s
}

#[cfg(test)]
mod tests;
