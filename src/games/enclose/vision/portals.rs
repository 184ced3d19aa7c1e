//! Portal tiles come in pairs of one colour; a pair is two tiles whose swirl colours are
//! clearly closer to each other than to any other portal's.

use super::tiles::Class;
use super::Board;
use crate::error::{Error, Result};
use crate::vision::color::{euclidean, Rgb};

/// Portal characters in row-major order of first appearance; the two tiles of a pair share a
/// colour that is clearly closer to each other than to any other portal.
pub(super) fn pair_portals(class: &[Class], cols: usize, board: &Board) -> Result<Vec<char>> {
    let portals: Vec<(usize, Rgb)> = class
        .iter()
        .enumerate()
        .filter_map(|(k, c)| match c {
            Class::Portal(rgb) => Some((k, *rgb)),
            _ => None,
        })
        .collect();
    let mut labels = vec!['?'; class.len()];
    let err = |k: usize, msg: String| {
        Error::vision(
            Some(board.tile_region(k / cols, k % cols)),
            format!("portal at row {} col {}: {msg}", k / cols, k % cols),
        )
    };
    let mut partner = vec![usize::MAX; portals.len()];
    for i in 0..portals.len() {
        let mut d: Vec<(f64, usize)> = (0..portals.len())
            .filter(|&j| j != i)
            .map(|j| (euclidean(portals[i].1, portals[j].1), j))
            .collect();
        d.sort_by(|a, b| a.0.total_cmp(&b.0));
        let Some(&(d0, j)) = d.first() else {
            return Err(err(portals[i].0, "no partner of its colour".into()));
        };
        if let Some(&(d1, _)) = d.get(1) {
            if d0 > 0.6 * d1 {
                return Err(err(
                    portals[i].0,
                    format!("colour {:?} matches several portals", portals[i].1),
                ));
            }
        }
        partner[i] = j;
    }
    const NAMES: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut next = 0;
    for i in 0..portals.len() {
        let j = partner[i];
        if partner[j] != i {
            return Err(err(
                portals[i].0,
                "its colour pairs with no single tile".into(),
            ));
        }
        if labels[portals[i].0] == '?' {
            let Some(&ch) = NAMES.get(next) else {
                return Err(err(
                    portals[i].0,
                    "more portal pairs than characters".into(),
                ));
            };
            labels[portals[i].0] = ch as char;
            labels[portals[j].0] = ch as char;
            next += 1;
        }
    }
    Ok(labels)
}
