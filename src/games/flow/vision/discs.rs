//! Endpoints: the large filled discs at cell centres. A disc covers about 0.35 of the pitch
//! around the centre in every direction; a pipe through the cell is a bar about 0.13 of the
//! pitch either side of its axis. So a ring of samples at 0.24 of the pitch is all one
//! colour on a disc and mostly the cell's background on a pipe (at most two bars cross it),
//! whatever the palette and whatever is printed on the disc's middle.

use super::confidence::Weakest;
use super::sites::Sites;
use crate::vision::color::{euclidean, Colour};
use crate::vision::sample::{block_side, mean, median};
use image::RgbaImage;

const RING_SAMPLES: usize = 16;
/// A ring sample this close to the ring's median is the same paint.
const SAME: f64 = 45.0;
/// A disc stands this far from its cell's background (the dimmest, dark blue on black, is
/// about 150 off; a drawn pipe's tint lifts the background by 40 at most).
const CONTRAST: f64 = 70.0;
/// The middle's samples, in pitches from the centre: inside a pipe's half width (0.13).
const MIDDLE: f64 = 0.11;
/// Ring samples agreeing: a disc shows all 16, a pipe at most 7; the call is made halfway.
const DISC_AGREE: f64 = 11.5;

/// One endpoint disc.
#[derive(Debug, Clone, Copy)]
pub struct Disc {
    pub row: usize,
    pub col: usize,
    pub colour: Colour,
}

/// What one cell shows at its middle, for the disc and pipe steps.
#[derive(Debug, Clone, Copy)]
pub struct CellLook {
    /// The cell's own background, from its corners.
    pub background: Colour,
    /// What fills its middle: the median of five samples on a small pentagon around the
    /// centre. A lost disc or pipe covers all five; a thin line drawn across the cell (the
    /// hex screenshot's hand-drawn scribbles) at most two, so it does not count as paint.
    pub middle: Colour,
}

/// Every cell's background (row-major; holes too), and the discs in row-major order.
pub fn find(img: &RgbaImage, board: &Sites, weakest: &mut Weakest) -> (Vec<CellLook>, Vec<Disc>) {
    let p = board.pitch;
    let side = block_side(p);
    let mut looks = Vec::with_capacity(board.rows * board.cols);
    let mut discs = Vec::new();
    for r in 0..board.rows {
        for c in 0..board.cols {
            let centre = board.centre(r, c);
            let at = |dx: f64, dy: f64| mean(img, centre.x + dx * p, centre.y + dy * p, side);
            let corners: Vec<Colour> = board.ground.iter().map(|&(dx, dy)| at(dx, dy)).collect();
            let background = median(&corners);
            let middle = median(&std::array::from_fn::<_, 5, _>(|k| {
                let a = k as f64 * std::f64::consts::TAU / 5.0;
                at(MIDDLE * a.sin(), -MIDDLE * a.cos())
            }));
            looks.push(CellLook { background, middle });
            if !board.has(r, c) {
                continue;
            }
            let ring: Vec<Colour> = (0..RING_SAMPLES)
                .map(|k| {
                    let a = k as f64 * std::f64::consts::TAU / RING_SAMPLES as f64;
                    at(board.ring * a.cos(), board.ring * a.sin())
                })
                .collect();
            let paint = median(&ring);
            if euclidean(paint, background) < CONTRAST {
                continue;
            }
            let agree = ring
                .iter()
                .filter(|&&s| euclidean(s, paint) <= SAME)
                .count() as f64;
            let region = Some(board.region(r, c));
            if agree > DISC_AGREE {
                weakest.note(
                    (agree - DISC_AGREE) / 3.0,
                    region,
                    format!(
                        "cell ({r}, {c}): a disc with {agree} of {RING_SAMPLES} ring samples alike"
                    ),
                );
                discs.push(Disc {
                    row: r,
                    col: c,
                    colour: paint,
                });
            } else {
                weakest.note(
                    (DISC_AGREE - agree) / 3.0,
                    region,
                    format!(
                        "cell ({r}, {c}): paint at its middle, {agree} of {RING_SAMPLES} ring \
                         samples alike: a disc or a pipe?"
                    ),
                );
            }
        }
    }
    (looks, discs)
}
