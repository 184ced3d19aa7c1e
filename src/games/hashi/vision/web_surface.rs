//! Where the web board's surface is: the largest area of its colours, in which the grid lines
//! are looked for. Found pixel by pixel on an exact capture, block by block on a lossy copy.
//! Its extent is not the board's (`web::board_cells` finds that from where the lines stop).

use super::sample::largest_area;
use super::web_theme::{surface_or_grid, WebTheme, WEB_DARK, WEB_LIGHT};
use crate::vision::color::{blend_position, near};
use crate::vision::components::{components, Component, Connectivity};
use crate::vision::shrink::shrink;
use image::{Rgba, RgbaImage};

/// The web board's surface: the largest area of surface and grid colours, its box in image
/// pixels (`core`).
pub(super) struct WebSurface {
    pub(super) theme: WebTheme,
    pub(super) core: Component,
}

/// The side of the blocks a lossy copy's surface is found on.
const LOSSY_BLOCK: u32 = 4;

impl WebSurface {
    /// On an exact capture, pixel by pixel.
    pub(super) fn exact(img: &RgbaImage) -> Option<WebSurface> {
        [WEB_LIGHT, WEB_DARK]
            .into_iter()
            .filter_map(|theme| {
                let core = largest_area(img, |p| surface_or_grid::<0>(p, &theme))?;
                Some(WebSurface { theme, core })
            })
            .max_by_key(|s| s.core.count)
    }

    /// On a lossy copy, block by block: the page panel around the board is a few levels off
    /// the surface colour, too close for a pixel test loose enough for the copy's noise, but
    /// not for a tight test on block means.
    pub(super) fn lossy(img: &RgbaImage) -> Option<WebSurface> {
        let means = shrink(img, LOSSY_BLOCK);
        [WEB_LIGHT, WEB_DARK]
            .into_iter()
            .filter_map(|theme| {
                let blocks = BlockMask::surface(&means, &theme);
                let core = components(&blocks.pass, blocks.width, Connectivity::Four)
                    .into_iter()
                    .max_by_key(|c| c.count)?;
                Some(WebSurface {
                    theme,
                    core: from_blocks(core),
                })
            })
            .max_by_key(|s| s.core.count)
    }
}

/// Which blocks of a lossy copy are the board's surface.
struct BlockMask {
    width: usize,
    pass: Vec<bool>,
}

impl BlockMask {
    /// Blocks of surface, or of surface and a grid line, whose four neighbours are so too.
    /// Blocks that mix the panel's frame with its margin can pass for surface, but only in
    /// thin lines along the frame; the neighbours cut those off.
    fn surface(means: &RgbaImage, theme: &WebTheme) -> BlockMask {
        let (w, h) = (means.width() as usize, means.height() as usize);
        let pass: Vec<bool> = means.pixels().map(|&p| surface_block(p, theme)).collect();
        let inner = (0..w * h)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                x > 0
                    && y > 0
                    && x + 1 < w
                    && y + 1 < h
                    && [i, i - 1, i + 1, i - w, i + w].iter().all(|&j| pass[j])
            })
            .collect();
        BlockMask {
            width: w,
            pass: inner,
        }
    }
}

/// A block mean of plain surface, or of surface and a grid line: on the mix between the two
/// colours, at most two-thirds of the way to the grid colour.
fn surface_block(p: Rgba<u8>, theme: &WebTheme) -> bool {
    near(p, theme.surface, 3)
        || blend_position(p, theme.surface, theme.grid, 2.5)
            .is_some_and(|t| (0.0..=0.7).contains(&t))
}

fn from_blocks(c: Component) -> Component {
    let s = LOSSY_BLOCK as usize;
    Component {
        count: c.count * s * s,
        x0: c.x0 * s,
        y0: c.y0 * s,
        x1: c.x1 * s + s - 1,
        y1: c.y1 * s + s - 1,
    }
}
