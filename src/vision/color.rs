//! Colours: distances, hue and saturation, the dominant colour of a sample, and pixel reads
//! that stay inside the picture.

use image::{Rgba, RgbaImage};

/// A colour without alpha.
pub type Rgb = [u8; 3];

/// A colour as a mean of pixels (see [`super::sample::mean`]).
pub type Colour = [f64; 3];

pub fn rgb(p: Rgba<u8>) -> Rgb {
    [p.0[0], p.0[1], p.0[2]]
}

/// The pixel under a sub-pixel position, clamped to the picture's edge.
pub fn pixel_at(img: &RgbaImage, x: f64, y: f64) -> Rgb {
    let xi = (x.floor().max(0.0) as u32).min(img.width() - 1);
    let yi = (y.floor().max(0.0) as u32).min(img.height() - 1);
    rgb(*img.get_pixel(xi, yi))
}

/// The colour at a sub-pixel position, blended from the four pixels around it (pixel
/// centres at whole coordinates); `None` off the picture. Sampling a small glyph finer than
/// its pixels this way smooths the staircase a coarse capture cuts its strokes into.
pub fn bilinear(img: &RgbaImage, x: f64, y: f64) -> Option<Rgba<u8>> {
    let (w, h) = (img.width() as f64, img.height() as f64);
    if !(x >= -0.5 && y >= -0.5 && x < w - 0.5 && y < h - 0.5) {
        return None;
    }
    let (x0, y0) = (x.floor(), y.floor());
    let at = |dx: f64, dy: f64| {
        let xi = (x0 + dx).clamp(0.0, w - 1.0) as u32;
        let yi = (y0 + dy).clamp(0.0, h - 1.0) as u32;
        *img.get_pixel(xi, yi)
    };
    let corners = [at(0.0, 0.0), at(1.0, 0.0), at(0.0, 1.0), at(1.0, 1.0)];
    Some(blend_corners(&corners, (x - x0) as f32, (y - y0) as f32))
}

/// The bilinear blend of four pixels `[top left, top right, bottom left, bottom right]` at
/// `(fx, fy)` in 0..1 from the top left one: many samples between the same four pixels read
/// them once.
pub fn blend_corners(corners: &[Rgba<u8>; 4], fx: f32, fy: f32) -> Rgba<u8> {
    let [a, b, c, d] = corners.map(|p| p.0.map(|v| v as f32));
    Rgba(std::array::from_fn(|k| {
        let top = a[k] + (b[k] - a[k]) * fx;
        let bottom = c[k] + (d[k] - c[k]) * fx;
        // Non-negative: adding a half and truncating rounds to nearest.
        (top + (bottom - top) * fy + 0.5) as u8
    }))
}

/// Straight-line RGB distance, of pixels ([`Rgb`]) or of means ([`Colour`]): smooth enough
/// to rank colours that differ on several channels, as art does after rescaling.
pub fn euclidean<T: Copy + Into<f64>>(a: [T; 3], b: [T; 3]) -> f64 {
    (0..3)
        .map(|i| (a[i].into() - b[i].into()).powi(2))
        .sum::<f64>()
        .sqrt()
}

/// Largest channel less smallest: 0 for greys.
pub fn saturation(p: Rgb) -> i32 {
    *p.iter().max().unwrap() as i32 - *p.iter().min().unwrap() as i32
}

/// Hue in degrees (0 for greys): it survives the brightness and contrast shifts between
/// capture tools.
pub fn hue(p: Rgb) -> f64 {
    let [r, g, b] = p.map(|v| v as f64);
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    if max - min < 1.0 {
        return 0.0;
    }
    let h = if max == r {
        (g - b) / (max - min)
    } else if max == g {
        2.0 + (b - r) / (max - min)
    } else {
        4.0 + (r - g) / (max - min)
    };
    (h * 60.0).rem_euclid(360.0)
}

/// A cheap luma, (2R + 5G + B) / 8: for finding thin bright lines, where only differences count.
pub fn brightness(p: Rgba<u8>) -> i16 {
    ((p[0] as i32 * 2 + p[1] as i32 * 5 + p[2] as i32) / 8) as i16
}

/// The colour most samples share, binned by their top `bits` bits per channel and averaged
/// within the winning bin, and how many samples fell in it.
pub fn dominant(samples: impl Iterator<Item = Rgb> + Clone, bits: u32) -> (Rgb, usize) {
    let key = |p: Rgb| {
        let s = 8 - bits;
        ((p[0] as usize >> s) << (2 * bits)) | ((p[1] as usize >> s) << bits) | (p[2] as usize >> s)
    };
    let mut hist = vec![0usize; 1 << (3 * bits)];
    for p in samples.clone() {
        hist[key(p)] += 1;
    }
    let (k, &n) = hist.iter().enumerate().max_by_key(|(_, &n)| n).unwrap();
    let mut sum = [0usize; 3];
    for p in samples.filter(|&p| key(p) == k) {
        for i in 0..3 {
            sum[i] += p[i] as usize;
        }
    }
    (sum.map(|v| (v / n.max(1)) as u8), n)
}

