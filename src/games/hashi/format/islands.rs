//! What every reader hands on: the islands as read, each with the text position to blame,
//! and the rules its format states; [`build`] checks and orders them into a [`Puzzle`].

use crate::error::{Error, Result};
use crate::games::hashi::model::{Cell, Island, Puzzle};
use crate::solving::check_size;

/// Island numbers are written as one character, `Z` = 35 at most, so 4 × max must stay below.
pub(super) const MAX_BRIDGES: u8 = 8;

/// An island as read, with the text position to blame if it is invalid.
pub(super) struct Raw {
    pub(super) row: usize,
    pub(super) col: usize,
    pub(super) target: u32,
    pub(super) line: usize,
    pub(super) column: usize,
}

/// What a format states about the rules; `None` max means "2 unless a number needs more".
pub(super) struct Header {
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) max: Option<u8>,
    pub(super) allow_loops: bool,
}

impl Header {
    /// A format that states only the grid's size: 2 bridges a pair unless a number needs more,
    /// loops allowed.
    pub(super) fn size_only(width: usize, height: usize) -> Header {
        Header {
            cols: width,
            rows: height,
            max: None,
            allow_loops: true,
        }
    }
}

/// Checks and orders the islands; positions in `raws` are blamed for the first problem found.
pub(super) fn build(h: Header, raws: Vec<Raw>, source: &str) -> Result<Puzzle> {
    if h.cols == 0 || h.rows == 0 {
        return Err(Error::parse(
            source,
            1,
            1,
            "width and height must be at least 1",
        ));
    }
    check_size(h.rows, h.cols, source, 1, 1)?;
    let Some(first) = raws.first() else {
        return Err(Error::parse(source, 1, 1, "no islands"));
    };
    let (first_line, first_col) = (first.line, first.column);
    let top = raws.iter().map(|r| r.target).max().unwrap_or(0);
    let max = match h.max {
        Some(m) => m,
        None => top.div_ceil(4).clamp(2, MAX_BRIDGES as u32) as u8,
    };
    if !(1..=MAX_BRIDGES).contains(&max) {
        return Err(Error::parse(
            source,
            first_line,
            first_col,
            format!("max bridges must be 1..={MAX_BRIDGES}"),
        ));
    }
    let mut seen = vec![false; h.cols * h.rows];
    let mut islands = Vec::with_capacity(raws.len());
    for r in &raws {
        if r.row >= h.rows || r.col >= h.cols {
            return Err(Error::parse(
                source,
                r.line,
                r.column,
                format!(
                    "island at row {} col {} lies outside the {}x{} grid",
                    r.row, r.col, h.cols, h.rows
                ),
            ));
        }
        if r.target == 0 || r.target > 4 * max as u32 {
            return Err(Error::parse(
                source,
                r.line,
                r.column,
                format!(
                    "island target {} must be 1..={} with at most {} bridges per pair",
                    r.target,
                    4 * max as u32,
                    max
                ),
            ));
        }
        let k = r.row * h.cols + r.col;
        if std::mem::replace(&mut seen[k], true) {
            return Err(Error::parse(
                source,
                r.line,
                r.column,
                format!("two islands at row {} col {}", r.row, r.col),
            ));
        }
        islands.push(Island {
            at: Cell {
                row: r.row,
                col: r.col,
            },
            target: r.target as u8,
        });
    }
    islands.sort_by_key(|i| i.at);
    Ok(Puzzle {
        cols: h.cols,
        rows: h.rows,
        max_bridges: max,
        allow_loops: h.allow_loops,
        islands,
    })
}
