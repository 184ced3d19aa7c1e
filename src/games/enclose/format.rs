//! Text formats for enclose.horse levels.
//!
//! **Map text** (the game's own): one line per row, all rows the same length.
//! `.` grass, `~` water, `H` horse (exactly one), `C` cherry (+3), `G` golden apple (+10),
//! `S` bees (−5), `U` unicorn (bonus rounds `lovebirds` and `quarrel`, exactly one there),
//! `W` a wall already placed (it counts against the budget and stays), `0-9` `a-z` portals
//! (each character on exactly two tiles; stepping on one leads to the other). Every tile
//! inside the pen scores 1 on top of its bonus.
//!
//! **Puzzle file** (ours): a few `key: value` header lines, then the map rows.
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
//!
//! **Game API JSON**: an object with `map` (rows joined by `\n`), `budget`, optional
//! `variant` (absent or `null` = main, otherwise as above); other fields are ignored.
//! [`parse`] takes either form (a leading `{` means JSON). Errors name the line and column;
//! inside JSON they are the line and column within `map`.

use super::model::{Level, Tile, Variant};
use crate::error::{Error, Result};
use crate::games::Format;
use crate::solving::check_size;

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

fn parse_file(text: &str, source: &str, variant: Option<Variant>) -> Result<Level> {
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

fn parse_json(text: &str, source: &str, variant: Option<Variant>) -> Result<Level> {
    let v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| Error::parse(source, e.line(), e.column(), format!("bad JSON: {e}")))?;
    let map = v
        .get("map")
        .and_then(|m| m.as_str())
        .ok_or_else(|| Error::parse(source, 1, 1, "JSON has no string field `map`"))?;
    let budget = match v.get("budget") {
        Some(b) => b
            .as_u64()
            .and_then(|b| u32::try_from(b).ok())
            .ok_or_else(|| {
                Error::parse(
                    source,
                    1,
                    1,
                    format!("JSON `budget` {b} is not a whole number"),
                )
            })?,
        None => {
            return Err(Error::parse(
                source,
                1,
                1,
                "budget missing: the JSON has no `budget`",
            ))
        }
    };
    let json_variant = match v.get("variant") {
        None | Some(serde_json::Value::Null) => Variant::Main,
        Some(serde_json::Value::String(s)) => parse_variant(s, source, 1, 1)?,
        Some(other) => {
            return Err(Error::parse(
                source,
                1,
                1,
                format!("JSON `variant` {other} is not a string"),
            ))
        }
    };
    let rows: Vec<&str> = map.lines().map(|l| l.trim_end_matches('\r')).collect();
    let end = rows
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(0, |p| p + 1);
    parse_rows(
        &rows[..end],
        1,
        &format!("{source} (map)"),
        budget,
        variant.unwrap_or(json_variant),
    )
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

/// The game's API JSON: `map`, `budget` and `variant` as the API spells it (`null` for the
/// main level, `lovers_quarrel` for the quarrel round), so the page's own code reads it too.
pub fn to_json(level: &Level) -> String {
    let variant = match level.variant {
        Variant::Main => serde_json::Value::Null,
        Variant::Quarrel => "lovers_quarrel".into(),
        v => v.name().into(),
    };
    let map = serde_json::Value::String(map_rows(level).join("\n"));
    format!(
        "{{\"map\": {map}, \"budget\": {}, \"variant\": {variant}}}\n",
        level.budget
    )
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
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse(text, "t", None).unwrap_err().to_string()
    }

    #[test]
    fn round_trip() {
        let text = "budget: 3\nvariant: lovebirds\n~~~~\n~HU~\n~.0~\n~0.~\n";
        let level = parse(text, "t", None).unwrap();
        assert_eq!((level.rows, level.cols, level.budget), (4, 4, 3));
        assert_eq!(level.variant, Variant::Lovebirds);
        assert_eq!(to_canonical(&level), text);
        let main = parse(text, "t", Some(Variant::Quarrel)).unwrap();
        assert_eq!(main.variant, Variant::Quarrel);
    }

    #[test]
    fn api_json() {
        let j = r#"{"id":"x","map":"~~~\n~H~\n~.~","budget":2,"variant":null,"optimalScore":5}"#;
        let level = parse(j, "t", None).unwrap();
        assert_eq!(
            (level.rows, level.budget, level.variant),
            (3, 2, Variant::Main)
        );
        let j = r#"{"map":"~~~\n~H~\n~U~","budget":2,"variant":"lovers_quarrel"}"#;
        assert_eq!(parse(j, "t", None).unwrap().variant, Variant::Quarrel);
        assert!(err(r#"{"map":"~~~\n~H~\nx~~","budget":2}"#).contains("t (map):3:1"));
        assert!(err(r#"{"map":"~H~"}"#).contains("budget missing"));
    }

    #[test]
    fn api_json_spells_the_variant_the_apis_way() {
        let text = "budget: 3\nvariant: quarrel\n~~~~\n~HU~\n~.0~\n~0.~\n";
        let level = parse(text, "t", None).unwrap();
        let json = to_json(&level);
        assert_eq!(
            json,
            "{\"map\": \"~~~~\\n~HU~\\n~.0~\\n~0.~\", \"budget\": 3, \"variant\": \"lovers_quarrel\"}\n"
        );
        assert_eq!(parse(&json, "t", None).unwrap(), level);
        let main = parse("budget: 1\n.H.\n", "t", None).unwrap();
        assert!(to_json(&main).contains("\"variant\": null"));
    }

    /// Every corpus level: the levels file, and the pictured levels' maps with their budgets.
    fn corpus_levels() -> Vec<(String, Level)> {
        let mut out = Vec::new();
        for rel in [
            "enclose/levels.jsonl",
            "enclose/app-screens/index.jsonl",
            "enclose/screenshots/index.jsonl",
        ] {
            let Some(path) = crate::corpus::path(rel) else {
                continue;
            };
            let text = std::fs::read_to_string(path).unwrap();
            for (k, line) in text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
            {
                let name = format!("{rel}:{}", k + 1);
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                let record = v.get("level").unwrap_or(&v);
                let rows = record.get("map_rows").and_then(|m| m.as_array());
                let json = match rows {
                    _ if record.get("map").is_some() => line.to_string(),
                    // The pictures' records keep the map as rows; some know neither the map
                    // nor its budget, and a map alone is no puzzle.
                    Some(rows) if record["budget"].is_u64() => {
                        let rows: Vec<&str> = rows.iter().filter_map(|r| r.as_str()).collect();
                        serde_json::json!({
                            "map": rows.join("\n"),
                            "budget": record["budget"],
                            "variant": record.get("variant"),
                        })
                        .to_string()
                    }
                    _ => continue,
                };
                out.push((name.clone(), parse(&json, &name, None).unwrap()));
            }
        }
        out
    }

    /// The bar of `scan --to`: each format reads back as the very level it was written from.
    #[test]
    fn every_corpus_level_round_trips_through_every_format() {
        let levels = corpus_levels();
        let read = |t: &str| parse(t, "rt", None);
        crate::games::assert_round_trips("enclose", FORMATS, (&levels, 245), write, read);
    }

    #[test]
    fn errors_have_positions() {
        assert_eq!(
            err("budget: 1\n...\n.H\n"),
            "t:3:3: ragged map: this row has 2 tiles, the first row 3"
        );
        assert!(err("budget: 1\n...\n...\n").starts_with("t:2:1: no horse"));
        assert!(err("budget: 1\n.H.\n.H.\n").starts_with("t:3:2: a second horse"));
        assert!(err("budget: 1\n.H1\n...\n").starts_with("t:2:3: portal '1' is used 1 times"));
        assert!(err("budget: 1\n1H1\n..1\n").starts_with("t:3:3: portal '1' is used 3 times"));
        assert!(err("~H~\n").starts_with("t:1:1: budget missing"));
        assert!(err("budget: x\n.H.\n").starts_with("t:1:9: budget"));
        assert!(err("budget: 1\nvariant: chess\n.H.\n").starts_with("t:2:10: unknown variant"));
        assert!(err("budget: 1\n.HU\n").starts_with("t:2:3: a unicorn on a main level"));
        assert!(err("budget: 1\nvariant: quarrel\n.H.\n").contains("no unicorn"));
        assert!(err("budget: 1\nvariant: lovebirds\nUHU\n").starts_with("t:3:3: a second unicorn"));
        assert!(err("budget: 1\n.H?\n").starts_with("t:2:3: unknown map character"));
        assert!(err("budget: 1\ncolour: red\n.H.\n").starts_with("t:2:1: unknown header key"));
    }
}
