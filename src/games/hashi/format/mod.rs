//! Hashi text formats: the Bridges app's game ID and Copy text, the seed's JSON forms, the web
//! game's `TR1:` code, janko/puzzlekit and `bridges.jsonl` records, and our canonical text.
//!
//! A file per format (the JSON forms share one reader, told apart by their fields); this one
//! detects the format and hands the text to its reader.

mod canonical;
mod copy_text;
mod game_id;
mod islands;
mod janko;
mod json;
mod solution;
mod tr1;

use super::model::Puzzle;
use crate::error::{Error, Result};
use crate::games::Format;
use canonical::parse_canonical;
use game_id::{is_game_id, parse_game_id};
use janko::{is_janko_header, parse_janko_problem};
use json::parse_json;
use tr1::parse_tr1;

pub use canonical::to_canonical;
pub use copy_text::parse_copy_text;
pub use game_id::to_game_id;
pub use janko::to_janko;
pub use solution::{bridges_from_json, CellOrder};

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

/// What `scan --to` writes: our canonical text first (the default), then the two a user pastes
/// elsewhere.
pub const FORMATS: &[Format] = &[
    Format {
        name: "hashi",
        extension: "hashi",
        about: "the canonical text",
    },
    Format {
        name: "id",
        extension: "txt",
        about: "the Bridges game ID, for the app's Game > Specific",
    },
    Format {
        name: "janko",
        extension: "json",
        about: "a janko / puzzlekit JSON line",
    },
];

/// The puzzle in one of [`FORMATS`]; every Hashi puzzle has a form in each.
pub fn write(p: &Puzzle, format: &Format) -> Result<String> {
    match format.name {
        "hashi" => Ok(to_canonical(p)),
        "id" => Ok(to_game_id(p) + "\n"),
        "janko" => Ok(to_janko(p)),
        other => Err(Error::Usage(format!("hashi writes no {other} format"))),
    }
}

#[cfg(test)]
mod tests;
