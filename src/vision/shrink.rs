//! A big picture looked at smaller: each block of `factor`×`factor` pixels becomes its mean.
//! Readers tuned on ordinary screens (thin lines a few pixels wide, a reach of a few pixels
//! either side) meet the same shapes again on a high-density screen or an enlarged copy once
//! it is shrunk by a whole factor, and read a quarter of the pixels at half the size. What is
//! found on the shrunk copy is mapped back with [`to_full`] and measured on the picture itself.

use image::RgbaImage;

/// The picture with every `factor`×`factor` block replaced by its mean colour. Blocks cut by
/// the right or bottom edge are the mean of the pixels there, so a line on the picture's last
/// pixel is still on the shrunk copy's. A factor of 0 or 1 is a copy; factors over 257 are taken as 257.
pub fn shrink(img: &RgbaImage, factor: u32) -> RgbaImage {
    // Column sums of k rows are kept in 16 bits: k × 255 must fit.
    let k = factor.clamp(1, 257);
    if k == 1 {
        return img.clone();
    }
    let (w, h) = (img.width(), img.height());
    let (sw, sh) = (w.div_ceil(k), h.div_ceil(k));
    let raw = img.as_raw();
    let mut out = RgbaImage::new(sw, sh);
    // One output row at a time: the k picture rows under it summed byte by byte first (a
    // loop the compiler turns into vector adds), then each block's k pixels across.
    let mut column_sums = vec![0u16; w as usize * 4];
    let mut sums = vec![0u32; sw as usize * 4];
    let (ku, wu) = (k as usize, w as usize);
    for oy in 0..sh {
        column_sums.fill(0);
        let rows = (oy * k)..((oy + 1) * k).min(h);
        let tall = rows.len() as u32;
        for y in rows {
            let line = &raw[y as usize * wu * 4..(y as usize + 1) * wu * 4];
            for (a, &b) in column_sums.iter_mut().zip(line) {
                *a += u16::from(b);
            }
        }
        for (block, s) in column_sums.chunks(ku * 4).zip(sums.chunks_exact_mut(4)) {
            s.fill(0);
            for px in block.chunks_exact(4) {
                for ch in 0..4 {
                    s[ch] += u32::from(px[ch]);
                }
            }
        }
        // A multiplication per channel, not a division: divisions cost more than the sums.
        let per = |wide: u32| 1.0 / (wide * tall) as f32;
        let full = per(k);
        let row =
            &mut out.as_mut()[oy as usize * sw as usize * 4..(oy as usize + 1) * sw as usize * 4];
        for (ox, (px, s)) in row
            .chunks_exact_mut(4)
            .zip(sums.chunks_exact(4))
            .enumerate()
        {
            let wide = (w - ox as u32 * k).min(k);
            let scale = if wide == k { full } else { per(wide) };
            for (p, &v) in px.iter_mut().zip(s) {
                *p = (v as f32 * scale + 0.5) as u8;
            }
        }
    }
    out
}

/// A position on the copy shrunk by `factor` (pixel index along one axis, fractions allowed)
/// as a position on the picture: the middle of the block that pixel stands for.
pub fn to_full(at: f64, factor: u32) -> f64 {
    let k = f64::from(factor.max(1));
    at * k + (k - 1.0) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    #[test]
    fn blocks_become_their_mean_and_edge_blocks_keep_their_pixels() {
        // 5×3: a white column at x = 4 (the last pixel), a grey 2×2 block at the origin.
        let img = RgbaImage::from_fn(5, 3, |x, y| match (x, y) {
            (4, _) => Rgba([255, 255, 255, 255]),
            (0..=1, 0..=1) => Rgba([100, 50, 0, 255]),
            _ => Rgba([0, 0, 0, 255]),
        });
        let small = shrink(&img, 2);
        assert_eq!((small.width(), small.height()), (3, 2));
        assert_eq!(small.get_pixel(0, 0).0, [100, 50, 0, 255]);
        assert_eq!(small.get_pixel(1, 0).0, [0, 0, 0, 255]);
        // The cut-off last column is the white line alone, in both rows of blocks.
        assert_eq!(small.get_pixel(2, 0).0, [255, 255, 255, 255]);
        assert_eq!(small.get_pixel(2, 1).0, [255, 255, 255, 255]);
        assert_eq!(shrink(&img, 1), img);
        // Means round to the nearest level: 10 and 11 side by side make 11 (10.5 up).
        let stripes = RgbaImage::from_fn(6, 6, |x, _| Rgba([10 + (x % 2) as u8, 0, 0, 255]));
        let small = shrink(&stripes, 3);
        assert_eq!((small.width(), small.height()), (2, 2));
        // Blocks of three columns 10, 11, 10 and 11, 10, 11: 10.33 and 10.67.
        assert_eq!(small.get_pixel(0, 1).0, [10, 0, 0, 255]);
        assert_eq!(small.get_pixel(1, 1).0, [11, 0, 0, 255]);
        assert_eq!(shrink(&stripes, 2).get_pixel(2, 2).0, [11, 0, 0, 255]);
    }

    #[test]
    fn positions_map_back_to_the_middle_of_their_block() {
        assert_eq!(to_full(0.0, 2), 0.5);
        assert_eq!(to_full(3.0, 3), 10.0);
        assert_eq!(to_full(7.25, 1), 7.25);
        // A line 2 px wide at x = 10..=11 shrinks to pixel 5; its middle is 10.5 either way.
        assert_eq!(to_full(5.0, 2), 10.5);
    }
}
