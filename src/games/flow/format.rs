//! Flow Free text formats, detected from the text: the seed's lattice format (first line
//! `STANDARD|BRIDGES|HEX|WARPS`, also our canonical text), mzucker's square rows, and one line
//! of the app's level packs. Errors name the source, line and column.

use super::model::{Axis, BuildError, Builder, GridSpec, Puzzle, Solution, Variant};
use crate::error::{Error, Result};
use crate::solving::check_size;
use std::collections::BTreeMap;

/// Reads any supported format; a board past [`crate::solving::MAX_CELLS`] is refused before any
/// solving.
pub fn parse(text: &str, source: &str) -> Result<Puzzle> {
    let p = parse_any(text, source)?;
    check_size(p.rows, p.cols, source, 1, 1)?;
    Ok(p)
}

fn parse_any(text: &str, source: &str) -> Result<Puzzle> {
    let Some((k, first)) = text.lines().enumerate().find(|(_, l)| !l.trim().is_empty()) else {
        return Err(Error::parse(source, 1, 1, "empty input"));
    };
    let word = first.trim();
    if variant_of(word).is_some() {
        parse_seed(text, source)
    } else if is_pack_line(word) {
        if let Some((j, _)) = text
            .lines()
            .enumerate()
            .skip(k + 1)
            .find(|(_, l)| !l.trim().is_empty())
        {
            return Err(Error::parse(
                source,
                j + 1,
                1,
                "a level-pack input holds one level: pass a single line",
            ));
        }
        Ok(parse_pack_line(first, source, k + 1)?.puzzle)
    } else {
        parse_mzucker(text, source)
    }
}

fn variant_of(word: &str) -> Option<Variant> {
    [
        Variant::Standard,
        Variant::Bridges,
        Variant::Hex,
        Variant::Warps,
    ]
    .into_iter()
    .find(|v| v.keyword() == word)
}

/// `5,0,1,5;...`, `X_9,...`, `W_6:3,...`, `12:14+B,...`: a size, then a comma.
fn is_pack_line(line: &str) -> bool {
    let head = line.split(',').next().unwrap_or("");
    line.contains(',')
        && head
            .trim_start_matches("X_")
            .trim_start_matches("W_")
            .starts_with(|c: char| c.is_ascii_digit())
}

fn build_error(source: &str, line: usize, column: usize, e: BuildError) -> Error {
    Error::parse(source, line, column, e.to_string())
}

/// Each letter must appear exactly twice; `found` is in reading order with text positions.
fn pair_letters(
    found: &[(char, usize, usize, usize)],
    source: &str,
) -> Result<Vec<(char, [usize; 2])>> {
    let mut seen: BTreeMap<char, Vec<(usize, usize, usize)>> = BTreeMap::new();
    let mut order = Vec::new();
    for &(ch, cell, line, column) in found {
        let v = seen.entry(ch).or_default();
        if v.is_empty() {
            order.push(ch);
        }
        v.push((cell, line, column));
        if v.len() == 3 {
            return Err(Error::parse(
                source,
                line,
                column,
                format!("endpoint {ch} appears a third time: each colour has two endpoints"),
            ));
        }
    }
    order
        .into_iter()
        .map(|ch| match seen[&ch].as_slice() {
            [a, b] => Ok((ch, [a.0, b.0])),
            [(_, line, column)] => Err(Error::parse(
                source,
                *line,
                *column,
                format!("endpoint {ch} appears once: each colour has two endpoints"),
            )),
            _ => unreachable!("one or two entries per letter"),
        })
        .collect()
}

