//! Pipes already drawn: a thick bar of a flow's colour from one cell centre to the next. Each
//! pair of neighbouring cells is looked at across the edge between them: a pipe shows its
//! paint all the way from 0.3 to 0.7 of the way (over the grid line), and the cell background
//! beside it (it is a bar, not a filled area); a pixel of grid line across it at the edge, a
//! rounding seam of a zoomed page, does not break it (`seam`). The bars of each colour then
//! chain into a path from one of that colour's endpoints.

use super::confidence::Weakest;
use super::discs::CellLook;
use super::seam;
use super::sites::Sites;
use crate::error::{Error, Result};
use crate::vision::color::{euclidean, Colour};
use crate::vision::sample::{block_side, hex, mean, median};

/// Samples along the way between two centres, as shares of it.
const ALONG: [f64; 5] = [0.3, 0.4, 0.5, 0.6, 0.7];
/// The one of them on the edge between the cells.
const EDGE: usize = 2;
/// Beside the bar at the edge, in pitches off its axis: past its half width (0.13).
const BESIDE: f64 = 0.3;
pub(super) const SAME: f64 = 45.0;
pub(super) const CONTRAST: f64 = 70.0;
/// A bar's paint is its flow's when this near to it and at most this share of the way to the
/// next flow's colour.
const NEAR_FLOW: f64 = 60.0;
const SURE_RATIO: f64 = 0.15;
const NO_RATIO: f64 = 0.6;

/// A pipe between two neighbouring cells, `[row, col]` each, of one flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bar {
    pub a: [usize; 2],
    pub b: [usize; 2],
    pub flow: usize,
}

/// Paint running from one cell centre towards a neighbour's, not yet tagged with a flow.
#[derive(Debug, Clone, Copy)]
pub struct Found {
    pub a: [usize; 2],
    pub b: [usize; 2],
    pub paint: Colour,
}

/// Every bar between neighbouring board cells, whatever its colour.
pub fn find(img: &image::RgbaImage, board: &Sites, looks: &[CellLook]) -> Vec<Found> {
    let p = board.pitch;
    let side = block_side(p);
    let mut out = Vec::new();
    for &([r, c], [r2, c2]) in &board.neighbours {
        let (pa, pb) = (board.centre(r, c), board.centre(r2, c2));
        // Across the bar: the unit normal to the way between the centres.
        let len = (pb.x - pa.x).hypot(pb.y - pa.y).max(1e-9);
        let (nx, ny) = (-(pb.y - pa.y) / len, (pb.x - pa.x) / len);
        let at = |t: f64, off: f64| {
            mean(
                img,
                pa.x + (pb.x - pa.x) * t + nx * off * p,
                pa.y + (pb.y - pa.y) * t + ny * off * p,
                side,
            )
        };
        let along: Vec<Colour> = ALONG.iter().map(|&t| at(t, 0.0)).collect();
        let paint = median(&along);
        let ground = looks[r * board.cols + c].background;
        let ground2 = looks[r2 * board.cols + c2].background;
        if euclidean(paint, ground).min(euclidean(paint, ground2)) < CONTRAST
            || [-BESIDE, BESIDE]
                .iter()
                .any(|&o| euclidean(at(0.5, o), paint) <= SAME)
        {
            continue;
        }
        let broken: Vec<usize> = (0..along.len())
            .filter(|&k| euclidean(along[k], paint) > SAME)
            .collect();
        // Only the sample at the edge may be off, and only for a seam of grid line there.
        let seam = || seam::only_a_seam(img, pa, pb, p, paint, ground, SAME);
        if !(broken.is_empty() || broken == [EDGE] && seam()) {
            continue;
        }
        out.push(Found {
            a: [r, c],
            b: [r2, c2],
            paint,
        });
    }
    out
}

