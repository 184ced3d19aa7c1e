//! Measures of ink around a point, for checks that a place is empty: the strongest ink along a
//! ray, and the ink summed across a short profile. `ink` says how far a colour stands from the
//! board's empty background, in levels; samples are bilinear, at half-pixel steps.

use super::color::bilinear;
use super::runs::runs;
use image::{Rgba, RgbaImage};

/// Sub-pixel step of the samples.
pub const STEP: f64 = 0.5;

/// The strongest ink on the ray from `centre` along the unit vector `dir`, from radius `r0`
/// to `r1` (pixels); 0 off the picture.
pub fn ray_peak(
    img: &RgbaImage,
    (cx, cy): (f64, f64),
    (dx, dy): (f64, f64),
    (r0, r1): (f64, f64),
    ink: impl Fn(Rgba<u8>) -> f64,
) -> f64 {
    let steps = ((r1 - r0) / STEP).ceil().max(0.0) as usize;
    (0..=steps)
        .map(|k| {
            let r = r0 + k as f64 * STEP;
            bilinear(img, cx + r * dx, cy + r * dy).map_or(0.0, &ink)
        })
        .fold(0.0, f64::max)
}

/// The ink summed (in level·pixels) across a profile through `at`, `half` pixels to each side
/// along the unit vector `across`.
pub fn profile_sum(
    img: &RgbaImage,
    (ax, ay): (f64, f64),
    (px, py): (f64, f64),
    half: f64,
    ink: impl Fn(Rgba<u8>) -> f64,
) -> f64 {
    let n = ((2.0 * half) / STEP).round() as usize;
    let sum: f64 = (0..=n)
        .map(|k| {
            let off = -half + k as f64 * STEP;
            bilinear(img, ax + off * px, ay + off * py).map_or(0.0, &ink)
        })
        .sum();
    sum * STEP
}

/// How sure a measure `x` is below `inked`: 1 at `clean` or less, 0 at `inked` or more.
pub fn sure_below(x: f64, clean: f64, inked: f64) -> f64 {
    ((inked - x) / (inked - clean)).clamp(0.0, 1.0)
}

/// Words of dark text along a band of rows: `(start, end)` columns of ink, letters closer than
/// `gap` joined. Menu bars and toolbars are found with it.
pub fn words(
    img: &image::RgbaImage,
    rows: &[u32],
    dark: impl Fn(image::Rgba<u8>) -> bool,
    gap: usize,
) -> Vec<(u32, u32)> {
    let ink = (0..img.width()).map(|x| rows.iter().any(|&y| dark(*img.get_pixel(x, y))));
    let mut out: Vec<(u32, u32)> = Vec::new();
    for (s, n) in runs(ink) {
        let (s, e) = (s as u32, (s + n - 1) as u32);
        match out.last_mut() {
            Some(last) if (s - last.1) as usize <= gap => last.1 = e,
            _ => out.push((s, e)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::color::luma;

    fn dark(p: Rgba<u8>) -> f64 {
        255.0 - p.0[0] as f64
    }

    #[test]
    fn a_ring_is_found_on_its_ray_and_a_line_summed_across_its_width() {
        // A white picture with a black ring of radius 10 round (20, 20) and a 3-px black
        // column at x = 40.
        let img = RgbaImage::from_fn(60, 40, |x, y| {
            let r = ((x as f64 - 20.0).powi(2) + (y as f64 - 20.0).powi(2)).sqrt();
            if (r - 10.0).abs() < 1.0 || (39..=41).contains(&x) {
                Rgba([0, 0, 0, 255])
            } else {
                Rgba([255, 255, 255, 255])
            }
        });
        let d = std::f64::consts::FRAC_1_SQRT_2;
        assert!(ray_peak(&img, (20.0, 20.0), (d, d), (7.0, 13.0), dark) > 200.0);
        assert_eq!(ray_peak(&img, (20.0, 20.0), (d, d), (2.0, 7.0), dark), 0.0);
        let line = profile_sum(&img, (40.0, 20.0), (1.0, 0.0), 8.0, dark);
        assert!((line - 3.0 * 255.0).abs() < 0.5 * 255.0, "{line}");
        assert_eq!(profile_sum(&img, (50.0, 20.0), (1.0, 0.0), 5.0, dark), 0.0);
        assert_eq!(sure_below(5.0, 10.0, 50.0), 1.0);
        assert_eq!(sure_below(30.0, 10.0, 50.0), 0.5);
        assert_eq!(sure_below(60.0, 10.0, 50.0), 0.0);
    }

    #[test]
    fn words_join_letters_and_keep_words_apart() {
        let mut img = RgbaImage::from_pixel(300, 200, Rgba([230, 230, 230, 255]));
        for x in [10, 13, 16, 40, 43] {
            for (px, py) in (x..x + 2).flat_map(|px| (5..12).map(move |py| (px, py))) {
                img.put_pixel(px, py, Rgba([0, 0, 0, 255]));
            }
        }
        let w = words(&img, &(0..20).collect::<Vec<_>>(), |p| luma(p) < 100, 3);
        assert_eq!(w, vec![(10, 17), (40, 44)]);
    }
}