/// The seed's lattice: cells on even lines and even columns of the body, links between them.
fn parse_seed(text: &str, source: &str) -> Result<Puzzle> {
    let lines: Vec<&str> = text.lines().collect();
    let header = lines
        .iter()
        .position(|l| !l.trim().is_empty())
        .expect("parse checked a non-empty line");
    let variant = variant_of(lines[header].trim()).expect("parse checked the header");
    let body: Vec<Vec<char>> = lines[header + 1..]
        .iter()
        .map(|l| l.trim_end().chars().collect())
        .collect();
    let text_pos = |r: usize, c: usize| (header + 2 + r, c + 1);
    let is_cell = |ch: char| ch == '.' || ch == '*' || ch.is_ascii_uppercase();

    let mut b = Builder::new(variant);
    let mut index: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let mut letters = Vec::new();
    for (r, line) in body.iter().enumerate() {
        for (c, &ch) in line.iter().enumerate() {
            let (tl, tc) = text_pos(r, c);
            let link_char = matches!(ch, '-' | '|' | '/' | '\\');
            if ch == ' ' || link_char {
                continue;
            }
            if !is_cell(ch) {
                return Err(Error::parse(
                    source,
                    tl,
                    tc,
                    format!("unexpected {ch:?}: cells are `.` `*` `A-Z`, links `-` `|` `/` `\\`"),
                ));
            }
            if r % 2 == 1 || c % 2 == 1 {
                return Err(Error::parse(
                    source,
                    tl,
                    tc,
                    "a cell must sit on an even line and column of the board (links go between)",
                ));
            }
            let k = b.cell(r / 2, c / 2, ch == '*');
            index.insert((r, c), k);
            if ch.is_ascii_uppercase() {
                letters.push((ch, k, tl, tc));
            }
        }
    }
    // Warps: the cells at the far ends of each row and column, for links that leave the board.
    let row_end = |r: usize, last: bool| {
        let mut it = index.range((r, 0)..(r + 1, 0)).map(|(_, &k)| k);
        if last {
            it.next_back()
        } else {
            it.next()
        }
    };
    let col_end = |c: usize, last: bool| {
        let mut it = index
            .iter()
            .filter(|((_, cc), _)| *cc == c)
            .map(|(_, &k)| k);
        if last {
            it.next_back()
        } else {
            it.next()
        }
    };
    for (r, line) in body.iter().enumerate() {
        for (c, &ch) in line.iter().enumerate() {
            let cell = |rr: Option<usize>, cc: Option<usize>| match (rr, cc) {
                (Some(rr), Some(cc)) => index.get(&(rr, cc)).copied(),
                _ => None,
            };
            let (up, down) = (r.checked_sub(1), Some(r + 1));
            let (left, right) = (c.checked_sub(1), Some(c + 1));
            let (p, q, axis, warp) = match ch {
                '-' if r % 2 == 0 && c % 2 == 1 => (
                    cell(Some(r), left),
                    cell(Some(r), right),
                    Axis::Row,
                    (row_end(r, true), row_end(r, false)),
                ),
                '|' if r % 2 == 1 && c % 2 == 0 => (
                    cell(up, Some(c)),
                    cell(down, Some(c)),
                    Axis::Column,
                    (col_end(c, true), col_end(c, false)),
                ),
                '/' if r % 2 == 1 && c % 2 == 1 => (
                    cell(down, left),
                    cell(up, right),
                    Axis::Diagonal,
                    (None, None),
                ),
                '\\' if r % 2 == 1 && c % 2 == 1 => (
                    cell(up, left),
                    cell(down, right),
                    Axis::Diagonal,
                    (None, None),
                ),
                '-' | '|' | '/' | '\\' => {
                    let (tl, tc) = text_pos(r, c);
                    return Err(Error::parse(
                        source,
                        tl,
                        tc,
                        format!("{ch:?} is out of place here: it cannot join two cells"),
                    ));
                }
                _ => continue,
            };
            let (tl, tc) = text_pos(r, c);
            let joined = match (p, q) {
                (Some(p), Some(q)) => Some((p, q)),
                // A link off the board's last cell wraps to the first one; off the first cell,
                // to the last.
                (Some(p), None) if variant == Variant::Warps && warp.0 == Some(p) => {
                    warp.1.map(|q| (p, q))
                }
                (None, Some(q)) if variant == Variant::Warps && warp.1 == Some(q) => {
                    warp.0.map(|p| (p, q))
                }
                _ => None,
            };
            let Some((p, q)) = joined.filter(|(p, q)| p != q) else {
                return Err(Error::parse(
                    source,
                    tl,
                    tc,
                    format!("{ch:?} links to nowhere: a cell is missing at one of its ends"),
                ));
            };
            b.link(p, q, axis)
                .map_err(|e| build_error(source, tl, tc, e))?;
        }
    }
    for (letter, ends) in pair_letters(&letters, source)? {
        b.flow(letter, ends);
    }
    b.finish()
        .map_err(|e| build_error(source, header + 1, 1, e))
}

