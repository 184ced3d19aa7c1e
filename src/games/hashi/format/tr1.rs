//! The web game's `TR1:<w>x<h>:<RLE>` code, sizes in base 36.

use super::game_id::{decode_rle, parse_dims};
use super::islands::{build, Header};
use crate::error::{Error, Result};
use crate::games::hashi::model::Puzzle;

/// The web game's `TR1:<w>x<h>:<RLE>`, sizes in base 36.
pub(super) fn parse_tr1(rest: &str, source: &str) -> Result<Puzzle> {
    let (dims, desc) = rest
        .split_once(':')
        .ok_or_else(|| Error::parse(source, 1, 5, "TR1 code needs `<w>x<h>:<cells>`"))?;
    let (width, height) = parse_dims(dims, 36, 5, source)?;
    let raws = decode_rle(desc.trim(), width, height, 5 + dims.len() + 1, source)?;
    build(Header::size_only(width, height), raws, source)
}
