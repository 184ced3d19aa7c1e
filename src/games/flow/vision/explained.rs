//! Nothing silently dropped: every board cell that is not an endpoint must be explained by
//! the bars found there. A cell no bar touches must be bare at its middle (a disc lost in
//! blur leaves its paint there); a cell one bar ends on is a pipe's head, which the apps
//! draw up to the middle and no further, so paint reaching the middle is needed and paint
//! going on towards another neighbour (a pipe into an endpoint that was not seen, or a bar
//! that was missed) is refused naming the cell it goes to. Each "nothing here" decision is
//! scored like every other call, so one lost near its line pulls the confidence down.

use super::confidence::Weakest;
use super::discs::CellLook;
use super::pipes::{Found, CONTRAST, SAME};
use super::sites::Sites;
use crate::error::{Error, Result};
use crate::vision::color::{euclidean, Colour};
use crate::vision::sample::{block_side, hex, mean};
use image::RgbaImage;

/// A bare middle this near its background is plainly bare; at [`CONTRAST`] it is paint.
const PLAIN: f64 = 35.0;
/// Where a pipe's head is looked for, in pitches from the cell's centre towards the cell the
/// bar comes from: inside the bar's end in every app (a round cap or a square end at the
/// middle).
const HEAD: f64 = 0.1;
/// Where paint going on past a head is looked for, as shares of the way to a neighbour's
/// centre: past the head's round cap (0.13) and the other bar's half width.
const ON: [f64; 2] = [0.3, 0.4];

/// Refuses the reading when a cell that is no endpoint shows paint its bars do not explain;
/// `disc_at` says which cells (row-major) hold an endpoint disc.
pub fn check(
    img: &RgbaImage,
    board: &Sites,
    looks: &[CellLook],
    disc_at: &[bool],
    found: &[Found],
    weakest: &mut Weakest,
) -> Result<()> {
    let p = board.pitch;
    let side = block_side(p);
    let key = |cell: [usize; 2]| cell[0] * board.cols + cell[1];
    let mut bars_at: Vec<Vec<usize>> = vec![Vec::new(); board.rows * board.cols];
    for (k, f) in found.iter().enumerate() {
        bars_at[key(f.a)].push(k);
        bars_at[key(f.b)].push(k);
    }
    let mut next_to: Vec<Vec<[usize; 2]>> = vec![Vec::new(); board.rows * board.cols];
    for &(a, b) in &board.neighbours {
        next_to[key(a)].push(b);
        next_to[key(b)].push(a);
    }
    let towards = |from: [usize; 2], to: [usize; 2], t: f64| -> Colour {
        let (pa, pb) = (board.centre(from[0], from[1]), board.centre(to[0], to[1]));
        mean(
            img,
            pa.x + (pb.x - pa.x) * t,
            pa.y + (pb.y - pa.y) * t,
            side,
        )
    };
    let steps = lattice_steps(board);
    for r in 0..board.rows {
        for c in 0..board.cols {
            let k = r * board.cols + c;
            if !board.present[k] || disc_at[k] {
                continue;
            }
            let region = Some(board.region(r, c));
            let look = looks[k];
            match bars_at[k].as_slice() {
                [] => {
                    let ink = euclidean(look.middle, look.background);
                    if ink >= CONTRAST {
                        return Err(Error::vision(
                            region,
                            format!(
                                "cell ({r}, {c}): paint ({}) at its middle, {ink:.0} off its \
                                 background, that is neither an endpoint disc nor a pipe",
                                hex(look.middle)
                            ),
                        ));
                    }
                    weakest.note(
                        (CONTRAST - ink) / (CONTRAST - PLAIN),
                        region,
                        format!(
                            "cell ({r}, {c}): taken as bare, its middle {ink:.0} off its \
                             background"
                        ),
                    );
                }
                [only] => {
                    let bar = found[*only];
                    let from = if bar.a == [r, c] { bar.b } else { bar.a };
                    let head = towards([r, c], from, HEAD);
                    let short = euclidean(head, bar.paint);
                    if short > SAME {
                        return Err(Error::vision(
                            region,
                            format!(
                                "cell ({r}, {c}): the pipe from ({}, {}) ends there short of \
                                 the middle, and there is no endpoint disc",
                                from[0], from[1]
                            ),
                        ));
                    }
                    for &to in next_to[k].iter().filter(|&&n| n != from) {
                        let on = ON
                            .iter()
                            .map(|&t| euclidean(towards([r, c], to, t), bar.paint))
                            .fold(0.0, f64::max);
                        let what = format!(
                            "cell ({}, {}): the pipe ending at ({r}, {c}) goes on towards it, \
                             yet neither a disc nor a pipe is read there",
                            to[0], to[1]
                        );
                        if on <= SAME {
                            return Err(Error::vision(Some(board.region(to[0], to[1])), what));
                        }
                        weakest.note((on - SAME) / SAME, Some(board.region(to[0], to[1])), what);
                    }
                    // Where no board cell lies beyond (the board's edge, a hole), paint going
                    // on says the board found is not all of it: a lost outer row or column
                    // whose pipe runs on out of the lattice.
                    let centre = board.centre(r, c);
                    let taken: Vec<[usize; 2]> = next_to[k].iter().copied().chain([from]).collect();
                    for &(dx, dy) in &steps {
                        let aimed = |n: &[usize; 2]| {
                            let q = board.centre(n[0], n[1]);
                            ((q.x - centre.x) / p - dx).abs() + ((q.y - centre.y) / p - dy).abs()
                                < 0.3
                        };
                        if taken.iter().any(aimed) {
                            continue;
                        }
                        let on = ON
                            .iter()
                            .map(|&t| {
                                let colour =
                                    mean(img, centre.x + dx * p * t, centre.y + dy * p * t, side);
                                euclidean(colour, bar.paint)
                            })
                            .fold(0.0, f64::max);
                        if on <= SAME {
                            return Err(Error::vision(
                                region,
                                format!(
                                    "cell ({r}, {c}): the pipe ending there runs on where no \
                                     board cell is read (a row or column of the board lost?)"
                                ),
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// The steps between neighbouring centres on this lattice, in pitches, both ways: four on a
/// square board, six on a hex one.
fn lattice_steps(board: &Sites) -> Vec<(f64, f64)> {
    let mut steps: Vec<(f64, f64)> = Vec::new();
    for &(a, b) in &board.neighbours {
        let (pa, pb) = (board.centre(a[0], a[1]), board.centre(b[0], b[1]));
        let (dx, dy) = ((pb.x - pa.x) / board.pitch, (pb.y - pa.y) / board.pitch);
        for d in [(dx, dy), (-dx, -dy)] {
            if !steps
                .iter()
                .any(|s| (s.0 - d.0).abs() + (s.1 - d.1).abs() < 0.3)
            {
                steps.push(d);
            }
        }
    }
    steps
}
