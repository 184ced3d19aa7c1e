//! The game's API JSON: an object with `map` (rows joined by `\n`), `budget`, optional
//! `variant` (absent or `null` = main, otherwise as in the puzzle file); other fields are
//! ignored. Errors are the line and column within `map`.

use super::{map_rows, parse_rows, parse_variant};
use crate::error::{Error, Result};
use crate::games::enclose::model::{Level, Variant};

pub(super) fn parse_json(text: &str, source: &str, variant: Option<Variant>) -> Result<Level> {
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
