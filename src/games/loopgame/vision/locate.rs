//! Finding the board: each flat area of the board colour is tried for a lattice from its grid
//! lines, then from its edges and numbers.

use super::board::{board_or_grid, COARSE, MIN_BOARD};
use super::lattice_edges::lattice_by_edges;
use super::lattice_lines::lattice;
use super::look::{DARK, LIGHT};
use super::Located;
use crate::error::{Error, Result};
use crate::vision::components::sampled_areas;
use image::RgbaImage;

/// Finds the board: the largest flat area of the board colour in either theme whose grid
/// lines make an N×N lattice; when no area's lines do, the area whose edges and numbers give
/// one lattice (`lattice_by_edges`). The lines' reason is the one given when both fail: it is
/// the one that describes an ordinary capture.
pub(super) fn locate(img: &RgbaImage) -> Result<Located> {
    let mut tried = Vec::new();
    let mut looked = Vec::new();
    for look in [LIGHT, DARK] {
        let mut cands = sampled_areas(img.dimensions(), COARSE, |x, y| {
            board_or_grid(img, x, y, &look)
        });
        cands.retain(|c| c.x1 - c.x0 >= MIN_BOARD && c.y1 - c.y0 >= MIN_BOARD);
        cands.sort_by_key(|c| std::cmp::Reverse(c.count));
        for c in cands.into_iter().take(3) {
            match lattice(img, &look, &c) {
                Ok(l) => return Ok(l),
                Err(e) => tried.push(e),
            }
            looked.push((look, c));
        }
    }
    if let Some(l) = looked
        .iter()
        .find_map(|(look, c)| lattice_by_edges(img, look, c).ok())
    {
        return Ok(l);
    }
    Err(tried.into_iter().next().unwrap_or_else(|| {
        Error::vision(
            None,
            "no Loop board: no flat area of the board colour (light #FFFFFF or dark #2E2E2E) \
             large enough",
        )
    }))
}