/// mzucker's rows: a letter per endpoint, anything else an empty cell, all rows one length.
fn parse_mzucker(text: &str, source: &str) -> Result<Puzzle> {
    let rows: Vec<(usize, Vec<char>)> = text
        .lines()
        .enumerate()
        .map(|(k, l)| (k + 1, l.trim_end().chars().collect::<Vec<char>>()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let width = rows[0].1.len();
    let mut spec = GridSpec {
        rows: rows.len(),
        cols: width,
        ..GridSpec::default()
    };
    let mut letters = Vec::new();
    for (r, (line, chars)) in rows.iter().enumerate() {
        if chars.len() != width {
            return Err(Error::parse(
                source,
                *line,
                chars.len().min(width) + 1,
                format!(
                    "row has {} cells, the first row has {width}: rows must be one length",
                    chars.len()
                ),
            ));
        }
        for (c, &ch) in chars.iter().enumerate() {
            if ch.is_ascii_alphabetic() {
                letters.push((ch, r * width + c, *line, c + 1));
            } else if !ch.is_ascii_graphic() {
                return Err(Error::parse(
                    source,
                    *line,
                    c + 1,
                    format!("unexpected {ch:?}: use a letter per endpoint and `.` for empty"),
                ));
            }
        }
    }
    spec.flows = pair_letters(&letters, source)?;
    spec.build()
        .map_err(|e| build_error(source, rows[0].0, 1, e))
}

/// One level of the app's packs with the app's own solution.
#[derive(Debug, Clone)]
pub struct PackLevel {
    pub puzzle: Puzzle,
    /// The level number as the line states it.
    pub level: usize,
    /// The app's solution: its traces, as model cells.
    pub solution: Solution,
}

/// Flow letters for pack levels, which number their colours: `A`.. then `a`..
fn pack_letter(k: usize) -> char {
    if k < 26 {
        (b'A' + k as u8) as char
    } else {
        (b'a' + (k - 26) as u8) as char
    }
}

/// `DIM,0,LEVEL,NFLOWS[,BRIDGES[,HOLES[,WALLS]]];trace;...`, found on `line` of `source`.
pub fn parse_pack_line(text: &str, source: &str, line: usize) -> Result<PackLevel> {
    let text = text.trim_end();
    let err = |offset: usize, msg: String| Error::parse(source, line, offset + 1, msg);
    // Byte offsets of each `;` part and each `,` field, for error columns.
    let mut parts = Vec::new();
    let mut at = 0;
    for part in text.split(';') {
        parts.push((at, part));
        at += part.len() + 1;
    }
    let (_, head) = parts[0];
    let mut fields = Vec::new();
    let mut at = 0;
    for f in head.split(',') {
        fields.push((at, f));
        at += f.len() + 1;
    }
    if fields.len() < 4 || fields.len() > 7 {
        return Err(err(
            0,
            "expected `DIM,0,LEVEL,NFLOWS[,BRIDGES[,HOLES[,WALLS]]]` before the first `;`".into(),
        ));
    }
    let (_, dim) = fields[0];
    let (hex, torus, rest) = if let Some(r) = dim.strip_prefix("X_") {
        (true, false, r)
    } else if let Some(r) = dim.strip_prefix("W_") {
        (false, true, r)
    } else {
        (false, false, dim)
    };
    let prefix = dim.len() - rest.len();
    let digits = |s: &str| s.chars().take_while(|c| c.is_ascii_digit()).count();
    let n1 = digits(rest);
    let (mut width_s, mut height_s) = (&rest[..n1], &rest[..n1]);
    let mut tail = &rest[n1..];
    if let Some(after) = tail.strip_prefix(':') {
        let n2 = digits(after);
        if n2 > 0 {
            (width_s, height_s) = (&rest[..n1], &after[..n2]);
            tail = &after[n2..];
        }
    }
    // Flags after the size (`+B`, `:I`, `+I`, `:B`) carry nothing the rules need.
    let mut flags = tail;
    while !flags.is_empty() {
        match ["+B", ":I", "+I", ":B"]
            .iter()
            .find(|f| flags.starts_with(**f))
        {
            Some(f) => flags = &flags[f.len()..],
            None => {
                return Err(err(
                    prefix + (rest.len() - flags.len()),
                    format!("unknown size flag {flags:?}"),
                ))
            }
        }
    }
    let bad_size = || err(0, format!("bad board size {dim:?}"));
    let cols: usize = width_s.parse().map_err(|_| bad_size())?;
    let rows: usize = height_s.parse().map_err(|_| bad_size())?;
    if cols == 0 || rows == 0 || cols * rows > 10_000 {
        return Err(bad_size());
    }
    let n = rows * cols;
    let number = |(off, s): (usize, &str), what: &str| -> Result<usize> {
        s.parse::<usize>()
            .map_err(|_| err(off, format!("{what}: {s:?} is not a number")))
    };
    let cell = |(off, s): (usize, &str), what: &str| -> Result<usize> {
        let k = number((off, s), what)?;
        if k >= n {
            return Err(err(
                off,
                format!("{what}: cell {k} lies outside the {cols}x{rows} board"),
            ));
        }
        Ok(k)
    };
    let level = number(fields[2], "level number")?;
    let nflows = number(fields[3], "number of flows")?;
    let list = |i: usize| -> Vec<(usize, &str)> {
        match fields.get(i) {
            Some(&(off, s)) if !s.is_empty() => {
                let mut out = Vec::new();
                let mut at = off;
                for item in s.split(':') {
                    out.push((at, item));
                    at += item.len() + 1;
                }
                out
            }
            _ => Vec::new(),
        }
    };
    let mut spec = GridSpec {
        rows,
        cols,
        hex,
        torus,
        ..GridSpec::default()
    };
    for item in list(4) {
        spec.bridges.push(cell(item, "bridge")?);
    }
    for (off, s) in list(5) {
        // Holes are spelt `idx`, `idx_0` or `idx_0B`; only the index matters.
        let idx = s.split('_').next().unwrap_or("");
        spec.holes.push(cell((off, idx), "hole")?);
    }
    for (off, s) in list(6) {
        let Some((a, b)) = s.split_once('|') else {
            return Err(err(off, format!("wall {s:?} is not `a|b`")));
        };
        spec.walls.push((
            cell((off, a), "wall")?,
            cell((off + a.len() + 1, b), "wall")?,
        ));
    }
    let traces: Vec<(usize, &str)> = parts[1..]
        .iter()
        .copied()
        .filter(|(_, p)| !p.is_empty())
        .collect();
    if traces.len() != nflows {
        return Err(err(
            head.len(),
            format!(
                "the line states {nflows} flows and holds {} traces",
                traces.len()
            ),
        ));
    }
    let mut cells_of = Vec::new();
    for (k, &(off, trace)) in traces.iter().enumerate() {
        let mut path = Vec::new();
        let mut at = off;
        for s in trace.split(',') {
            path.push(cell((at, s), "trace")?);
            at += s.len() + 1;
        }
        if path.len() < 2 {
            return Err(err(off, "a trace needs two endpoints".into()));
        }
        spec.flows
            .push((pack_letter(k), [path[0], path[path.len() - 1]]));
        cells_of.push((off, path));
    }
    let puzzle = spec.build().map_err(|e| build_error(source, line, 1, e))?;
    let mut paths = Vec::new();
    for (off, path) in cells_of {
        let mut out = Vec::new();
        for k in path {
            let c = puzzle
                .cell_at(k / cols, k % cols)
                .ok_or_else(|| err(off, format!("trace passes through hole {k}")))?;
            out.push(c);
        }
        paths.push(out);
    }
    if puzzle.flows.len() != nflows {
        return Err(err(0, "an endpoint lies on a hole".into()));
    }
    Ok(PackLevel {
        puzzle,
        level,
        solution: Solution { paths },
    })
}

/// Every level of a pack file, with errors naming the file's line.
pub fn parse_pack(text: &str, source: &str) -> Result<Vec<PackLevel>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(k, l)| parse_pack_line(l, source, k + 1))
        .collect()
}

