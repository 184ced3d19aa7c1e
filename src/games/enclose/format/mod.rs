//! Text formats for enclose.horse levels: our puzzle file (`canonical`, the canonical text)
//! and the game's API JSON (`json`), a file each; this one holds the map text both carry and
//! [`parse`], which takes either form (a leading `{` means JSON).
//!
//! **Map text** (the game's own): one line per row, all rows the same length.
//! `.` grass, `~` water, `H` horse (exactly one), `C` cherry (+3), `G` golden apple (+10),
//! `S` bees (−5), `U` unicorn (bonus rounds `lovebirds` and `quarrel`, exactly one there),
//! `W` a wall already placed (it counts against the budget and stays), `0-9` `a-z` portals
//! (each character on exactly two tiles; stepping on one leads to the other). Every tile
//! inside the pen scores 1 on top of its bonus. Errors name the line and column.

mod canonical;
mod json;

use super::model::{Level, Tile, Variant};
use crate::error::{Error, Result};
use crate::games::Format;
use crate::solving::check_size;
use canonical::parse_file;
use json::parse_json;

pub use canonical::to_canonical;
pub use json::to_json;

/// Parses a puzzle file or the API's JSON. `variant` (when given) overrides the text's own.
pub fn parse(text: &str, source: &str, variant: Option<Variant>) -> Result<Level> {
    if text.trim_start().starts_with('{') {
        parse_json(text, source, variant)
    } else {
        parse_file(text, source, variant)
    }
}

/// Parses a variant name as the header and the API spell it.
pub fn parse_variant(name: &str, source: &str, line: usize, col: usize) -> Result<Variant> {
    Variant::from_name(name.trim()).ok_or_else(|| {
        Error::parse(
            source,
            line,
            col,
            format!(
                "unknown variant {name:?} (use main, lovebirds, costlywalls, quarrel or lovers_quarrel)"
            ),
        )
    })
}

/// Parses bare map rows (no header) with the budget and round given separately.
pub fn parse_map(text: &str, source: &str, budget: u32, variant: Variant) -> Result<Level> {
    let rows: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let end = rows
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |p| p + 1);
    parse_rows(&rows[..end], 1, source, budget, variant)
}

fn parse_rows(
    rows: &[&str],
    first_line: usize,
    source: &str,
    budget: u32,
    variant: Variant,
) -> Result<Level> {
    let Some(first) = rows.first() else {
        return Err(Error::parse(source, first_line, 1, "no map rows"));
    };
    let cols = first.chars().count();
    check_size(rows.len(), cols, source, first_line, 1)?;
    let mut tiles = Vec::with_capacity(rows.len() * cols);
    let mut horse: Option<(usize, usize)> = None;
    let mut unicorn: Option<(usize, usize)> = None;
    let mut portals: Vec<Vec<(usize, usize)>> = vec![Vec::new(); 36];
    for (r, row) in rows.iter().enumerate() {
        let line = first_line + r;
        let len = row.chars().count();
        if len != cols {
            return Err(Error::parse(
                source,
                line,
                len.min(cols) + 1,
                format!("ragged map: this row has {len} tiles, the first row {cols}"),
            ));
        }
        for (c, ch) in row.chars().enumerate() {
            let tile = Tile::from_char(ch).ok_or_else(|| {
                Error::parse(
                    source,
                    line,
                    c + 1,
                    format!("unknown map character {ch:?} (expected one of .~HCGSUW, 0-9, a-z)"),
                )
            })?;
            match tile {
                Tile::Horse => {
                    if let Some((l, k)) = horse {
                        return Err(Error::parse(
                            source,
                            line,
                            c + 1,
                            format!("a second horse (the first is at line {l}, column {k})"),
                        ));
                    }
                    horse = Some((line, c + 1));
                }
                Tile::Unicorn => {
                    if !variant.has_unicorn() {
                        return Err(Error::parse(
                            source,
                            line,
                            c + 1,
                            format!("a unicorn on a {variant} level (only lovebirds and quarrel have one)"),
                        ));
                    }
                    if let Some((l, k)) = unicorn {
                        return Err(Error::parse(
                            source,
                            line,
                            c + 1,
                            format!("a second unicorn (the first is at line {l}, column {k}); a {variant} map has exactly one"),
                        ));
                    }
                    unicorn = Some((line, c + 1));
                }
                Tile::Portal(p) => portals[p as usize].push((line, c + 1)),
                _ => {}
            }
            tiles.push(tile);
        }
    }
    if horse.is_none() {
        return Err(Error::parse(
            source,
            first_line,
            1,
            "no horse `H` on the map",
        ));
    }
    if variant.has_unicorn() && unicorn.is_none() {
        return Err(Error::parse(
            source,
            first_line,
            1,
            format!("no unicorn `U` on the map: a {variant} map has exactly one"),
        ));
    }
    for (p, at) in portals.iter().enumerate() {
        if !at.is_empty() && at.len() != 2 {
            let ch = Tile::Portal(p as u8).to_char();
            let (l, k) = at[if at.len() == 1 { 0 } else { 2 }];
            return Err(Error::parse(
                source,
                l,
                k,
                format!(
                    "portal {ch:?} is used {} times; each portal character pairs exactly two tiles",
                    at.len()
                ),
            ));
        }
    }
    let level = Level {
        rows: rows.len(),
        cols,
        tiles,
        budget,
        variant,
    };
    if level.preplaced_walls() > budget {
        return Err(Error::parse(
            source,
            first_line,
            1,
            format!(
                "{} walls already on the map exceed the budget {budget}",
                level.preplaced_walls()
            ),
        ));
    }
    Ok(level)
}

/// The map rows, one string per row.
pub fn map_rows(level: &Level) -> Vec<String> {
    level
        .tiles
        .chunks(level.cols)
        .map(|row| row.iter().map(|t| t.to_char()).collect())
        .collect()
}

/// What `scan --to` writes: our puzzle file first (the default), then the API's JSON.
pub const FORMATS: &[Format] = &[
    Format {
        name: "enclose",
        extension: "enclose",
        about: "the puzzle file: budget and variant lines, then the map text",
    },
    Format {
        name: "json",
        extension: "json",
        about: "the game's API JSON (map, budget, variant)",
    },
];

/// The level in one of [`FORMATS`]; every level has a form in each.
pub fn write(level: &Level, format: &Format) -> Result<String> {
    match format.name {
        "enclose" => Ok(to_canonical(level)),
        "json" => Ok(to_json(level)),
        other => Err(Error::Usage(format!("enclose writes no {other} format"))),
    }
}

#[cfg(test)]
mod tests;
