//! How much an enlarged copy has blurred the board: the width of the island rings' outer
//! edge. Bridges draws a ring's edge anti-aliased over about a pixel, and a shrunk copy keeps
//! it about that sharp; a copy enlarged by bilinear or box averaging spreads it over as many
//! pixels as it enlarged, without adding any detail to the digits inside.

use super::sgt_canvas::{SGT_LINE, SGT_RING_OUTER};
use crate::vision::color::{bilinear, luma};
use image::RgbaImage;

/// The widest outer ring edge measured on pictures as Bridges drew them (0.73–0.81 px on the
/// corpus captures at tiles 24–64 and the 150 px website thumbnails), and on shrunk copies
/// (0.73–0.87 px at 0.8×–0.9× by Lanczos, bilinear or box).
const SHARP_EDGE: f64 = 0.9;

/// How many times over a copy was enlarged, told by how much wider than a sharp picture's its
/// ring edges are; 1 for a sharp or shrunk picture. It reads low for a box enlargement by a
/// whole factor (pixels repeated, edges kept sharp: 1.16 at 2×), never high: a bilinear 2×
/// copy of a thumbnail reads 1.75.
pub(super) fn enlargement(img: &RgbaImage, centres: &[(f64, f64)], ts: f64) -> f64 {
    ring_edge_width(img, centres, ts).map_or(1.0, |w| (w / SHARP_EDGE).max(1.0))
}

/// A glyph's height in the sharpest picture it went through, from its height in the copy and
/// the copy's enlargement: never under `LOWEST_SHARP_HEIGHT` for that reason alone. The digit
/// scores' allowance for small digits (`digits::zero_score`) was measured on sharp small
/// glyphs; a copy shrunk and then enlarged (0.4× then 1.35× bilinear of a 32 px tile) blurs a
/// 3 into a bar that scores as a 1, which that allowance at 6.5 px would let through.
pub(super) fn sharp_height(tall: f64, enlarged: f64) -> f64 {
    (tall / enlarged).max(tall.min(LOWEST_SHARP_HEIGHT))
}
const LOWEST_SHARP_HEIGHT: f64 = 8.0;

/// Steps per pixel along a profile across the edge.
const STEPS: f64 = 10.0;
/// Least contrast between a ring's ink and the canvas beside it for the edge to be measured
/// (a highlighted or overdrawn ring, a JPEG block's ringing are left out).
const LEAST_CONTRAST: f64 = 100.0;

/// The median 20–80 % width, in pixels, of the rings' outer edges, measured along the four
/// diagonals from each island's centre (bridges leave along the axes); `None` when no edge
/// has the contrast to be measured.
fn ring_edge_width(img: &RgbaImage, centres: &[(f64, f64)], ts: f64) -> Option<f64> {
    let mut widths: Vec<f64> = Vec::new();
    let from = ts * (SGT_RING_OUTER - SGT_LINE / 2.0);
    let to = ts * (SGT_RING_OUTER + SGT_LINE) + 2.0;
    let d = std::f64::consts::FRAC_1_SQRT_2;
    for &(cx, cy) in centres {
        for (dx, dy) in [(d, d), (d, -d), (-d, d), (-d, -d)] {
            let n = ((to - from) * STEPS) as usize;
            let profile: Option<Vec<f64>> = (0..=n)
                .map(|k| {
                    let r = from + k as f64 / STEPS;
                    bilinear(img, cx + dx * r, cy + dy * r).map(|p| luma(p) as f64)
                })
                .collect();
            if let Some(w) = profile.and_then(|p| edge_width(&p)) {
                widths.push(w / STEPS);
            }
        }
    }
    if widths.is_empty() {
        return None;
    }
    widths.sort_by(f64::total_cmp);
    Some(widths[widths.len() / 2])
}

/// Steps from 20 % to 80 % of the rise from the profile's darkest point to its end.
fn edge_width(profile: &[f64]) -> Option<f64> {
    let (dark_at, &lo) = profile
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.total_cmp(b.1))?;
    let hi = *profile.last()?;
    if hi - lo < LEAST_CONTRAST {
        return None;
    }
    let rise = &profile[dark_at..];
    let crossing = |share: f64| {
        let level = lo + share * (hi - lo);
        rise.windows(2).position(|w| w[1] >= level).map(|k| {
            let (a, b) = (rise[k], rise[k + 1]);
            k as f64 + (level - a) / (b - a).max(f64::EPSILON)
        })
    };
    Some(crossing(0.8)? - crossing(0.2)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_enlarged_glyph_counts_as_drawn_small_but_never_under_the_floor() {
        assert_eq!(sharp_height(16.0, 1.0), 16.0);
        assert_eq!(sharp_height(16.0, 1.6), 10.0);
        // A 3 blurred to a bar by a shrink and an enlargement scores like a 1 at 6.5 px.
        assert_eq!(sharp_height(8.4, 1.3), 8.0);
        // Small in the copy itself: its own height, as before.
        assert_eq!(sharp_height(6.0, 1.5), 6.0);
    }

    #[test]
    fn an_edge_is_measured_from_a_fifth_to_four_fifths_of_its_rise() {
        // Ink, then a rise of 200 over 10 steps, then canvas.
        let mut p = vec![10.0; 5];
        p.extend((1..=10).map(|k| 10.0 + 20.0 * k as f64));
        p.extend([210.0; 5]);
        let w = edge_width(&p).unwrap();
        assert!((w - 6.0).abs() < 1e-9, "{w}");
        // Too little contrast to say.
        assert_eq!(edge_width(&[100.0, 150.0, 180.0]), None);
    }
}
