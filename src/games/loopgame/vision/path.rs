//! The drawn path: which neighbouring cells its ink links, walked into one stroke, and where it
//! turns (the app counts numbers down by those turns).

use super::look::path_ink;
use super::{pixel, region_of, Located};
use crate::error::{Error, Result};
use crate::games::loopgame::model::Cell;
use image::RgbaImage;

/// Whether the path crosses the edge between two neighbouring cells: the 4-px line runs
/// straight through the middle 30% between their centres (corners round off within 0.35 of
/// a cell from a centre), so ink must cross the segment at each of three points there.
fn linked(img: &RgbaImage, l: &Located, a: Cell, b: Cell) -> bool {
    let g = &l.geometry;
    let (pa, pb) = (g.centre(a[0], a[1]), g.centre(b[0], b[1]));
    let (dx, dy) = (pb.x - pa.x, pb.y - pa.y);
    let len = (dx * dx + dy * dy).sqrt();
    let (nx, ny) = (-dy / len, dx / len);
    let half = (0.08 * g.pitch()).max(4.0);
    [0.4, 0.5, 0.6].iter().all(|&t| {
        let (cx, cy) = (pa.x + t * dx, pa.y + t * dy);
        let steps = (2.0 * half).ceil() as i64;
        (0..=steps).any(|k| {
            let o = -half + k as f64;
            pixel(img, cx + o * nx, cy + o * ny).is_some_and(|p| path_ink(p, &l.look))
        })
    })
}

/// The drawn path from the links between cells; several strokes or a branch are refused.
pub(super) fn read_path(img: &RgbaImage, l: &Located) -> Result<(Vec<Cell>, bool)> {
    let n = l.size;
    let mut links: Vec<Vec<Cell>> = vec![Vec::new(); n * n];
    for r in 0..n {
        for c in 0..n {
            for b in [[r, c + 1], [r + 1, c]] {
                if b[0] < n && b[1] < n && linked(img, l, [r, c], b) {
                    links[r * n + c].push(b);
                    links[b[0] * n + b[1]].push([r, c]);
                }
            }
        }
    }
    let board = region_of(l.geometry.board);
    if let Some(k) = (0..n * n).find(|&k| links[k].len() > 2) {
        return Err(Error::vision(
            Some(region_of(l.geometry.cell(k / n, k % n))),
            format!(
                "the path branches at row {} col {}: {} links",
                k / n,
                k % n,
                links[k].len()
            ),
        ));
    }
    let on: Vec<usize> = (0..n * n).filter(|&k| !links[k].is_empty()).collect();
    let Some(&first) = on.first() else {
        return Ok((Vec::new(), false));
    };
    let ends: Vec<usize> = on
        .iter()
        .copied()
        .filter(|&k| links[k].len() == 1)
        .collect();
    let closed = ends.is_empty();
    let start = if closed { first } else { ends[0] };
    let mut path = vec![[start / n, start % n]];
    let mut prev: Option<Cell> = None;
    loop {
        let cur = *path.last().unwrap();
        let mut next: Vec<Cell> = links[cur[0] * n + cur[1]]
            .iter()
            .copied()
            .filter(|&c| Some(c) != prev)
            .collect();
        next.sort();
        let Some(&step) = next.first() else { break };
        if step == path[0] {
            break;
        }
        prev = Some(cur);
        path.push(step);
        if path.len() > n * n {
            break;
        }
    }
    if path.len() != on.len() {
        return Err(Error::vision(
            Some(board),
            format!(
                "the drawn lines are not one path: {} cells linked, {} of them on one stroke",
                on.len(),
                path.len()
            ),
        ));
    }
    Ok((path, closed))
}

/// Whether the path turns in each cell (row-major): a cell with two links at right angles.
/// Open ends and straight runs do not count, as in the app.
pub(super) fn path_turns(n: usize, path: &[Cell], closed: bool) -> Vec<bool> {
    let mut turns = vec![false; n * n];
    let m = path.len();
    if m < 3 {
        return turns;
    }
    for k in 0..m {
        if !closed && (k == 0 || k == m - 1) {
            continue;
        }
        let (p, c, q) = (path[(k + m - 1) % m], path[k], path[(k + 1) % m]);
        turns[c[0] * n + c[1]] = p[0] != q[0] && p[1] != q[1];
    }
    turns
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_count_only_corners_inside_the_path() {
        // An L of three cells turns once, in its middle; an open end never turns.
        let t = path_turns(3, &[[0, 0], [1, 0], [1, 1]], false);
        assert_eq!(t.iter().filter(|&&v| v).count(), 1);
        assert!(t[3]);
        // The 2×2 ring turns in all four cells.
        let ring = [[0, 0], [0, 1], [1, 1], [1, 0]];
        assert_eq!(path_turns(2, &ring, true), vec![true; 4]);
    }
}
