//! Connected components of a boolean mask (4-connected).

/// One component: its pixel count and inclusive bounding box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Component {
    pub count: usize,
    pub x0: usize,
    pub y0: usize,
    pub x1: usize,
    pub y1: usize,
}

/// Every 4-connected component of the `true` cells of a row-major `width`-wide mask.
pub fn components(mask: &[bool], width: usize) -> Vec<Component> {
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
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut cs = components(&mask, 4);
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
        assert!(components(&[], 0).is_empty());
    }
}
