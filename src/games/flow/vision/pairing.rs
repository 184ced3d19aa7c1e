//! Pairing the discs by colour, within the picture: palettes differ by device (the iPhone's
//! red is not Android's), so no colour is looked up; each disc's partner is the disc nearest
//! in colour, and that must be mutual and clearly nearer than any third disc.

use super::confidence::Weakest;
use super::discs::Disc;
use crate::error::{Error, Region, Result};
use crate::vision::color::euclidean;
use crate::vision::sample::hex;

/// A pair is sure when its two discs are at most this share of the way to the nearest other
/// disc; at half the way it is no pair.
const SURE_RATIO: f64 = 0.1;
const NO_RATIO: f64 = 0.5;

/// The discs in pairs (indices into `discs`), in order of each pair's first disc.
pub fn pair(
    discs: &[Disc],
    region: impl Fn(&Disc) -> Region,
    weakest: &mut Weakest,
) -> Result<Vec<[usize; 2]>> {
    let n = discs.len();
    let d = |i: usize, j: usize| euclidean(discs[i].colour, discs[j].colour);
    let nearest = |i: usize, but: &[usize]| {
        (0..n)
            .filter(|&j| j != i && !but.contains(&j))
            .min_by(|&a, &b| d(i, a).total_cmp(&d(i, b)))
    };
    let name = |i: usize| {
        format!(
            "endpoint at cell ({}, {}) ({})",
            discs[i].row,
            discs[i].col,
            hex(discs[i].colour)
        )
    };
    let mut partner = vec![None; n];
    for i in 0..n {
        let Some(j) = nearest(i, &[]) else {
            return Err(Error::vision(
                Some(region(&discs[i])),
                format!("{}: the only endpoint on the board", name(i)),
            ));
        };
        if nearest(j, &[]) != Some(i) {
            let k = nearest(j, &[]).expect("j has i at least");
            return Err(Error::vision(
                Some(region(&discs[i])),
                format!(
                    "{}: its colour has no one partner ({} is nearer to {})",
                    name(i),
                    name(j),
                    name(k)
                ),
            ));
        }
        partner[i] = Some(j);
    }
    let mut pairs = Vec::new();
    for (i, j) in partner.iter().enumerate() {
        let j = j.expect("every disc has a partner");
        if j < i {
            continue;
        }
        let third = [nearest(i, &[j]), nearest(j, &[i])]
            .into_iter()
            .flatten()
            .map(|k| d(i, k).min(d(j, k)))
            .fold(f64::INFINITY, f64::min);
        let ratio = d(i, j) / third.max(1e-9);
        let sure = (NO_RATIO - ratio) / (NO_RATIO - SURE_RATIO);
        weakest.note(
            sure,
            Some(region(&discs[i])),
            format!(
                "{} and its partner at ({}, {}) differ by {:.0}, another endpoint by only {:.0}: \
                 more than two endpoints of one colour?",
                name(i),
                discs[j].row,
                discs[j].col,
                d(i, j),
                third
            ),
        );
        if ratio >= NO_RATIO {
            return Err(Error::vision(
                Some(region(&discs[i])),
                format!(
                    "{}: more than two endpoints share its colour (partner ({}, {}) differs by \
                     {:.0}, another by {:.0})",
                    name(i),
                    discs[j].row,
                    discs[j].col,
                    d(i, j),
                    third
                ),
            ));
        }
        pairs.push([i, j]);
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rect::Rect;

    fn disc(row: usize, colour: [f64; 3]) -> Disc {
        Disc {
            row,
            col: 0,
            colour,
        }
    }

    fn at(_: &Disc) -> Region {
        Rect::new(0, 0, 1, 1)
    }

    #[test]
    fn pairs_by_colour_and_refuses_three_alike() {
        let red = [250.0, 10.0, 10.0];
        let red2 = [244.0, 16.0, 12.0];
        let orange = [250.0, 130.0, 0.0];
        let orange2 = [252.0, 126.0, 4.0];
        let discs = [
            disc(0, red),
            disc(1, orange),
            disc(2, orange2),
            disc(3, red2),
        ];
        let mut w = Weakest::new();
        assert_eq!(pair(&discs, at, &mut w).unwrap(), vec![[0, 3], [1, 2]]);
        assert!(w.confidence() > 0.9);

        let three = [disc(0, red), disc(1, red2), disc(2, [247.0, 12.0, 11.0])];
        let err = pair(&three, at, &mut Weakest::new())
            .unwrap_err()
            .to_string();
        assert!(err.contains("endpoint at cell ("), "{err}");

        let four = [
            disc(0, red),
            disc(1, red2),
            disc(2, [247.0, 12.0, 11.0]),
            disc(3, [249.0, 14.0, 13.0]),
        ];
        assert!(pair(&four, at, &mut Weakest::new()).is_err());
        // Two mutual pairs of one colour: each pair is no nearer to itself than to the other.
        let twins = [
            disc(0, red),
            disc(1, [250.0, 10.0, 12.0]),
            disc(2, [254.0, 10.0, 10.0]),
            disc(3, [254.0, 10.0, 12.0]),
        ];
        let err = pair(&twins, at, &mut Weakest::new())
            .unwrap_err()
            .to_string();
        assert!(err.contains("more than two endpoints"), "{err}");
    }
}
