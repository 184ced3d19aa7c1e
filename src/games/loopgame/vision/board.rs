//! The board's colour: flat areas of it (its thin grid lines let through), and how far it
//! goes on past an edge; the measures the lattice searches share.

use super::look::Look;
use super::pixel;
use crate::vision::color::{blend_position, distance, near, rgb, saturation};
use image::{Rgba, RgbaImage};

/// Coarse sampling step for finding the board's flat colour: far below the smallest board.
pub(super) const COARSE: usize = 4;
/// The smallest board-coloured area worth a look, in pixels a side: the app's smallest board is
/// 200 (4 cells of 50), and a drawn path cuts its colour into pieces smaller than the board.
pub(super) const MIN_BOARD: usize = 120;
/// How far the board's flat colour may drift in a lossy or rescaled copy: JPEG rings a few
/// levels, the light page (#F3F4F6 and its shadow) stays further off the white board.
const BOARD_TOLERANCE: u8 = 5;
/// How far a grid line's middle may lie from the board colour: 1 px drawn between pixels, up
/// to 4 once a capture is rescaled 2×, and a video frame's soft 3-px line is 8 px wide at 2×
/// with its outer pixels neither board nor line.
const LINE_REACH: usize = 6;
/// Grid sizes the app can show (dailies are 4, 6 and 8).
pub(super) const MIN_CELLS: usize = 2;
pub(super) const MAX_CELLS: usize = 30;

/// How far a tint's flat colour may drift: its own noise in a video frame is ±2 levels, and it
/// must stay clear of the light page (12 levels off white) while the tint is up to 8 off.
const TINT_TOLERANCE: u8 = 3;
/// A tint is this many levels off the board colour (a tutorial's highlighted cells are 5): any
/// less is the board colour's own drift, any more nears the page.
const TINT_OFF: std::ops::RangeInclusive<u8> = 3..=8;

/// The pixel as it would show without `share` of the look's tint, when it lies under it: a
/// tint shifts the board and the grid lines over it alike, and a line between a tinted cell
/// and a plain one blends the two.
fn untinted(p: Rgba<u8>, look: &Look, share: i32) -> Option<Rgba<u8>> {
    let t = look.tint?;
    Some(Rgba(std::array::from_fn(|i| {
        if i == 3 {
            p.0[3]
        } else {
            let shift = (look.board[i] as i32 - t[i] as i32) * share / 2;
            (p.0[i] as i32 + shift).clamp(0, 255) as u8
        }
    })))
}

/// `test` of the pixel, or of it seen through all or half of the look's tint.
fn plain_or_tinted(p: Rgba<u8>, look: &Look, test: impl Fn(Rgba<u8>) -> bool) -> bool {
    test(p)
        || [2, 1]
            .iter()
            .any(|&share| untinted(p, look, share).is_some_and(&test))
}

/// A grey on the mix from the board colour (0) to the grid's (1) and a little past it, from
/// `from` on.
pub(super) fn grid_mix(p: Rgba<u8>, look: &Look, from: f32) -> bool {
    plain_or_tinted(p, look, |p| {
        saturation(rgb(p)) <= 1
            && blend_position(p, look.board, look.grid, 1.5)
                .is_some_and(|t| (from..=1.3).contains(&t))
    })
}

/// A grid line's pixel rather than board: on the mix a third of the way from the board colour.
pub(super) fn grid_like(p: Rgba<u8>, look: &Look) -> bool {
    plain_or_tinted(p, look, |p| {
        !near(p, look.board, 1)
            && saturation(rgb(p)) <= 1
            && blend_position(p, look.board, look.grid, 1.5)
                .is_some_and(|t| (0.3..=1.3).contains(&t))
    })
}

/// The board's flat colour, give or take the noise of a lossy copy (JPEG rings a few levels
/// around every edge) or a rescaled one; the pages around both themes' boards are further off.
pub(super) fn board_colour(p: Rgba<u8>, look: &Look) -> bool {
    on_board(p, look, 0)
}

/// The board's colour or its tint, `slack` levels looser than `board_colour`.
pub(super) fn on_board(p: Rgba<u8>, look: &Look, slack: u8) -> bool {
    near(p, look.board, BOARD_TOLERANCE + slack)
        || look
            .tint
            .is_some_and(|t| near(p, t, TINT_TOLERANCE + slack))
}

