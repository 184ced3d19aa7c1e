//! Reading a Flow Free board off a picture: the phone apps (Android, iPhone), the Windows app
//! and the web clone, anywhere in a full-screen capture, at any cell size.
//!
//! The steps, in order: find the board as the largest web of thin bright grid lines that makes
//! a lattice of square cells, and which cells it outlines (`board`); find the endpoint discs at
//! cell centres (`discs`); pair them by colour within the picture (`pairing`); read the pipes
//! already drawn between neighbouring cells and chain them from their endpoints (`pipes`);
//! every other cell must be bare or a pipe's, nothing left unexplained (`explained`).
//! When no square lattice is found, a hex one is looked for (`hex`); the later steps work on
//! either through the cells' places and neighbours (`sites`).
//! Every call along the way is scored, and the weakest one is the reading's confidence
//! (`confidence`); a reading under [`MIN_CONFIDENCE`] is refused naming that call.

mod board;
mod confidence;
mod discs;
mod explained;
pub(super) mod hex;
mod pairing;
mod pipes;
mod seam;
mod sites;
pub mod truth;

use super::model::{GridSpec, Puzzle};
use crate::error::{Error, Result};
use crate::screen::PixelPoint;
use crate::vision::geometry::Geometry;
use confidence::Weakest;
use image::RgbaImage;
use sites::Sites;

pub use crate::vision::color::Colour;
pub use crate::vision::sample::hex as sample_hex;

/// Below this confidence a reading is refused, and play must not act on one. Each call is
/// scored 0 at its decision line and 1 where it is plain (a grid edge 35% drawn or 0%/70%; a
/// ring 11.5 of 16 alike or 8.5/14.5; two discs half the way to a third one in colour or a
/// tenth), so 0.4 asks every call to be well clear of its line.
pub const MIN_CONFIDENCE: f64 = 0.4;

/// A pipe on the board: its flow (index into `puzzle.flows`) and the cells it passes, as
/// indices into `puzzle.cells`, from one of the flow's endpoints. A pipe joining both
/// endpoints starts at `ends[0]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawnPipe {
    pub flow: usize,
    pub cells: Vec<usize>,
}

/// What a picture of a Flow board shows.
#[derive(Debug, Clone)]
pub struct Reading {
    /// The board: its cells (holes left out), their links and the endpoint pairs. Flows are
    /// lettered A, B, … in the order their first endpoint comes in row-major order.
    pub puzzle: Puzzle,
    /// The lattice in image pixels; `geometry.centre(row, col)` is a cell's centre.
    pub geometry: Geometry,
    /// Each cell's centre in image pixels, by index into `puzzle.cells`.
    pub centres: Vec<PixelPoint>,
    /// Each flow's colour as the picture shows it, by index into `puzzle.flows`.
    pub colours: Vec<Colour>,
    /// The pipes already drawn.
    pub drawn: Vec<DrawnPipe>,
    /// 0..1: the least sure call behind the reading; never under [`MIN_CONFIDENCE`].
    pub confidence: f64,
}

/// Reads the Flow board in a picture, or says what failed and where.
pub fn read(img: &RgbaImage) -> Result<Reading> {
    let lines = board::Lines::of(img);
    let mut weakest = Weakest::new();
    let (sites, geometry, hex) = match board::find_in(img, &lines, &mut weakest) {
        Ok(square) => (Sites::of_square(&square), square.geometry, false),
        Err(square) => {
            // A hex board has no square lattice; its own reasons are given only when its
            // lattice is there, so other pictures are refused as before.
            weakest = Weakest::new();
            match hex::find_in(&lines, &mut weakest)? {
                Some(hex) => (Sites::of_hex(&hex), hex.geometry, true),
                None => return Err(square),
            }
        }
    };
    let (looks, discs) = discs::find(img, &sites, &mut weakest);
    let board_region = geometry.board.to_pixels();
    if discs.len() < 4 {
        return Err(Error::vision(
            Some(board_region),
            format!(
                "no Flow board: {} endpoint disc(s) on the {}×{} grid, a board has two pairs or more",
                discs.len(),
                sites.cols,
                sites.rows
            ),
        ));
    }
    // Before pairing: a pipe going on into a cell with no disc read explains a lost endpoint
    // better than its partner's pairing does.
    let found = pipes::find(img, &sites, &looks);
    let mut disc_at = vec![false; sites.rows * sites.cols];
    for d in &discs {
        disc_at[d.row * sites.cols + d.col] = true;
    }
    explained::check(img, &sites, &looks, &disc_at, &found, &mut weakest)?;
    let pairs = pairing::pair(&discs, |d| sites.region(d.row, d.col), &mut weakest)?;
    if pairs.len() > 26 {
        return Err(Error::vision(
            Some(board_region),
            format!("{} colours: more than the letters A-Z", pairs.len()),
        ));
    }
    let cols = sites.cols;
    let spec = GridSpec {
        rows: sites.rows,
        cols,
        holes: (0..sites.rows * cols)
            .filter(|&k| !sites.present[k])
            .collect(),
        flows: pairs
            .iter()
            .enumerate()
            .map(|(k, &[i, j])| {
                let idx = |d: &discs::Disc| d.row * cols + d.col;
                ((b'A' + k as u8) as char, [idx(&discs[i]), idx(&discs[j])])
            })
            .collect(),
        hex,
        ..GridSpec::default()
    };
    let puzzle = spec.build().map_err(|e| {
        Error::vision(
            Some(board_region),
            format!("the board read is no puzzle: {e}"),
        )
    })?;
    let colours: Vec<Colour> = pairs
        .iter()
        .map(|&[i, j]| std::array::from_fn(|ch| (discs[i].colour[ch] + discs[j].colour[ch]) / 2.0))
        .collect();
    let ends: Vec<[[usize; 2]; 2]> = pairs
        .iter()
        .map(|&[i, j]| [[discs[i].row, discs[i].col], [discs[j].row, discs[j].col]])
        .collect();
    let bars = pipes::tag(&found, &sites, &colours, &mut weakest)?;
    let drawn = pipes::paths(&bars, &ends, &sites)?
        .into_iter()
        .map(|(flow, cells)| DrawnPipe {
            flow,
            cells: cells
                .iter()
                .map(|&[r, c]| puzzle.cell_at(r, c).expect("pipes join board cells"))
                .collect(),
        })
        .collect();
    weakest.check(MIN_CONFIDENCE)?;
    let centres = puzzle
        .cells
        .iter()
        .map(|c| sites.centre(c.row, c.col))
        .collect();
    Ok(Reading {
        puzzle,
        geometry,
        centres,
        colours,
        drawn,
        confidence: weakest.confidence(),
    })
}

impl Reading {
    /// A letter per endpoint, `.` for other cells and `#` for holes, row by row.
    pub fn rows(&self) -> Vec<String> {
        let p = &self.puzzle;
        (0..p.rows)
            .map(|r| {
                (0..p.cols)
                    .map(|c| match p.cell_at(r, c) {
                        None => '#',
                        Some(k) => p.flow_at(k).map_or('.', |f| p.flows[f].letter),
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
