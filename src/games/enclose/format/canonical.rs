//! Our puzzle file, the canonical text: a few `key: value` header lines, then the map rows.
//!
//! ```text
//! # anything after '#' on a header line is a comment
//! budget: 12
//! variant: lovebirds
//! ~~..~~~.~~~~
//! ~C.C..U....~
//! ...
//! ```
//!
//! * `budget` (required): the number of walls allowed, pre-placed `W` included.
//! * `variant` (optional, default `main`): `main`, `lovebirds`, `costlywalls`, `quarrel`
//!   (`lovers_quarrel` is read as `quarrel`).
//! * Unknown keys are an error (so a typo does not silently change the puzzle). Blank lines
//!   before the map and after it are ignored; the map ends at the last non-blank line.
//!
//! The canonical file ([`to_canonical`]) is `budget: N`, then `variant: V` unless the round is
//! `main`, then the rows, each line ending in `\n`.

use super::{map_rows, parse_rows, parse_variant};
use crate::error::{Error, Result};
use crate::games::enclose::model::{Level, Variant};

pub(super) fn parse_file(text: &str, source: &str, variant: Option<Variant>) -> Result<Level> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let mut budget = None;
    let mut file_variant = Variant::Main;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            i += 1;
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            break;
        };
        let value = value.split('#').next().unwrap_or("").trim();
        let vcol = line.len() - line[key.len() + 1..].trim_start().len() + 1;
        match key.trim() {
            "budget" => {
                budget = Some(value.parse::<u32>().map_err(|_| {
                    Error::parse(
                        source,
                        i + 1,
                        vcol,
                        format!("budget {value:?} is not a whole number"),
                    )
                })?)
            }
            "variant" => file_variant = parse_variant(value, source, i + 1, vcol)?,
            k => {
                return Err(Error::parse(
                    source,
                    i + 1,
                    1,
                    format!("unknown header key {k:?} (expected budget or variant)"),
                ))
            }
        }
        i += 1;
    }
    let first_map_line = i + 1;
    let map_lines: Vec<&str> = lines[i..].to_vec();
    let end = map_lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |p| p + 1);
    let budget = budget.ok_or_else(|| {
        Error::parse(
            source,
            1,
            1,
            "budget missing: add a header line `budget: N` before the map",
        )
    })?;
    parse_rows(
        &map_lines[..end],
        first_map_line,
        source,
        budget,
        variant.unwrap_or(file_variant),
    )
}

/// The canonical puzzle file (see the module doc).
pub fn to_canonical(level: &Level) -> String {
    let mut s = format!("budget: {}\n", level.budget);
    if level.variant != Variant::Main {
        s.push_str(&format!("variant: {}\n", level.variant));
    }
    for row in map_rows(level) {
        s.push_str(&row);
        s.push('\n');
    }
    s
}
