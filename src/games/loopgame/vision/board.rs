//! The board's colour: flat areas of it (its thin grid lines let through), and how far it
//! goes on past an edge; the measures the lattice searches share.

use super::look::Look;
use super::pixel;
use crate::vision::color::{blend_position, distance, near, off_mix, rgb, saturation};
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

/// How far a tinted pixel may lie from its tint's shades (`on_tint`): a video frame's noise is
/// ±2 levels, and the light page (#F0F1F4, greyer than any tint seen) must stay clear.
const TINT_TOLERANCE: u8 = 3;
/// A tint's shades run from the board colour to this many times the tint's most common one: a
/// highlighted block fades in and out, and in one frame its cells show shades up to a third
/// darker than the most common (#F0F6FC beside #F4F8FE).
const TINT_REACH: f32 = 1.5;
/// A tint is this many levels off the board colour: any less is the board colour's own drift.
/// A tutorial's highlighted block pulses from 5 to 43 levels off white (#D4E4F8 at its
/// strongest); past the grid's own grey (31 off) the tint is at most half again as far.
const TINT_OFF: std::ops::RangeInclusive<u8> = 3..=48;
/// Tints tried, most common first: the page around the board is as far off the board colour as
/// a tint and can outnumber it (the lattice checks refuse a page taken as board).
const MAX_TINTS: usize = 3;

/// The shares of the look's tint a pixel may be seen without: none, all (inside a tinted
/// cell), half (a line between a tinted cell and a plain one blends both), and the share that
/// leaves it greyest. A grid line darkens whatever is under it alike in each channel, so under
/// a tint it is the line's grey plus the tint's cast; a video frame's halved colour resolution
/// smears some share of the tint's cast onto the lines beside a tinted cell, which only that
/// last share takes off.
fn tint_shares(p: Rgba<u8>, look: &Look) -> impl Iterator<Item = f32> {
    let greyest = look.tint.and_then(|t| {
        let d: [f32; 3] = std::array::from_fn(|i| look.board[i] as f32 - t[i] as f32);
        let v: [f32; 3] = std::array::from_fn(|i| p.0[i] as f32);
        let centred = |a: [f32; 3]| {
            let m = (a[0] + a[1] + a[2]) / 3.0;
            a.map(|x| x - m)
        };
        let (e, c) = (centred(d), centred(v));
        let ee: f32 = e.iter().map(|x| x * x).sum();
        // A grey tint has no cast to take off: its share shows in brightness alone.
        (ee >= 1.0).then(|| (-(0..3).map(|i| e[i] * c[i]).sum::<f32>() / ee).clamp(0.0, TINT_REACH))
    });
    let fixed = if look.tint.is_some() {
        &[0.0, 1.0, 0.5][..]
    } else {
        &[0.0][..]
    };
    fixed.iter().copied().chain(greyest)
}

/// The pixel as it would show without `share` of the look's tint (the pixel itself without
/// one).
fn untinted(p: Rgba<u8>, look: &Look, share: f32) -> Rgba<u8> {
    let Some(t) = look.tint else { return p };
    Rgba(std::array::from_fn(|i| {
        if i == 3 {
            p.0[3]
        } else {
            let shift = (look.board[i] as f32 - t[i] as f32) * share;
            (p.0[i] as f32 + shift).round().clamp(0.0, 255.0) as u8
        }
    }))
}

/// `test` of the pixel, or of it seen through some share of the look's tint (`tint_shares`).
fn plain_or_tinted(p: Rgba<u8>, look: &Look, test: impl Fn(Rgba<u8>) -> bool) -> bool {
    tint_shares(p, look).any(|share| test(untinted(p, look, share)))
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
    near(p, look.board, BOARD_TOLERANCE + slack) || on_tint(p, look, slack)
}

