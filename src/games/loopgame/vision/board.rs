//! The board's colour: flat areas of it (its thin grid lines let through), and how far it
//! goes on past an edge; the measures the lattice searches share.

use super::look::Look;
use super::pixel;
use crate::vision::color::{blend_position, near, rgb, saturation};
use image::{Rgba, RgbaImage};

/// Coarse sampling step for finding the board's flat colour: far below the smallest board.
pub(super) const COARSE: usize = 4;
/// The smallest board-coloured area worth a look, in pixels a side: the app's smallest board is
/// 200 (4 cells of 50), and a drawn path cuts its colour into pieces smaller than the board.
pub(super) const MIN_BOARD: usize = 120;
/// How far the board's flat colour may drift in a lossy or rescaled copy: JPEG rings a few
/// levels, the light page (#F3F4F6 and its shadow) stays further off the white board.
const BOARD_TOLERANCE: u8 = 5;
/// How wide a grid line may show: 1 px drawn between pixels, up to 4 once rescaled 2×.
const LINE_REACH: usize = 4;
/// Grid sizes the app can show (dailies are 4, 6 and 8).
pub(super) const MIN_CELLS: usize = 2;
pub(super) const MAX_CELLS: usize = 30;

/// A grey on the mix from the board colour (0) to the grid's (1) and a little past it, from
/// `from` on.
pub(super) fn grid_mix(p: Rgba<u8>, look: &Look, from: f32) -> bool {
    saturation(rgb(p)) <= 1
        && blend_position(p, look.board, look.grid, 1.5).is_some_and(|t| (from..=1.3).contains(&t))
}

/// The board's flat colour, give or take the noise of a lossy copy (JPEG rings a few levels
/// around every edge) or a rescaled one; the pages around both themes' boards are further off.
pub(super) fn board_colour(p: Rgba<u8>, look: &Look) -> bool {
    near(p, look.board, BOARD_TOLERANCE)
}

/// Whether the pixel at (x, y) has board colour (`is_board`) within `LINE_REACH` pixels on
/// both sides across x (or across y), as a pixel of a thin grid line has. A lossy copy turns
/// the light theme's page into the same grey as a line, but the page is no thin line.
pub(super) fn flanked(x: i64, y: i64, across_x: bool, is_board: impl Fn(i64, i64) -> bool) -> bool {
    let side = |sign: i64| {
        (1..=LINE_REACH as i64).any(|d| {
            if across_x {
                is_board(x + sign * d, y)
            } else {
                is_board(x, y + sign * d)
            }
        })
    };
    side(-1) && side(1)
}

/// Board colour, or a thin grid line with its blurred rim (a rescaled copy rings beside it).
pub(super) fn board_or_grid(img: &RgbaImage, x: usize, y: usize, look: &Look) -> bool {
    let p = *img.get_pixel(x as u32, y as u32);
    let is_board = |a: i64, b: i64| {
        a >= 0
            && b >= 0
            && a < img.width() as i64
            && b < img.height() as i64
            && board_colour(*img.get_pixel(a as u32, b as u32), look)
    };
    let (x, y) = (x as i64, y as i64);
    board_colour(p, look)
        || grid_mix(p, look, 0.0)
            && (flanked(x, y, true, is_board) || flanked(x, y, false, is_board))
}

/// Of 32 samples along each edge (left, right, top, bottom), `off` pixels outside it
/// (inside when negative), how many are the board colour.
pub(super) fn beyond_edges(
    img: &RgbaImage,
    look: &Look,
    b: crate::rect::Rect<f64>,
    off: f64,
) -> [usize; 4] {
    let board = |x: f64, y: f64| pixel(img, x, y).is_some_and(|p| near(p, look.board, 6)) as usize;
    (0..32)
        .map(|k| (k as f64 + 0.5) / 32.0)
        .fold([0usize; 4], |mut n, t| {
            n[0] += board(b.x - off, b.y + t * b.h);
            n[1] += board(b.x + b.w + off, b.y + t * b.h);
            n[2] += board(b.x + t * b.w, b.y - off);
            n[3] += board(b.x + t * b.w, b.y + b.h + off);
            n
        })
}

pub(super) fn lerp(a: usize, b: usize, t: f64) -> f64 {
    a as f64 + t * (b as f64 - a as f64)
}

/// Past a board's edge, more than this many of 32 samples of the board colour mean the board
/// goes on (its rounded corners and shadow account for a few).
pub(super) const EDGE_LEAK: usize = 8;
