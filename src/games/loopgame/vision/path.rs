//! The drawn path: which neighbouring cells its ink links, walked into one stroke, and where it
//! turns (the app counts numbers down by those turns).

use super::look::{faint_path_ink, path_ink};
use super::{pixel, region_of, Located};
use crate::error::{Error, Result};
use crate::games::loopgame::model::Cell;
use crate::screen::PixelPoint;
use image::RgbaImage;

/// Whether the path crosses the edge between two neighbouring cells: the 4-px line runs
/// straight through the middle 30% between their centres (corners round off within 0.35 of
/// a cell from a centre), so ink must cross the segment at each of three points there.
fn linked(img: &RgbaImage, l: &Located, a: Cell, b: Cell) -> bool {
    let g = &l.geometry;
    ink_between(img, l, g.centre(a[0], a[1]), g.centre(b[0], b[1]))
}

/// Whether path ink crosses the middle of the segment between two cell centres (see `linked`).
fn ink_between(img: &RgbaImage, l: &Located, pa: PixelPoint, pb: PixelPoint) -> bool {
    [0.4, 0.5, 0.6]
        .iter()
        .all(|&t| ink_across(img, l, pa, pb, t, path_ink))
}

/// Whether a faint grey line crosses between two cells not linked: a path stroke that a copy
/// shrunk to a few pixels a cell and enlarged again has blurred under the path's ink test. The
/// grid line between the cells lies along the middle probe, so only the outer two are asked.
fn faint_between(img: &RgbaImage, l: &Located, a: Cell, b: Cell) -> bool {
    let g = &l.geometry;
    let (pa, pb) = (g.centre(a[0], a[1]), g.centre(b[0], b[1]));
    [0.4, 0.6]
        .iter()
        .all(|&t| ink_across(img, l, pa, pb, t, faint_path_ink))
}

/// Whether `ink` crosses the segment from `pa` to `pb` at `t` of its length: looked for on a
/// short line across it, as wide as the path may wander.
fn ink_across(
    img: &RgbaImage,
    l: &Located,
    pa: PixelPoint,
    pb: PixelPoint,
    t: f64,
    ink: fn(image::Rgba<u8>, &super::look::Look) -> bool,
) -> bool {
    let (dx, dy) = (pb.x - pa.x, pb.y - pa.y);
    let len = (dx * dx + dy * dy).sqrt();
    let (nx, ny) = (-dy / len, dx / len);
    let half = (0.08 * l.geometry.pitch()).max(4.0);
    let (cx, cy) = (pa.x + t * dx, pa.y + t * dy);
    let steps = (2.0 * half).ceil() as i64;
    (0..=steps).any(|k| {
        let o = -half + k as f64;
        pixel(img, cx + o * nx, cy + o * ny).is_some_and(|p| ink(p, &l.look))
    })
}

/// The four steps to a neighbouring cell, (rows, columns): up, down, left, right.
const STEPS: [(i64, i64); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// The row and column one step from `cell` (either may be off the board), and that cell's
/// centre.
fn beside(l: &Located, cell: Cell, (dr, dc): (i64, i64)) -> ((i64, i64), PixelPoint) {
    let (c, p) = (l.geometry.centre(cell[0], cell[1]), l.geometry.pitch());
    let at = (cell[0] as i64 + dr, cell[1] as i64 + dc);
    let centre = PixelPoint {
        x: c.x + dc as f64 * p,
        y: c.y + dr as f64 * p,
    };
    (at, centre)
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
    refuse_path_off_the_board(img, l)?;
    for r in 0..n {
        for c in 0..n {
            for b in [[r, c + 1], [r + 1, c]] {
                let unlinked = b[0] < n && b[1] < n && !links[r * n + c].contains(&b);
                if unlinked && faint_between(img, l, [r, c], b) {
                    return Err(Error::vision(
                        Some(region_of(l.geometry.cell(r, c))),
                        format!(
                            "a faint grey line runs from row {r} col {c} to row {} col {}: \
                             too faint to tell as the path (a blurred copy?)",
                            b[0], b[1]
                        ),
                    ));
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
    let end_cells: Vec<Cell> = ends.iter().map(|&k| [k / n, k % n]).collect();
    refuse_bent_ends(img, l, &end_cells, &links)?;
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

/// The path never leaves the board: ink running from an outer cell across the board's edge
/// says the board found is part of a larger one (a tinted block of cells, say, that a
/// tutorial lights up), and the reading is refused.
fn refuse_path_off_the_board(img: &RgbaImage, l: &Located) -> Result<()> {
    let n = l.size as i64;
    for r in 0..l.size {
        for c in 0..l.size {
            for (d, side) in STEPS.into_iter().zip(["top", "bottom", "left", "right"]) {
                let ((to_r, to_c), to) = beside(l, [r, c], d);
                let off = to_r < 0 || to_c < 0 || to_r >= n || to_c >= n;
                if off && ink_between(img, l, l.geometry.centre(r, c), to) {
                    return Err(Error::vision(
                        Some(region_of(l.geometry.cell(r, c))),
                        format!(
                            "the path runs off the board's {side} edge at row {r} col {c}: \
                             the board found is part of a larger one"
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// An open end of the path stops at its cell's centre. One whose ink bends on toward a cell it
/// does not link is a stroke still being drawn: the app may already count that bend as a turn,
/// and its numbers with it, so the reading is refused.
fn refuse_bent_ends(
    img: &RgbaImage,
    l: &Located,
    ends: &[Cell],
    links: &[Vec<Cell>],
) -> Result<()> {
    let n = l.size;
    for &end in ends {
        let linked_to = links[end[0] * n + end[1]][0];
        let linked_to = (linked_to[0] as i64, linked_to[1] as i64);
        for d in STEPS {
            let (at, to) = beside(l, end, d);
            if at == linked_to {
                continue;
            }
            if ink_across(
                img,
                l,
                l.geometry.centre(end[0], end[1]),
                to,
                0.25,
                path_ink,
            ) {
                return Err(Error::vision(
                    Some(region_of(l.geometry.cell(end[0], end[1]))),
                    format!(
                        "the path's end at row {} col {} bends on into its cell: a stroke \
                         still being drawn",
                        end[0], end[1]
                    ),
                ));
            }
        }
    }
    Ok(())
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