/// Draws the board on the seed's lattice: `cell` gives each cell's character and `keep` says
/// which links to draw. Fails when a link has no place in the lattice (the seed format holds
/// wraps only between a row's or column's first and last cells).
pub(super) fn lattice(
    p: &Puzzle,
    cell: impl Fn(usize) -> char,
    keep: impl Fn(usize) -> bool,
) -> std::result::Result<Vec<String>, String> {
    let (h, w) = (2 * p.rows.max(1), 2 * p.cols.max(1));
    let mut grid = vec![vec![' '; w]; h];
    for (k, c) in p.cells.iter().enumerate() {
        grid[2 * c.row][2 * c.col] = cell(k);
    }
    let first_last = |k: usize, row: bool| {
        let c = p.cells[k];
        let line = p
            .cells
            .iter()
            .filter(|o| if row { o.row == c.row } else { o.col == c.col });
        let pos = |o: &super::model::Cell| if row { o.col } else { o.row };
        let here = pos(&c);
        let lo = line.clone().map(pos).min() == Some(here);
        let hi = line.map(pos).max() == Some(here);
        (lo, hi)
    };
    for (k, l) in p.links.iter().enumerate() {
        if !keep(k) {
            continue;
        }
        let (a, b) = (p.cells[l.a], p.cells[l.b]);
        let (top, bottom) = if (a.row, a.col) <= (b.row, b.col) {
            (a, b)
        } else {
            (b, a)
        };
        let (tk, bk) = if (a.row, a.col) <= (b.row, b.col) {
            (l.a, l.b)
        } else {
            (l.b, l.a)
        };
        let place = if top.row == bottom.row && bottom.col == top.col + 1 {
            Some((2 * top.row, 2 * top.col + 1, '-'))
        } else if top.col == bottom.col && bottom.row == top.row + 1 {
            Some((2 * top.row + 1, 2 * top.col, '|'))
        } else if bottom.row == top.row + 1 && bottom.col == top.col + 1 {
            Some((2 * top.row + 1, 2 * top.col + 1, '\\'))
        } else if bottom.row == top.row + 1 && bottom.col + 1 == top.col {
            Some((2 * top.row + 1, 2 * bottom.col + 1, '/'))
        } else if top.row == bottom.row && first_last(tk, true).0 && first_last(bk, true).1 {
            Some((2 * top.row, 2 * bottom.col + 1, '-'))
        } else if top.col == bottom.col && first_last(tk, false).0 && first_last(bk, false).1 {
            Some((2 * bottom.row + 1, 2 * top.col, '|'))
        } else {
            None
        };
        let Some((r, c, ch)) = place else {
            return Err(format!(
                "the link ({}, {})–({}, {}) has no place in the lattice format",
                a.row, a.col, b.row, b.col
            ));
        };
        if grid.len() <= r {
            grid.resize(r + 1, vec![' '; w]);
        }
        if grid[r].len() <= c {
            grid[r].resize(c + 1, ' ');
        }
        if grid[r][c] != ' ' && grid[r][c] != ch {
            return Err(format!(
                "two links cross at line {} column {}",
                r + 1,
                c + 1
            ));
        }
        grid[r][c] = ch;
    }
    let mut lines: Vec<String> = grid
        .into_iter()
        .map(|l| l.into_iter().collect::<String>().trim_end().to_string())
        .collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    Ok(lines)
}

/// The canonical text: the seed's lattice format. Fails for boards it cannot express
/// (more than 26 colours, lower-case letters, wraps that skip a row's end cells).
pub fn to_text(p: &Puzzle) -> std::result::Result<String, String> {
    let mut letter = vec![None; p.cells.len()];
    for (k, f) in p.flows.iter().enumerate() {
        let ch = if p.flows.iter().all(|f| f.letter.is_ascii_uppercase()) {
            f.letter
        } else if k < 26 {
            (b'A' + k as u8) as char
        } else {
            return Err("more than 26 colours do not fit the letters A-Z".into());
        };
        for &e in &f.ends {
            letter[e] = Some(ch);
        }
    }
    let body = lattice(
        p,
        |k| letter[k].unwrap_or(if p.cells[k].bridge { '*' } else { '.' }),
        |_| true,
    )?;
    let bridged = p.cells.iter().any(|c| c.bridge);
    let header = match p.variant {
        Variant::Standard if bridged => Variant::Bridges,
        v => v,
    };
    let mut out = String::from(header.keyword());
    out.push('\n');
    for l in body {
        out.push_str(&l);
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
