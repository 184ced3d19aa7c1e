//! Hashi text formats. CONTRACT (helper fills in): see the function docs.

use super::model::{Bridges, Puzzle};
use crate::error::Result;

/// Reads any supported format, detected from the text: Bridges game ID, Game ▸ Copy text,
/// seed JSON islands, seed RLE task (`{w,h,task}` JSON), `TR1:` code, janko JSON line,
/// and our canonical text. Errors name `source`, line and column.
pub fn parse(_text: &str, _source: &str) -> Result<Puzzle> {
    unimplemented!("helper")
}

/// The app's Game ▸ Copy text: the islands and the bridges drawn.
pub fn parse_copy_text(_text: &str, _source: &str) -> Result<(Puzzle, Bridges)> {
    unimplemented!("helper")
}

/// Canonical text form (round-trips through `parse`).
pub fn to_canonical(_p: &Puzzle) -> String {
    unimplemented!("helper")
}

/// The Bridges app game ID `WxHm<max>[L]:<desc>`.
pub fn to_game_id(_p: &Puzzle) -> String {
    unimplemented!("helper")
}
