//! Connected components of a boolean mask, with their sizes and bounding boxes.

use crate::rect::Rect;

/// One component: its pixel count and inclusive bounding box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Component {
    pub count: usize,
    pub x0: usize,
    pub y0: usize,
    pub x1: usize,
    pub y1: usize,
}

impl Component {
    /// The component's box from its first to its last pixel, as a region to name in a message.
    pub fn rect(&self) -> Rect<i32> {
        Rect {
            x: self.x0 as i32,
            y: self.y0 as i32,
            w: (self.x1 - self.x0) as i32,
            h: (self.y1 - self.y0) as i32,
        }
    }

    /// The corners of a component found on a coarse mask (one cell per `k`×`k` pixels), in
    /// pixels; `count` stays in coarse cells.
    pub fn corners_scaled(self, k: usize) -> Component {
        Component {
            count: self.count,
            x0: self.x0 * k,
            y0: self.y0 * k,
            x1: self.x1 * k,
            y1: self.y1 * k,
        }
    }
}

/// Which neighbours join a component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Connectivity {
    /// Left, right, up, down: shapes that touch only at a corner stay apart.
    Four,
    /// The diagonals too: the pieces of an antialiased stroke stay together.
    Eight,
}

/// Every component of the `true` cells of a row-major `width`-wide mask, in the order of
/// their first cell.
pub fn components(mask: &[bool], width: usize, connectivity: Connectivity) -> Vec<Component> {
    // One copy of the fill per connectivity: the choice stays out of the per-pixel loop.
    match connectivity {
        Connectivity::Four => fill_all::<false>(mask, width),
        Connectivity::Eight => fill_all::<true>(mask, width),
    }
}

fn fill_all<const EIGHT: bool>(mask: &[bool], width: usize) -> Vec<Component> {
    if width == 0 {
        return Vec::new();
    }
    let height = mask.len() / width;
    let mut seen = vec![false; mask.len()];
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for start in 0..mask.len() {
        if !mask[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let (sx, sy) = (start % width, start / width);
        let mut c = Component {
            count: 0,
            x0: sx,
            y0: sy,
            x1: sx,
            y1: sy,
        };
        while let Some(i) = stack.pop() {
            let (x, y) = (i % width, i / width);
            c.count += 1;
            c.x0 = c.x0.min(x);
            c.x1 = c.x1.max(x);
            c.y0 = c.y0.min(y);
            c.y1 = c.y1.max(y);
            let mut visit = |j: usize| {
                if mask[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            };
            if EIGHT {
                for ny in y.saturating_sub(1)..(y + 2).min(height) {
                    for nx in x.saturating_sub(1)..(x + 2).min(width) {
                        visit(ny * width + nx);
                    }
                }
            } else {
                if x > 0 {
                    visit(i - 1);
                }
                if x + 1 < width {
                    visit(i + 1);
                }
                if y > 0 {
                    visit(i - width);
                }
                if y + 1 < height {
                    visit(i + width);
                }
            }
        }
        out.push(c);
    }
    out
}

/// The 8-connected pieces of what either of two masks of one width sets: a picture's upright
/// and level line ridges joined into the webs a board's grid draws.
pub fn webs_of(upright: &[bool], level: &[bool], width: usize) -> Vec<Component> {
    let either: Vec<bool> = upright.iter().zip(level).map(|(&a, &b)| a || b).collect();
    components(&either, width, Connectivity::Eight)
}

/// The 4-connected areas of the points passing `test(x, y)` among every `step`-th pixel of a
/// `width`×`height` picture, boxes in pixels, accurate to `step`: a board's rough extent at a
/// fraction of the cost of every pixel.
pub fn sampled_areas(
    (width, height): (u32, u32),
    step: usize,
    test: impl Fn(usize, usize) -> bool,
) -> Vec<Component> {
    let step = step.max(1);
    let (w, h) = (width as usize / step, height as usize / step);
    let mask: Vec<bool> = (0..w * h)
        .map(|i| test((i % w) * step, (i / w) * step))
        .collect();
    components(&mask, w, Connectivity::Four)
        .into_iter()
        .map(|c| c.corners_scaled(step))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampled_areas_are_boxes_in_pixels() {
        // A 40×20 picture: a 12×8 block at (4, 4) and a lone pixel at (36, 16), sampled every
        // 4 pixels.
        let inside =
            |x: usize, y: usize| (4..16).contains(&x) && (4..12).contains(&y) || (x, y) == (36, 16);
        let mut areas = sampled_areas((40, 20), 4, inside);
        areas.sort_by_key(|c| c.count);
        assert_eq!(areas.len(), 2);
        assert_eq!((areas[0].x0, areas[0].y0, areas[0].count), (36, 16, 1));
        let block = areas[1];
        assert_eq!(block.count, 6);
        assert_eq!((block.x0, block.y0), (4, 4));
        assert!(
            block.x1 >= 12 && block.x1 < 16 && block.y1 >= 8 && block.y1 < 12,
            "{block:?}"
        );
    }

    #[test]
    fn an_upright_and_a_level_line_that_cross_are_one_web() {
        // 4×3: a column at x = 1 and a row at y = 2 cross; (3, 0) stands alone.
        let upright = [
            false, true, false, true, //
            false, true, false, false, //
            false, true, false, false,
        ];
        let level = [
            false, false, false, false, //
            false, false, false, false, //
            true, true, true, false,
        ];
        let webs = webs_of(&upright, &level, 4);
        assert_eq!(webs.len(), 2);
        assert_eq!((webs[0].count, webs[0].x0, webs[0].x1), (5, 0, 2));
        assert_eq!((webs[1].count, webs[1].x0, webs[1].y0), (1, 3, 0));
    }

    #[test]
    fn a_component_gives_its_box_and_scales_its_corners_not_its_count() {
        let c = Component {
            count: 3,
            x0: 1,
            y0: 2,
            x1: 4,
            y1: 5,
        };
        assert_eq!(
            c.rect(),
            Rect {
                x: 1,
                y: 2,
                w: 3,
                h: 3
            }
        );
        assert_eq!(
            c.corners_scaled(4),
            Component {
                count: 3,
                x0: 4,
                y0: 8,
                x1: 16,
                y1: 20
            }
        );
    }

    #[test]
    fn separates_diagonal_touches_and_measures_boxes() {
        let m = |s: &str| {
            s.chars()
                .filter(|c| !c.is_whitespace())
                .map(|c| c == '#')
                .collect::<Vec<_>>()
        };
        let mask = m("##..
                      .#..
                      ..##
                      ...#");
        let mut cs = components(&mask, 4, Connectivity::Four);
        cs.sort_by_key(|c| c.count);
        assert_eq!(cs.len(), 2);
        assert_eq!(
            cs[0],
            Component {
                count: 3,
                x0: 0,
                y0: 0,
                x1: 1,
                y1: 1
            }
        );
        assert_eq!(
            cs[1],
            Component {
                count: 3,
                x0: 2,
                y0: 2,
                x1: 3,
                y1: 3
            }
        );
        assert!(components(&[], 0, Connectivity::Four).is_empty());
        let joined = components(&mask, 4, Connectivity::Eight);
        assert_eq!(joined.len(), 1);
        assert_eq!((joined[0].count, joined[0].x1, joined[0].y1), (6, 3, 3));
    }
}
