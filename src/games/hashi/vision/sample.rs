//! The few ways both readers look at the picture: one pixel, a ring of samples around a
//! lattice point, and the flat areas of a coarse grid of samples. Shared so that an island or
//! a background is tested the same way whichever app drew it.

use crate::error::Region;
use crate::vision::components::{sampled_areas, Component};
use image::{Rgba, RgbaImage};
use std::sync::OnceLock;

/// Coarse sampling step for finding a board's background: small enough that the thinnest
/// border band of a board (0.4 tile at 20 px tiles) always holds a sample.
pub(super) const COARSE: usize = 4;
/// Fraction of ring samples that must be ink (Bridges) or island (web) to call it an island.
pub(super) const RING_FILL: f64 = 0.8;
pub(super) const RING_SAMPLES: usize = 32;
/// Just inside and outside an island's ring, at least this fraction of ink means it is not one.
pub(super) const RING_CLEAR: f64 = 0.36;

pub(super) fn px(img: &RgbaImage, x: f64, y: f64) -> Option<Rgba<u8>> {
    let (x, y) = (x.round(), y.round());
    if x < 0.0 || y < 0.0 || x >= img.width() as f64 || y >= img.height() as f64 {
        return None;
    }
    Some(*img.get_pixel(x as u32, y as u32))
}

/// Unit vectors of the ring sample directions, computed once.
pub(super) fn ring_directions() -> &'static [(f64, f64); RING_SAMPLES] {
    static DIRS: OnceLock<[(f64, f64); RING_SAMPLES]> = OnceLock::new();
    DIRS.get_or_init(|| {
        std::array::from_fn(|k| {
            let a = k as f64 * std::f64::consts::TAU / RING_SAMPLES as f64;
            (a.cos(), a.sin())
        })
    })
}

/// Whether at least `fraction` of the points on a circle pass `test` (off-image points fail).
/// Stops as soon as the answer is known: most lattice points are empty and fail in a few reads.
pub(super) fn ring_at_least(
    img: &RgbaImage,
    c: (f64, f64),
    r: f64,
    fraction: f64,
    test: impl Fn(Rgba<u8>) -> bool,
) -> bool {
    ring_band_at_least(img, c, r, 0.0, fraction, test)
}

/// Whether at least `fraction` of the directions around a circle pass `test` somewhere across
/// a band `r ± spread`: a rescaled copy blurs a thin ring and moves its darkest line off the
/// nominal radius by a pixel, while the band stays within the ring's drawn width.
pub(super) fn ring_band_at_least(
    img: &RgbaImage,
    (cx, cy): (f64, f64),
    r: f64,
    spread: f64,
    fraction: f64,
    test: impl Fn(Rgba<u8>) -> bool,
) -> bool {
    let need = (fraction * RING_SAMPLES as f64).ceil() as usize;
    let (mut hits, mut misses) = (0, 0);
    for &(dx, dy) in ring_directions() {
        let band = [r - spread, r, r + spread];
        let radii = if spread > 0.0 { &band[..] } else { &band[1..2] };
        let hit = radii
            .iter()
            .any(|&rr| px(img, cx + rr * dx, cy + rr * dy).is_some_and(&test));
        if hit {
            hits += 1;
            if hits >= need {
                return true;
            }
        } else {
            misses += 1;
            if misses > RING_SAMPLES - need {
                return false;
            }
        }
    }
    hits >= need
}

/// The largest 4-connected area of pixels passing `test`, sampled every `COARSE` pixels;
/// the box is in image pixels, accurate to `COARSE`.
pub(super) fn largest_area(img: &RgbaImage, test: impl Fn(Rgba<u8>) -> bool) -> Option<Component> {
    areas(img, test).into_iter().max_by_key(|c| c.count)
}

/// The area whose bounding box is largest. On a solved Bridges board the bridges cut the
/// canvas into pieces and the one inside can outweigh the thin border band around them, yet
/// only the band spans the whole canvas.
pub(super) fn widest_area(img: &RgbaImage, test: impl Fn(Rgba<u8>) -> bool) -> Option<Component> {
    areas(img, test)
        .into_iter()
        .max_by_key(|c| (c.x1 - c.x0 + 1) * (c.y1 - c.y0 + 1))
}

/// All 4-connected areas of pixels passing `test`, sampled every `COARSE` pixels; boxes are
/// in image pixels, accurate to `COARSE`.
fn areas(img: &RgbaImage, test: impl Fn(Rgba<u8>) -> bool) -> Vec<Component> {
    sampled_areas(img.dimensions(), COARSE, |x, y| {
        test(*img.get_pixel(x as u32, y as u32))
    })
}

pub(super) fn region_around((cx, cy): (f64, f64), half: f64) -> Region {
    Region {
        x: (cx - half).round() as i32,
        y: (cy - half).round() as i32,
        w: (2.0 * half).round().max(1.0) as i32,
        h: (2.0 * half).round().max(1.0) as i32,
    }
}
