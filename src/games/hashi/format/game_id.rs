//! The Bridges app's game ID, `WxHm<max>[L]:<desc>` (or the full params form), and the
//! run-length form of its description that the `TR1:` code and the seed's task share.

use super::islands::{build, Header, Raw, MAX_BRIDGES};
use crate::error::{Error, Result};
use crate::games::hashi::model::{target_char, Cell, Puzzle};

/// `7x7m2:...` or a full params string such as `7x7i30e10m2d0:...` before the colon.
pub(super) fn is_game_id(line: &str) -> bool {
    let Some((params, _)) = line.split_once(':') else {
        return false;
    };
    let mut chars = params.chars();
    chars.next().is_some_and(|c| c.is_ascii_digit())
        && params.contains('x')
        && params.chars().all(|c| c.is_ascii_alphanumeric())
}

pub(super) fn parse_dims(
    s: &str,
    radix: u32,
    column: usize,
    source: &str,
) -> Result<(usize, usize)> {
    let bad = || Error::parse(source, 1, column, format!("bad grid size {s:?}"));
    let (w, h) = s.split_once('x').ok_or_else(bad)?;
    let w = usize::from_str_radix(w, radix).map_err(|_| bad())?;
    let h = usize::from_str_radix(h, radix).map_err(|_| bad())?;
    Ok((w, h))
}

/// Decodes the shared run-length form: a digit or capital letter (`A` = 10) is an island, a
/// lower-case letter a run of 1..=26 empty cells. `column0` is where `desc` starts on line 1.
pub(super) fn decode_rle(
    desc: &str,
    w: usize,
    h: usize,
    column0: usize,
    source: &str,
) -> Result<Vec<Raw>> {
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

/// `WxHm<max>[L]:<desc>`; the full params form (`i30e10`, `d2`) is accepted too.
pub(super) fn parse_game_id(line: &str, source: &str) -> Result<Puzzle> {
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
            cols: width,
            rows: height,
            max: Some(max),
            allow_loops,
        },
        raws,
        source,
    )
}

/// The Bridges app game ID `WxHm<max>[L]:<desc>`.
pub fn to_game_id(p: &Puzzle) -> String {
    let mut s = format!(
        "{}x{}m{}{}:",
        p.cols,
        p.rows,
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
    for r in 0..p.rows {
        for c in 0..p.cols {
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
