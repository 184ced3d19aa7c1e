//! Flow Free text formats, detected from the text: the seed's lattice format (first line
//! `STANDARD|BRIDGES|HEX|WARPS`, also our canonical text), mzucker's square rows, and one line
//! of the app's level packs. Errors name the source, line and column.

mod mzucker;
mod pack;

use super::model::{lattice, Axis, BuildError, Builder, Puzzle, Variant};
use crate::error::{Error, Result};
use crate::games::Format;
use crate::solving::check_size;
use mzucker::{parse_mzucker, to_mzucker};
use pack::{is_pack_line, to_pack_line};
use std::collections::BTreeMap;

pub use pack::{parse_pack, parse_pack_line, PackLevel};

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

/// What `scan --to` writes: the seed format first (our canonical text, the default), then
/// mzucker's rows and the app's level-pack line.
pub const FORMATS: &[Format] = &[
    Format {
        name: "flow",
        extension: "flow",
        about: "the seed format, the canonical text",
    },
    Format {
        name: "mzucker",
        extension: "txt",
        about: "mzucker's rows, plain rectangles only",
    },
    Format {
        name: "pack",
        extension: "txt",
        about: "one line of the app's level packs",
    },
];

/// The board in one of [`FORMATS`], or a usage error naming what that format cannot hold.
pub fn write(p: &Puzzle, format: &Format) -> Result<String> {
    let text = match format.name {
        "flow" => to_text(p),
        "mzucker" => to_mzucker(p),
        "pack" => to_pack_line(p),
        other => return Err(Error::Usage(format!("flow writes no {other} format"))),
    };
    text.map_err(|why| {
        Error::Usage(format!(
            "flow: this board has no {} form: {why}",
            format.name
        ))
    })
}

#[cfg(test)]
mod tests;
