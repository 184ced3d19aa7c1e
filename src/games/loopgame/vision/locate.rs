//! Finding the board: each flat area of the board colour is tried for a lattice from its grid
//! lines, then from its edges and numbers.

use super::board::{board_or_grid, board_tone, tints_of, ColourMemo, COARSE, MIN_BOARD};
use super::lattice_edges::lattice_by_edges;
use super::lattice_lines::lattice;
use super::look::{Look, DARK, LIGHT};
use super::Located;
use crate::error::{Error, Result};
use crate::vision::components::{sampled_areas, Component};
use image::RgbaImage;

/// Finds the board: the largest flat area of the board colour in either theme whose grid
/// lines make an N×N lattice; when no area's lines do, the area whose edges and numbers give
/// one lattice (`lattice_by_edges`). A picture with a block of cells tinted (`tints_of`) is
/// tried again with the tint counted as board before the edges are, in a theme whose board
/// colour shows in an area of a board's size (a tinted block leaves some cells plain). The
/// lines' reason is the one given when all fail: it is the one that describes an ordinary
/// capture.
pub(super) fn locate(img: &RgbaImage) -> Result<Located> {
    let mut tried = Vec::new();
    let mut looked = Vec::new();
    let mut shown = Vec::new();
    for look in [LIGHT, DARK] {
        let cands = areas(img, &look);
        if !cands.is_empty() {
            shown.push(look);
        }
        for c in cands.into_iter().take(3) {
            match lattice(img, &look, &c) {
                Ok(l) => return Ok(l),
                Err(e) => tried.push(e),
            }
            looked.push((look, c));
        }
    }
    // A tinted block of cells is tried as board only when the plain colours find no lattice.
    let tinted = shown.into_iter().flat_map(|look| {
        tints_of(img, &look).into_iter().map(move |t| Look {
            tint: Some(t),
            ..look
        })
    });
    for look in tinted {
        for c in areas(img, &look).into_iter().take(3) {
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

/// The look's board-coloured areas of a board's size or more, largest first.
fn areas(img: &RgbaImage, look: &Look) -> Vec<Component> {
    let memo = std::cell::RefCell::new(ColourMemo::new());
    let tone = |p| memo.borrow_mut().get(p, |p| board_tone(p, look));
    let mut cands = sampled_areas(img.dimensions(), COARSE, |x, y| {
        board_or_grid(img, x, y, look, tone)
    });
    cands.retain(|c| c.x1 - c.x0 >= MIN_BOARD && c.y1 - c.y0 >= MIN_BOARD);
    cands.sort_by_key(|c| std::cmp::Reverse(c.count));
    cands
}