/// The bars tagged with their flows; `colours` are the flows'.
pub fn tag(
    found: &[Found],
    board: &Sites,
    colours: &[Colour],
    weakest: &mut Weakest,
) -> Result<Vec<Bar>> {
    let mut out = Vec::new();
    for &Found { a, b, paint } in found {
        let ([r, c], [r2, c2]) = (a, b);
        let mut by_near: Vec<(f64, usize)> = colours
            .iter()
            .enumerate()
            .map(|(k, &f)| (euclidean(paint, f), k))
            .collect();
        by_near.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (d1, flow) = by_near[0];
        let d2 = by_near.get(1).map_or(f64::INFINITY, |x| x.0);
        let ratio = d1 / d2.max(1e-9);
        let region = Some(board.region(r, c));
        let what = format!(
            "the pipe from ({r}, {c}) to ({r2}, {c2}) ({}) is {d1:.0} off its nearest flow \
                     colour and {d2:.0} off the next",
            hex(paint)
        );
        if d1 > NEAR_FLOW || ratio >= NO_RATIO {
            return Err(Error::vision(
                region,
                format!("{what}: no endpoint has its colour"),
            ));
        }
        weakest.note((NO_RATIO - ratio) / (NO_RATIO - SURE_RATIO), region, what);
        out.push(Bar { a, b, flow });
    }
    Ok(out)
}

/// The bars as paths: each flow's bars, followed from an endpoint of that flow, as the cells
/// `[row, col]` they pass in order. A path joining both endpoints starts at `ends[0]`. Bars
/// that branch, pass another flow's endpoint or reach no endpoint of their own are refused.
pub fn paths(
    bars: &[Bar],
    ends: &[[[usize; 2]; 2]],
    board: &Sites,
) -> Result<Vec<(usize, Vec<[usize; 2]>)>> {
    let key = |cell: [usize; 2]| cell[0] * board.cols + cell[1];
    let mut at: Vec<Vec<usize>> = vec![Vec::new(); board.rows * board.cols];
    for (k, bar) in bars.iter().enumerate() {
        at[key(bar.a)].push(k);
        at[key(bar.b)].push(k);
    }
    let endpoint_of = |cell: [usize; 2]| ends.iter().position(|e| e.contains(&cell));
    for (cell_key, here) in at.iter().enumerate() {
        let cell = [cell_key / board.cols, cell_key % board.cols];
        let region = Some(board.region(cell[0], cell[1]));
        let limit = if endpoint_of(cell).is_some() { 1 } else { 2 };
        if here.len() > limit {
            return Err(Error::vision(
                region,
                format!(
                    "cell ({}, {}): {} pipes meet there, a pipe passes at most two",
                    cell[0],
                    cell[1],
                    here.len()
                ),
            ));
        }
        if let Some(f) = endpoint_of(cell) {
            if let Some(&k) = here.first() {
                if bars[k].flow != f {
                    return Err(Error::vision(
                        region,
                        format!(
                            "cell ({}, {}): a pipe of another colour ends on this endpoint",
                            cell[0], cell[1]
                        ),
                    ));
                }
            }
        }
        if here.len() == 2 && bars[here[0]].flow != bars[here[1]].flow {
            return Err(Error::vision(
                region,
                format!(
                    "cell ({}, {}): pipes of two colours meet there",
                    cell[0], cell[1]
                ),
            ));
        }
    }
    let mut used = vec![false; bars.len()];
    let mut out = Vec::new();
    for (f, pair) in ends.iter().enumerate() {
        for &start in pair {
            let Some(&first) = at[key(start)].first() else {
                continue;
            };
            if used[first] {
                continue;
            }
            let mut cells = vec![start];
            let mut cur = start;
            let mut via = first;
            loop {
                used[via] = true;
                let bar = bars[via];
                cur = if bar.a == cur { bar.b } else { bar.a };
                cells.push(cur);
                match at[key(cur)].iter().find(|&&k| !used[k]) {
                    Some(&k) => via = k,
                    None => break,
                }
            }
            out.push((f, cells));
        }
    }
    if let Some(k) = used.iter().position(|&u| !u) {
        let bar = bars[k];
        return Err(Error::vision(
            Some(board.region(bar.a[0], bar.a[1])),
            format!(
                "the pipe from ({}, {}) to ({}, {}) reaches no endpoint of its colour",
                bar.a[0], bar.a[1], bar.b[0], bar.b[1]
            ),
        ));
    }
    Ok(out)
}