/// A shade of the look's tint: its cast over the board colour, at any strength up to
/// `TINT_REACH` times the tint's own, within `TINT_TOLERANCE + slack` levels.
fn on_tint(p: Rgba<u8>, look: &Look, slack: u8) -> bool {
    look.tint.is_some_and(|t| {
        let deepest: [u8; 3] = std::array::from_fn(|i| {
            let d = look.board[i] as f32 - t[i] as f32;
            (look.board[i] as f32 - TINT_REACH * d)
                .round()
                .clamp(0.0, 255.0) as u8
        });
        off_mix(p, look.board, deepest) <= (TINT_TOLERANCE + slack) as f32
    })
}

/// The flat colours a block of cells may be tinted with, most common first: coarse samples
/// `TINT_OFF` from the board colour, each covering at least a fiftieth of them (a tutorial's
/// highlighted block is a third of the picture or more), and each clear of the ones before.
/// A video frame's tinted cells drift a level off their colour, which once enlarged breaks the
/// board into pieces none of which holds enough grid lines; a strong tint breaks it at once.
pub(super) fn tints_of(img: &RgbaImage, look: &Look) -> Vec<[u8; 3]> {
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
    let mut common: Vec<([u8; 3], usize)> = counts
        .into_iter()
        .filter(|&(_, n)| n * 50 >= samples)
        .collect();
    common.sort_by_key(|&(c, n)| std::cmp::Reverse((n, c)));
    let mut out: Vec<[u8; 3]> = Vec::new();
    for (c, _) in common {
        let clear = out
            .iter()
            .all(|&t| !near(Rgba([c[0], c[1], c[2], 255]), t, 2 * TINT_TOLERANCE));
        if clear && out.len() < MAX_TINTS {
            out.push(c);
        }
    }
    out
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

/// How much further than `board_colour` allows the colour beside a grid line may stray from
/// the board colour, in a tinted picture: a video frame's colour rings up to 10 levels off
/// white beside the lines between a tinted cell and a plain one, and the light pages (12 and
/// 15 off) stay clear. The tint's shades are loosened as much only beside a line
/// (`steps_from_flanks`), not for the board's area: a strong blue tint's shades pass within 8
/// levels of the light pages.
pub(super) const FLANK_SLACK: u8 = 5;
/// How far the colour beside a grid line is looked for, in pixels: a video frame's ringing
/// spreads 8 px past a soft line once enlarged 1.35×.
const FLANK_REACH: i64 = 2 * LINE_REACH as i64;

/// Whether the pixel at (x, y) is a grid line's by its step from the colour beside it, across
/// x (or across y): a line darkens (on the dark board, lightens) whatever is under it alike in
/// each channel, whatever the tint or a video's colour ringing casts the pixels there. The
/// nearest board-like pixel on each side (`flank_like`) within `FLANK_REACH`
/// must be there, and the pixel must lie from one of them a third of the grid's step or more
/// (to 1.3 of it), equally in each channel within 2 levels.
pub(super) fn steps_from_flanks(
    img: &RgbaImage,
    look: &Look,
    x: i64,
    y: i64,
    across_x: bool,
    flank_like: &impl Fn(Rgba<u8>) -> bool,
) -> bool {
    let at = |d: i64| {
        let (a, b) = if across_x { (x + d, y) } else { (x, y + d) };
        (a >= 0 && b >= 0 && a < img.width() as i64 && b < img.height() as i64)
            .then(|| *img.get_pixel(a as u32, b as u32))
    };
    let Some(p) = at(0) else { return false };
    let flank = |sign: i64| (1..=FLANK_REACH).find_map(|d| at(sign * d).filter(|&f| flank_like(f)));
    let (Some(before), Some(after)) = (flank(-1), flank(1)) else {
        return false;
    };
    [before, after].iter().any(|&f| {
        let under = rgb(f);
        let line: [u8; 3] = std::array::from_fn(|i| {
            let step = look.grid[i] as i32 - look.board[i] as i32;
            (under[i] as i32 + step).clamp(0, 255) as u8
        });
        blend_position(p, under, line, 2.0).is_some_and(|t| (0.3..=1.3).contains(&t))
    })
}

/// The colour beside a grid line: in a tinted picture up to `FLANK_SLACK` further off the
/// board colour than `board_colour` allows, and `tint_slack` off the tint's shades.
pub(super) fn flank_like(p: Rgba<u8>, look: &Look, tint_slack: u8) -> bool {
    let loose = if look.tint.is_some() { FLANK_SLACK } else { 0 };
    near(p, look.board, BOARD_TOLERANCE + loose) || on_tint(p, look, tint_slack)
}

/// Whether a pixel of this colour could be a grid line's by `steps_from_flanks`: some colour
/// beside it is board-like, a third to 1.3 of the grid's step away (tried in tenths of it, 2
/// levels looser for the rounding). Decided per colour, it spares the look beside most pixels.
pub(super) fn could_step(p: Rgba<u8>, look: &Look) -> bool {
    look.tint.is_some()
        && (3..=13).any(|k| {
            let t = k as f32 / 10.0;
            let under: [f32; 3] = std::array::from_fn(|i| {
                let step = look.grid[i] as f32 - look.board[i] as f32;
                (p.0[i] as f32 - t * step).round()
            });
            // Past white or black no colour lies beside it.
            under.iter().all(|v| (-2.0..=257.0).contains(v)) && {
                let [r, g, b] = under.map(|v| v.clamp(0.0, 255.0) as u8);
                flank_like(Rgba([r, g, b, 255]), look, FLANK_SLACK + 2)
            }
        })
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
    /// Neither board nor on the grid mix, but a tinted picture's line might show so
    /// (`could_step`).
    MaybeLine,
}

pub(super) fn board_tone(p: Rgba<u8>, look: &Look) -> BoardTone {
    // Beside a tinted block's lines a video frame's colour rings off both board and tint; the
    // board's area goes on over it.
    if board_colour(p, look) || (look.tint.is_some() && flank_like(p, look, 0)) {
        BoardTone::Board
    } else if grid_mix(p, look, 0.0) {
        BoardTone::Mix
    } else if could_step(p, look) {
        BoardTone::MaybeLine
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
    let tone = tone(p);
    let flank = |p| flank_like(p, look, FLANK_SLACK);
    let stepped = || {
        look.tint.is_some()
            && (steps_from_flanks(img, look, x, y, true, &flank)
                || steps_from_flanks(img, look, x, y, false, &flank))
    };
    match tone {
        BoardTone::Board => true,
        BoardTone::Mix => {
            flanked(x, y, true, is_board) || flanked(x, y, false, is_board) || stepped()
        }
        BoardTone::MaybeLine => stepped(),
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

#[cfg(test)]
mod tests {
    use super::super::look::LIGHT;
    use super::*;

    fn tinted(t: [u8; 3]) -> Look {
        Look {
            tint: Some(t),
            ..LIGHT
        }
    }

    /// A row of pixels across a grid line between a tinted cell and a plain one, as a video
    /// frame shows it: the tint (#E9F1FB), the line 20 levels under what lies left of it in
    /// each channel, and on the right a ring of colour in neither the tint nor white
    /// (#F5FBFD). The line is told by its even step; a pixel stepping unevenly (a pale
    /// number's rim) or too little is not, nor is one with no board-like colour on a side.
    #[test]
    fn a_grid_line_steps_evenly_from_the_colour_beside_it_whatever_the_tint() {
        let look = tinted([0xe9, 0xf1, 0xfb]);
        let row = |mid: [u8; 3], right: [u8; 3]| {
            let mut img = RgbaImage::from_pixel(41, 1, Rgba([0xe9, 0xf1, 0xfb, 255]));
            img.put_pixel(18, 0, Rgba([0xea, 0xf3, 0xf6, 255]));
            img.put_pixel(19, 0, Rgba([0xea, 0xf3, 0xf6, 255]));
            img.put_pixel(20, 0, Rgba([mid[0], mid[1], mid[2], 255]));
            for x in 21..41 {
                img.put_pixel(x, 0, Rgba([right[0], right[1], right[2], 255]));
            }
            img
        };
        let flank = |p| flank_like(p, &look, FLANK_SLACK);
        let steps = |img: &RgbaImage| steps_from_flanks(img, &look, 20, 0, true, &flank);
        let ring = [0xf5, 0xfb, 0xfd];
        let line = [0xd6, 0xdf, 0xe2];
        assert!(steps(&row(line, ring)));
        // Not grey after any share of the tint is taken off (the plain test's view).
        assert!(!tint_shares(Rgba([0xd6, 0xdf, 0xe2, 255]), &look)
            .any(|s| saturation(rgb(untinted(Rgba([0xd6, 0xdf, 0xe2, 255]), &look, s))) <= 1));
        assert!(!steps(&row([0xd6, 0xe9, 0xf2], ring)), "uneven step");
        assert!(!steps(&row([0xe7, 0xf0, 0xf3], ring)), "too little");
        assert!(
            !steps(&row(line, [0xb0, 0xb0, 0xb0])),
            "nothing board-like beside"
        );
        assert!(could_step(Rgba([0xd6, 0xdf, 0xe2, 255]), &look));
        assert!(!could_step(Rgba([0xd6, 0xdf, 0xe2, 255]), &LIGHT));
        assert!(!could_step(Rgba([0xff, 0xff, 0xff, 255]), &look));
    }

    /// Grid lines under a tint keep its cast, and a video's halved colour resolution leaves
    /// some share of it on the lines beside a tinted cell: a grey once that share is off.
    #[test]
    fn a_tinted_line_is_grey_once_its_share_of_the_tint_is_off() {
        let look = tinted([0xe9, 0xf1, 0xfb]);
        // The line (#E0E0E0 on white) under the whole tint, and under 0.7 of its cast.
        let under = Rgba([0xca, 0xd2, 0xdc, 255]);
        let part = Rgba([0xd0, 0xd6, 0xdd, 255]);
        for p in [under, part] {
            assert!(grid_like(p, &look), "{p:?}");
            assert!(!grid_like(p, &LIGHT), "{p:?}");
        }
        // A number's rim is not grey through any share of a blue tint.
        assert!(!grid_like(Rgba([0xf0, 0xc0, 0xb0, 255]), &look));
    }

    /// The tint's shades: the board colour to 1.5 times the most common tint, within 3 levels;
    /// the light page (#F0F1F4) is none of them.
    #[test]
    fn a_tints_shades_run_from_the_board_to_half_again_as_far() {
        let look = tinted([0xf4, 0xf8, 0xfe]);
        for p in [[0xf4, 0xf8, 0xfe], [0xf0, 0xf6, 0xfc], [0xfa, 0xfc, 0xff]] {
            assert!(on_board(Rgba([p[0], p[1], p[2], 255]), &look, 0), "{p:?}");
        }
        assert!(!on_board(Rgba([0xf0, 0xf1, 0xf4, 255]), &look, 0));
        assert!(!on_board(Rgba([0xe0, 0xec, 0xfa, 255]), &look, 0));
    }

    /// Tints as strong as the tutorial's (22 off white, and the page 15 off) are found, most
    /// common first; one covering less than a fiftieth of the picture is not, nor a second
    /// within reach of the first.
    #[test]
    fn tints_are_the_common_colours_off_the_board() {
        let mut img = RgbaImage::from_pixel(200, 200, Rgba([255, 255, 255, 255]));
        for (x, y, p) in img.enumerate_pixels_mut() {
            if x < 100 {
                *p = Rgba([0xe9, 0xf1, 0xfb, 255]);
                if x % 3 == 1 && y % 3 == 1 {
                    *p = Rgba([0xea, 0xf2, 0xfb, 255]);
                }
            } else if y < 40 {
                *p = Rgba([0xf0, 0xf1, 0xf4, 255]);
            } else if y < 42 {
                *p = Rgba([0xc0, 0xd0, 0xf0, 255]);
            }
        }
        assert_eq!(
            tints_of(&img, &LIGHT),
            vec![[0xe9, 0xf1, 0xfb], [0xf0, 0xf1, 0xf4]]
        );
    }
}
