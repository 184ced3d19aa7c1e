//! Reading a Hashi board off a picture. CONTRACT (helper fills in).

use super::model::{Bridges, Puzzle};
use crate::error::Result;
use crate::screen::PixelPoint;
use image::RgbaImage;

/// Which app drew the board: it decides how moves are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// Simon Tatham's Bridges: drag from island to island.
    Sgt,
    /// The web Hashi game: click an island, then its neighbour.
    Web,
}

/// Where the grid sits in the image.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Geometry {
    /// Centre of cell (row 0, col 0) in image pixels.
    pub origin: PixelPoint,
    /// Distance between neighbouring cell centres, in image pixels.
    pub pitch: f64,
    /// The board area in image pixels (x, y, w, h): every planned point must fall inside.
    pub board: (f64, f64, f64, f64),
}

impl Geometry {
    pub fn centre(&self, row: usize, col: usize) -> PixelPoint {
        PixelPoint {
            x: self.origin.x + col as f64 * self.pitch,
            y: self.origin.y + row as f64 * self.pitch,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Reading {
    pub puzzle: Puzzle,
    /// Bridges already drawn on the board.
    pub bridges: Bridges,
    pub geometry: Geometry,
    pub style: Style,
    /// 0..1; a reading below the threshold is an error, not a Reading.
    pub confidence: f64,
}

pub fn recognize(_img: &RgbaImage) -> Result<Reading> {
    unimplemented!("helper")
}
