//! Colour samples at sub-pixel points: a small block's mean, so one JPEG speck or an
//! antialiased rim pixel does not decide what a cell shows, and the per-channel median of
//! such means. (`color` holds the colour types, their distance and the whole-pixel tests.)

use image::RgbaImage;

use super::color::Colour;

/// The mean colour of the `side`×`side` block centred on (x, y), clamped to the picture.
pub fn mean(img: &RgbaImage, x: f64, y: f64, side: u32) -> Colour {
    let half = side as i64 / 2;
    let (w, h) = (img.width() as i64, img.height() as i64);
    let cx = (x.floor() as i64).clamp(0, w - 1);
    let cy = (y.floor() as i64).clamp(0, h - 1);
    let mut sum = [0.0; 3];
    let mut n: f64 = 0.0;
    for yy in (cy - half).max(0)..=(cy - half + side as i64 - 1).min(h - 1) {
        for xx in (cx - half).max(0)..=(cx - half + side as i64 - 1).min(w - 1) {
            let p = img.get_pixel(xx as u32, yy as u32);
            for (s, &c) in sum.iter_mut().zip(&p.0[..3]) {
                *s += c as f64;
            }
            n += 1.0;
        }
    }
    sum.map(|s| s / n.max(1.0))
}

/// The picture with every pixel replaced by the mean of the `side`×`side` block centred on
/// it (clamped to the picture, as [`mean`]): a lossy copy's ringing swings a few levels
/// either way from a flat colour, pixel by pixel, and a block's mean lands back near it.
pub fn box_mean(img: &RgbaImage, side: u32) -> RgbaImage {
    let (w, h) = img.dimensions();
    let half = side as i64 / 2;
    // Across first, kept as sums, then down: each pixel is read `2 × side` times, not side².
    let span =
        |c: i64, end: u32| (c - half).max(0)..=(c - half + side as i64 - 1).min(end as i64 - 1);
    let mut rows = vec![[0u32; 3]; (w * h) as usize];
    for y in 0..h {
        for x in 0..w {
            let mut s = [0u32; 3];
            for xx in span(x as i64, w) {
                let p = img.get_pixel(xx as u32, y).0;
                for c in 0..3 {
                    s[c] += p[c] as u32;
                }
            }
            rows[(y * w + x) as usize] = s;
        }
    }
    RgbaImage::from_fn(w, h, |x, y| {
        let ys = span(y as i64, h);
        let n = (ys.end() - ys.start() + 1) as u32 * span(x as i64, w).count() as u32;
        let mut s = [0u32; 3];
        for yy in ys {
            let r = rows[(yy as u32 * w + x) as usize];
            for c in 0..3 {
                s[c] += r[c];
            }
        }
        let m = s.map(|v| ((v + n / 2) / n) as u8);
        image::Rgba([m[0], m[1], m[2], 255])
    })
}

/// The per-channel median: a few samples off the shape (a rim, a crossing line) do not move it.
pub fn median(samples: &[Colour]) -> Colour {
    std::array::from_fn(|ch| {
        let mut v: Vec<f64> = samples.iter().map(|s| s[ch]).collect();
        v.sort_by(f64::total_cmp);
        if v.is_empty() {
            0.0
        } else {
            v[v.len() / 2]
        }
    })
}

/// The block side for a lattice of this pitch: about a twentieth of a cell, at least a pixel.
pub fn block_side(pitch: f64) -> u32 {
    ((pitch / 20.0).round() as u32).clamp(1, 7)
}

/// `#rrggbb`, for messages and JSON.
pub fn hex(c: Colour) -> String {
    let [r, g, b] = c.map(|v| v.round().clamp(0.0, 255.0) as u8);
    format!("#{r:02x}{g:02x}{b:02x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    #[test]
    fn block_means_clamp_and_medians_ignore_outliers() {
        let img = RgbaImage::from_fn(4, 4, |x, _| {
            if x < 2 {
                Rgba([0, 0, 0, 255])
            } else {
                Rgba([200, 100, 50, 255])
            }
        });
        assert_eq!(mean(&img, 3.5, 0.0, 1), [200.0, 100.0, 50.0]);
        assert_eq!(mean(&img, 2.0, 2.0, 2), [100.0, 50.0, 25.0]);
        assert_eq!(mean(&img, -9.0, 9.0, 1), [0.0, 0.0, 0.0]);
        let m = median(&[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [90.0, 0.0, 2.0]]);
        assert_eq!(m, [2.0, 1.0, 2.0]);
        assert_eq!(hex([255.0, 16.2, 0.0]), "#ff1000");
    }

    #[test]
    fn box_means_even_out_ringing_and_clamp_at_the_edges() {
        // Ringing about a grey of 100: +9 and -9 in alternate columns.
        let img = RgbaImage::from_fn(6, 3, |x, _| {
            let v = if x % 2 == 0 { 109 } else { 91 };
            Rgba([v, v, v, 255])
        });
        let m = box_mean(&img, 3);
        // Three columns hold two of one swing and one of the other: 100 ± 3.
        assert_eq!(m.get_pixel(2, 1).0, [97, 97, 97, 255]);
        assert_eq!(m.get_pixel(3, 1).0, [103, 103, 103, 255]);
        // The corner's block is the 2×2 inside the picture: 109, 91 twice each.
        assert_eq!(m.get_pixel(0, 0).0, [100, 100, 100, 255]);
        assert_eq!(box_mean(&img, 1), img);
    }
}
