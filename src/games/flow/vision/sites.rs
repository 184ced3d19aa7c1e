//! The cells of a board found, square or hex, as the disc and pipe steps need them: where
//! each sits, which are on the board, which neighbour which, and where a cell's own
//! background shows. Those steps then never ask which lattice they are on.

use super::board::Board;
use super::hex::HexBoard;
use crate::error::Region;
use crate::screen::PixelPoint;

/// Background samples of a square cell, in pitches from its centre: its four corners, past
/// the disc and any pipe, inside the grid lines.
const SQUARE_GROUND: f64 = 0.36;
/// Background samples of a hex cell, in pitches from its centre towards its six corners:
/// past the disc (0.33), a tenth of a pitch inside the edges, and halfway between the
/// directions pipes leave in.
const HEX_GROUND: f64 = 0.46;
/// The disc ring's radius, in pitches: inside every disc seen (0.33 to 0.37), outside every
/// pipe (0.13).
const SQUARE_RING: f64 = 0.24;
/// On hex boards the ring sits further out, clear of the big letters some hex screenshots
/// print on their discs, still inside the disc (0.325 of the pitch).
const HEX_RING: f64 = 0.28;

#[derive(Debug, Clone)]
pub struct Sites {
    pub rows: usize,
    pub cols: usize,
    /// Distance between neighbouring centres.
    pub pitch: f64,
    /// Row-major, holes too: each grid position's centre and region.
    pub centres: Vec<PixelPoint>,
    pub regions: Vec<Region>,
    /// Row-major: whether the cell is on the board.
    pub present: Vec<bool>,
    /// Neighbouring board cells `[row, col]`, each pair once.
    pub neighbours: Vec<([usize; 2], [usize; 2])>,
    /// Where a cell's background is sampled, in pitches from its centre.
    pub ground: Vec<(f64, f64)>,
    /// The radius, in pitches, of the ring of samples that tells a disc from a pipe.
    pub ring: f64,
}

impl Sites {
    pub fn has(&self, row: usize, col: usize) -> bool {
        self.present[row * self.cols + col]
    }

    pub fn centre(&self, row: usize, col: usize) -> PixelPoint {
        self.centres[row * self.cols + col]
    }

    pub fn region(&self, row: usize, col: usize) -> Region {
        self.regions[row * self.cols + col]
    }

    pub fn of_square(board: &Board) -> Sites {
        let (rows, cols) = (board.rows, board.cols);
        let positions = || (0..rows).flat_map(move |r| (0..cols).map(move |c| (r, c)));
        let mut neighbours = Vec::new();
        for (r, c) in positions() {
            for (r2, c2) in [(r, c + 1), (r + 1, c)] {
                if r2 < rows && c2 < cols && board.has(r, c) && board.has(r2, c2) {
                    neighbours.push(([r, c], [r2, c2]));
                }
            }
        }
        let g = SQUARE_GROUND;
        Sites {
            rows,
            cols,
            pitch: board.geometry.pitch(),
            centres: positions()
                .map(|(r, c)| board.geometry.centre(r, c))
                .collect(),
            regions: positions().map(|(r, c)| board.region(r, c)).collect(),
            present: board.present.clone(),
            neighbours,
            ground: vec![(-g, -g), (g, -g), (-g, g), (g, g)],
            ring: SQUARE_RING,
        }
    }

    /// Hex neighbours as the level packs link them (`GridSpec::hex`): beside in the row, below
    /// in the column, and one diagonal, to the right one row down from an even column or one
    /// row up from an odd one.
    pub fn of_hex(board: &HexBoard) -> Sites {
        let (rows, cols) = (board.rows, board.cols);
        let positions = || (0..rows).flat_map(move |r| (0..cols).map(move |c| (r, c)));
        let mut neighbours = Vec::new();
        for (r, c) in positions() {
            let diagonal = if c.is_multiple_of(2) {
                Some(r + 1)
            } else {
                r.checked_sub(1)
            };
            let others = [
                Some((r, c + 1)),
                Some((r + 1, c)),
                diagonal.map(|d| (d, c + 1)),
            ];
            for (r2, c2) in others.into_iter().flatten() {
                if r2 < rows && c2 < cols && board.has(r, c) && board.has(r2, c2) {
                    neighbours.push(([r, c], [r2, c2]));
                }
            }
        }
        Sites {
            rows,
            cols,
            pitch: board.pitch,
            centres: board.centres.clone(),
            regions: positions().map(|(r, c)| board.region(r, c)).collect(),
            present: board.present.clone(),
            neighbours,
            ground: (0..6)
                .map(|k| {
                    let a = k as f64 * std::f64::consts::FRAC_PI_3;
                    (HEX_GROUND * a.cos(), HEX_GROUND * a.sin())
                })
                .collect(),
            ring: HEX_RING,
        }
    }
}