/// The sample with the most samples within `radius` of it (itself included), and that count:
/// the densest colour, found without bins. Binning splits a colour whose noise straddles a bin
/// edge (a JPEG or rescaled copy spreads one flat colour over a few levels), so a smaller but
/// tighter cluster can win the bins. Quadratic in the samples: for a tile's few hundred.
pub fn densest(samples: &[Rgb], radius: f64) -> Option<(Rgb, usize)> {
    let r2 = (radius * radius) as i32;
    let near = |a: Rgb, b: Rgb| {
        (0..3)
            .map(|i| (a[i] as i32 - b[i] as i32).pow(2))
            .sum::<i32>()
            <= r2
    };
    samples
        .iter()
        .map(|&p| (p, samples.iter().filter(|&&q| near(p, q)).count()))
        .max_by_key(|&(_, n)| n)
}

/// Largest per-channel difference, ignoring alpha: cheap and strict enough to tell a flat
/// UI colour from its neighbours without a colour-space conversion.
pub fn distance(a: Rgba<u8>, b: [u8; 3]) -> u8 {
    (0..3).map(|i| a.0[i].abs_diff(b[i])).max().unwrap_or(0)
}

/// Whether `a` is within `tolerance` of `b` on every channel.
pub fn near(a: Rgba<u8>, b: [u8; 3], tolerance: u8) -> bool {
    distance(a, b) <= tolerance
}

/// Integer luma (Rec. 601 weights), 0..=255.
pub fn luma(a: Rgba<u8>) -> u8 {
    ((299 * a.0[0] as u32 + 587 * a.0[1] as u32 + 114 * a.0[2] as u32) / 1000) as u8
}

/// A saturated red such as an error highlight: red well above both other channels.
pub fn is_red(a: Rgba<u8>) -> bool {
    let [r, g, b, _] = a.0;
    r > 180 && g < r.saturating_sub(80) && b < r.saturating_sub(80)
}

/// Where `p` lies between colours `from` (0) and `to` (1) when it is a mix of the two, as a
/// thin line blurred by scaling is; `None` when it is more than `tolerance` off that mix.
pub fn blend_position(p: Rgba<u8>, from: [u8; 3], to: [u8; 3], tolerance: f32) -> Option<f32> {
    let d: [f32; 3] = std::array::from_fn(|i| to[i] as f32 - from[i] as f32);
    let v: [f32; 3] = std::array::from_fn(|i| p.0[i] as f32 - from[i] as f32);
    let dd: f32 = d.iter().map(|x| x * x).sum();
    if dd == 0.0 {
        return None;
    }
    let t = v.iter().zip(&d).map(|(a, b)| a * b).sum::<f32>() / dd;
    let off = (0..3).map(|i| (v[i] - t * d[i]).abs()).fold(0.0, f32::max);
    (off <= tolerance).then_some(t)
}

