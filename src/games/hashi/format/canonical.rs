//! Our canonical text: a header line `hashi <W>x<H> max=<M>` (plus ` noloops` for the `L`
//! rule), then H rows of W characters: `.` for an empty cell, a digit or a letter (`A` = 10)
//! per island.

use super::game_id::parse_dims;
use super::islands::{build, Header, Raw};
use crate::error::{Error, Result};
use crate::games::hashi::model::Puzzle;

pub(super) fn parse_canonical(text: &str, source: &str) -> Result<Puzzle> {
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
            cols: width,
            rows: height,
            max: Some(max.unwrap_or(2)),
            allow_loops,
        },
        raws,
        source,
    )
}

/// Canonical text form (round-trips through `parse`).
pub fn to_canonical(p: &Puzzle) -> String {
    let mut s = format!("hashi {}x{} max={}", p.cols, p.rows, p.max_bridges);
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