/// The flat colour a block of cells is tinted with, when the picture shows one: the most
/// common of the coarse samples `TINT_OFF` from the board colour, covering at least a fiftieth
/// of them (a tutorial's highlighted block is a third of the picture or more). A video frame's
/// tinted cells drift a level off their colour, which once enlarged breaks the board into
/// pieces none of which holds enough grid lines.
pub(super) fn tint_of(img: &RgbaImage, look: &Look) -> Option<[u8; 3]> {
    let mut counts = std::collections::HashMap::<[u8; 3], usize>::new();
    let mut samples = 0usize;
    for y in (0..img.height()).step_by(COARSE) {
        for x in (0..img.width()).step_by(COARSE) {
            samples += 1;
            let p = *img.get_pixel(x, y);
            if TINT_OFF.contains(&distance(p, look.board)) {
                *counts.entry(rgb(p)).or_default() += 1;
            }
        }
    }
    let (colour, n) = counts.into_iter().max_by_key(|&(c, n)| (n, c))?;
    (n * 50 >= samples).then_some(colour)
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

/// Decisions that depend on a pixel's colour alone, remembered per colour: a screenshot holds
/// few colours (flat fills and their anti-aliased rims) and deciding one takes floating-point
/// blends, which over a lattice window of a million pixels were most of a reading's time.
/// Direct-mapped: a colour whose slot another took is decided again.
pub(super) struct ColourMemo<T> {
    keys: Vec<u32>,
    values: Vec<T>,
}

impl<T: Copy + Default> ColourMemo<T> {
    const SLOTS: usize = 1 << 12;

    pub(super) fn new() -> Self {
        ColourMemo {
            keys: vec![u32::MAX; Self::SLOTS],
            values: vec![T::default(); Self::SLOTS],
        }
    }

    /// `decide(p)`, which must depend on the colour only (not on alpha or position).
    pub(super) fn get(&mut self, p: Rgba<u8>, decide: impl FnOnce(Rgba<u8>) -> T) -> T {
        let key = u32::from_le_bytes([p.0[0], p.0[1], p.0[2], 0]);
        let slot = (key.wrapping_mul(0x9E37_79B1) >> 20) as usize & (Self::SLOTS - 1);
        if self.keys[slot] != key {
            self.keys[slot] = key;
            self.values[slot] = decide(p);
        }
        self.values[slot]
    }
}

/// What `board_or_grid` needs of a pixel's colour: board, on the grid mix, or neither.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum BoardTone {
    #[default]
    Neither,
    Board,
    Mix,
}

pub(super) fn board_tone(p: Rgba<u8>, look: &Look) -> BoardTone {
    if board_colour(p, look) {
        BoardTone::Board
    } else if grid_mix(p, look, 0.0) {
        BoardTone::Mix
    } else {
        BoardTone::Neither
    }
}

/// Board colour, or a thin grid line with its blurred rim (a rescaled copy rings beside it).
/// `tone` is `board_tone` for this look, remembered or not.
pub(super) fn board_or_grid(
    img: &RgbaImage,
    x: usize,
    y: usize,
    look: &Look,
    tone: impl Fn(Rgba<u8>) -> BoardTone,
) -> bool {
    let p = *img.get_pixel(x as u32, y as u32);
    let is_board = |a: i64, b: i64| {
        a >= 0
            && b >= 0
            && a < img.width() as i64
            && b < img.height() as i64
            && board_colour(*img.get_pixel(a as u32, b as u32), look)
    };
    let (x, y) = (x as i64, y as i64);
    match tone(p) {
        BoardTone::Board => true,
        BoardTone::Mix => flanked(x, y, true, is_board) || flanked(x, y, false, is_board),
        BoardTone::Neither => false,
    }
}

/// Of 32 samples along each edge (left, right, top, bottom), `off` pixels outside it
/// (inside when negative), how many are the board colour.
pub(super) fn beyond_edges(
    img: &RgbaImage,
    look: &Look,
    b: crate::rect::Rect<f64>,
    off: f64,
) -> [usize; 4] {
    let board = |x: f64, y: f64| pixel(img, x, y).is_some_and(|p| on_board(p, look, 1)) as usize;
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