/// How far `p` is from every mix of `from` and `to` (both included), as the largest channel
/// difference: 0 on either colour and on a thin line between them blurred by scaling.
pub fn off_mix(p: Rgba<u8>, from: [u8; 3], to: [u8; 3]) -> f32 {
    let d: [f32; 3] = std::array::from_fn(|i| to[i] as f32 - from[i] as f32);
    let v: [f32; 3] = std::array::from_fn(|i| p.0[i] as f32 - from[i] as f32);
    let dd: f32 = d.iter().map(|x| x * x).sum();
    let t = if dd == 0.0 {
        0.0
    } else {
        (v.iter().zip(&d).map(|(a, b)| a * b).sum::<f32>() / dd).clamp(0.0, 1.0)
    };
    (0..3).map(|i| (v[i] - t * d[i]).abs()).fold(0.0, f32::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_densest_colour_is_found_across_bin_edges() {
        // Grass spread over a 16-level bin edge (green 72..88) against a tight white cluster
        // that wins 4-bit bins: the densest colour within 40 is the grass.
        let mut t: Vec<Rgb> = (0..120).map(|k| [54, 72 + (k % 17) as u8, 34]).collect();
        t.extend((0..70).map(|k| [250 - (k % 3) as u8, 252, 250]));
        t.extend((0..66).map(|k| [30 + k as u8, 200, 30 + k as u8]));
        assert_eq!(dominant(t.iter().copied(), 4).0[1], 252);
        let (mode, n) = densest(&t, 40.0).unwrap();
        assert!(euclidean(mode, [54, 80, 34]) <= 20.0, "{mode:?}");
        assert_eq!(n, 120);
        assert_eq!(densest(&[], 40.0), None);
    }

    #[test]
    fn off_mix_is_zero_along_the_mix_and_grows_off_it() {
        let (a, b) = ([0xe5, 0xe7, 0xeb], [0xca, 0xcd, 0xd3]);
        assert_eq!(off_mix(Rgba([0xe5, 0xe7, 0xeb, 255]), a, b), 0.0);
        assert!(off_mix(Rgba([0xd8, 0xda, 0xdf, 255]), a, b) <= 1.0);
        // Past either end it is the distance to that end.
        assert!((off_mix(Rgba([0xf5, 0xf7, 0xfb, 255]), a, b) - 16.0).abs() < 1.5);
        assert!(off_mix(Rgba([0xf5, 0x9e, 0x0b, 255]), a, b) > 150.0);
    }

    #[test]
    fn distance_is_the_worst_channel() {
        assert_eq!(distance(Rgba([10, 20, 30, 255]), [12, 25, 29]), 5);
        assert!(near(Rgba([213, 213, 213, 0]), [213, 213, 213], 0));
        assert!(!near(Rgba([212, 213, 213, 255]), [213, 213, 213], 0));
    }

    #[test]
    fn blend_position_follows_the_mix() {
        let (a, b) = ([200, 200, 200], [100, 120, 140]);
        assert_eq!(
            blend_position(Rgba([200, 200, 200, 255]), a, b, 1.0),
            Some(0.0)
        );
        let half = blend_position(Rgba([150, 160, 170, 255]), a, b, 1.0).unwrap();
        assert!((half - 0.5).abs() < 0.01);
        assert_eq!(blend_position(Rgba([150, 200, 100, 255]), a, b, 5.0), None);
        assert_eq!(blend_position(Rgba([1, 2, 3, 255]), a, a, 5.0), None);
    }

    #[test]
    fn hue_saturation_and_dominant_colour() {
        assert_eq!(hue([255, 0, 0]), 0.0);
        assert!((hue([0, 255, 0]) - 120.0).abs() < 1e-9);
        assert!((hue([0, 0, 255]) - 240.0).abs() < 1e-9);
        assert_eq!(hue([90, 90, 90]), 0.0);
        assert_eq!(saturation([10, 200, 50]), 190);
        assert_eq!(euclidean([0, 3, 0], [4, 0, 0]), 5.0);
        assert_eq!(euclidean([0.0, 3.0, 0.0], [4.0, 0.0, 0.0]), 5.0);
        let samples = [[10, 10, 10], [12, 11, 10], [200, 0, 0]];
        assert_eq!(dominant(samples.iter().copied(), 4), ([11, 10, 10], 2));
        assert!(brightness(Rgba([0, 255, 0, 255])) > brightness(Rgba([255, 0, 0, 255])));
    }

    #[test]
    fn pixel_reads_clamp_to_the_picture() {
        let mut img = RgbaImage::new(2, 2);
        img.put_pixel(1, 1, Rgba([9, 8, 7, 255]));
        assert_eq!(pixel_at(&img, 5.0, 9.5), [9, 8, 7]);
        assert_eq!(pixel_at(&img, -3.0, 0.2), [0, 0, 0]);
    }

    #[test]
    fn bilinear_reads_blend_the_four_pixels_around() {
        let mut img = RgbaImage::from_pixel(2, 2, Rgba([0, 0, 0, 255]));
        img.put_pixel(1, 0, Rgba([100, 0, 0, 255]));
        img.put_pixel(1, 1, Rgba([100, 200, 0, 255]));
        // On a pixel centre: that pixel.
        assert_eq!(bilinear(&img, 1.0, 0.0), Some(Rgba([100, 0, 0, 255])));
        // Halfway across and down.
        assert_eq!(bilinear(&img, 0.5, 0.5), Some(Rgba([50, 50, 0, 255])));
        // The outer half pixel still reads its edge pixel; beyond it nothing.
        assert_eq!(bilinear(&img, 1.4, 1.4), Some(Rgba([100, 200, 0, 255])));
        assert_eq!(bilinear(&img, 1.6, 0.0), None);
        assert_eq!(bilinear(&img, 0.0, -0.6), None);
    }

    #[test]
    fn luma_and_red() {
        assert_eq!(luma(Rgba([255, 255, 255, 255])), 255);
        assert_eq!(luma(Rgba([0, 0, 0, 255])), 0);
        assert!(luma(Rgba([0, 255, 0, 255])) > luma(Rgba([255, 0, 0, 255])));
        assert!(is_red(Rgba([255, 64, 64, 255])));
        assert!(!is_red(Rgba([213, 213, 213, 255])));
        assert!(!is_red(Rgba([255, 200, 200, 255])));
    }
}
