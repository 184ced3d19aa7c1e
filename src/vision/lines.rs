//! Thin lines drawn on a picture, found pixel by pixel from brightness: the masks a board's
//! grid is traced on when its lines are too faint or too varied in colour to be matched by a
//! colour test (a lossy copy, a glowing grid).

use super::components::{webs_of, Component};

/// Both masks of thin lines on one brightness map: pixels on a vertical line (bright across x)
/// and on a horizontal one (bright across y).
pub struct LineMasks {
    pub width: usize,
    pub vertical: Vec<bool>,
    pub horizontal: Vec<bool>,
}

impl LineMasks {
    /// The lines at least `contrast` brighter than what lies within `reach` on both sides
    /// (see `thin_lines`).
    pub fn find(lum: &[i16], width: usize, reach: usize, contrast: i16) -> LineMasks {
        LineMasks {
            width,
            vertical: thin_lines(lum, width, true, reach, contrast),
            horizontal: thin_lines(lum, width, false, reach, contrast),
        }
    }

    pub fn height(&self) -> usize {
        self.vertical.len().checked_div(self.width).unwrap_or(0)
    }

    /// One of the two masks: the vertical lines' or the horizontal lines'.
    pub fn mask(&self, vertical: bool) -> &[bool] {
        if vertical {
            &self.vertical
        } else {
            &self.horizontal
        }
    }

    /// Whether (x, y) is on a line of the chosen mask; outside the map is never.
    pub fn at(&self, vertical: bool, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && (x as usize) < self.width
            && (y as usize) < self.height()
            && self.mask(vertical)[y as usize * self.width + x as usize]
    }

    /// Drops the line pixels whose index fails `keep` from both masks.
    pub fn retain(&mut self, keep: impl Fn(usize) -> bool) {
        for mask in [&mut self.vertical, &mut self.horizontal] {
            for (i, on) in mask.iter_mut().enumerate() {
                *on = *on && keep(i);
            }
        }
    }

    /// The webs the two masks draw together (a grid is one), at least `min_side` pixels each
    /// way, biggest box first.
    pub fn webs(&self, min_side: usize) -> Vec<Component> {
        let mut webs: Vec<Component> = webs_of(&self.vertical, &self.horizontal, self.width)
            .into_iter()
            .filter(|c| c.x1 - c.x0 + 1 >= min_side && c.y1 - c.y0 + 1 >= min_side)
            .collect();
        webs.sort_by_key(|c| std::cmp::Reverse((c.x1 - c.x0 + 1) * (c.y1 - c.y0 + 1)));
        webs
    }
}

/// Thin bright lines, pixel by pixel: whether each pixel of a `width`-wide brightness map is at
/// least `contrast` brighter than the darkest pixel within `reach` on each side, across x (so
/// it lies on a vertical line) or across y (a horizontal one). A side beyond the picture counts
/// as dark, so a line drawn on the picture's very edge is still one. Wide shapes (discs, bars,
/// glows) are not: one of their sides stays bright for more than `reach`.
pub fn thin_lines(
    lum: &[i16],
    width: usize,
    across_x: bool,
    reach: usize,
    contrast: i16,
) -> Vec<bool> {
    let height = lum.len().checked_div(width).unwrap_or(0);
    let mut out = vec![false; lum.len()];
    if height == 0 || reach == 0 {
        return out;
    }
    // `ahead[i]`: the darkest of the `reach` pixels from i on along the axis (fewer at the far
    // edge), built with whole-row minima so a full-screen capture costs a few passes.
    let mut ahead = lum.to_vec();
    let dark = i32::from(i16::MIN);
    if across_x {
        for row in ahead.chunks_mut(width).zip(lum.chunks(width)) {
            let (a, l) = row;
            for k in 1..reach.min(width) {
                for (d, &v) in a[..width - k].iter_mut().zip(&l[k..]) {
                    *d = (*d).min(v);
                }
            }
        }
    } else {
        for k in 1..reach.min(height) {
            for y in 0..height - k {
                let (a, l) = (
                    &mut ahead[y * width..(y + 1) * width],
                    &lum[(y + k) * width..(y + k + 1) * width],
                );
                for (d, &v) in a.iter_mut().zip(l) {
                    *d = (*d).min(v);
                }
            }
        }
    }
    let (step, len) = if across_x {
        (1, width)
    } else {
        (width, height)
    };
    for (i, &v) in lum.iter().enumerate() {
        // Most of a picture is darker than any line could stand out from.
        if v < contrast {
            continue;
        }
        let pos = if across_x { i % width } else { i / width };
        let before = if pos >= reach {
            i32::from(ahead[i - reach * step])
        } else {
            // Near the first edge: the pixels there are, or none.
            (1..=pos)
                .map(|k| i32::from(lum[i - k * step]))
                .min()
                .unwrap_or(dark)
        };
        let after = if pos + 1 < len {
            i32::from(ahead[i + step])
        } else {
            dark
        };
        out[i] = i32::from(v) - before.max(after) >= i32::from(contrast);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thin_lines_are_found_on_edges_and_wide_bars_are_not() {
        // A 1 px line at x = 0, a 3 px line at x = 10..=12, a 12 px bar at x = 20..=31.
        let width = 40;
        let row: Vec<i16> = (0..width)
            .map(|x| match x {
                0 | 10..=12 | 20..=31 => 100,
                _ => 10,
            })
            .collect();
        let lum: Vec<i16> = (0..5).flat_map(|_| row.iter().copied()).collect();
        let v = thin_lines(&lum, width, true, 4, 20);
        let on: Vec<usize> = (0..width).filter(|&x| v[x]).collect();
        assert_eq!(on, vec![0, 10, 11, 12]);
        // Across y nothing changes: no horizontal line.
        assert!(!thin_lines(&lum, width, false, 4, 20)[2 * width + 10]);
    }

    #[test]
    fn a_cross_of_lines_is_one_web_and_reads_from_both_masks() {
        // A 30×30 dark map with a bright vertical line at x = 10 and a horizontal one at y = 20.
        let width = 30;
        let lum: Vec<i16> = (0..width * width)
            .map(|i| {
                if i % width == 10 || i / width == 20 {
                    120
                } else {
                    10
                }
            })
            .collect();
        let mut masks = LineMasks::find(&lum, width, 3, 40);
        assert_eq!(masks.height(), 30);
        assert!(masks.at(true, 10, 5) && !masks.at(true, 11, 5));
        assert!(masks.at(false, 3, 20) && !masks.at(false, 3, 21));
        assert!(!masks.at(true, -1, 5) && !masks.at(true, 10, 30));
        let webs = masks.webs(20);
        assert_eq!(webs.len(), 1);
        assert_eq!(
            (webs[0].x0, webs[0].x1, webs[0].y0, webs[0].y1),
            (0, 29, 0, 29)
        );
        assert!(masks.webs(31).is_empty());
        masks.retain(|i| i / width < 15);
        assert!(masks.at(true, 10, 5) && !masks.at(true, 10, 25) && !masks.at(false, 3, 20));
    }
}
