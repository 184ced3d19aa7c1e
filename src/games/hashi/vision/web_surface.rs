//! Where the web board's surface is and how far it reaches: the grid lines give the lattice
//! but not the board's size, which is where the surface ends. Found pixel by pixel on an exact
//! capture, block by block on a lossy copy, then grown past the bridges and islands that cut
//! strips off it along the edges.

use super::sample::largest_area;
use super::web_theme::{surface_or_grid, WebTheme, WEB_DARK, WEB_LIGHT};
use crate::vision::color::{blend_position, block_means, near};
use crate::vision::components::{components, Component, Connectivity};
use image::{Rgba, RgbaImage};

/// The web board's surface: the largest area of surface and grid colours, its box in image
/// pixels (`core`), and how it was found, which decides how it grows to the board's edges.
pub(super) struct WebSurface {
    pub(super) theme: WebTheme,
    pub(super) core: Component,
    /// For a lossy copy, the blocks that passed for surface.
    blocks: Option<BlockMask>,
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
                Some(WebSurface {
                    theme,
                    core,
                    blocks: None,
                })
            })
            .max_by_key(|s| s.core.count)
    }

    /// On a lossy copy, block by block: the page panel around the board is a few levels off
    /// the surface colour, too close for a pixel test loose enough for the copy's noise, but
    /// not for a tight test on block means.
    pub(super) fn lossy(img: &RgbaImage) -> Option<WebSurface> {
        let means = block_means(img, LOSSY_BLOCK);
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
                    blocks: Some(blocks),
                })
            })
            .max_by_key(|s| s.core.count)
    }

    /// The core grown to the board's edges. Bridges and islands along an edge row can cut a
    /// strip of surface off the largest area; they are narrower than a third of a cell, so
    /// growth may jump that far.
    pub(super) fn grown(&self, img: &RgbaImage, pitch: f64) -> Component {
        let jump = pitch / 3.0;
        match &self.blocks {
            None => grow(
                (img.width() as usize, img.height() as usize),
                self.core,
                jump as usize,
                |x, y| surface_or_grid::<0>(*img.get_pixel(x as u32, y as u32), &self.theme),
            ),
            Some(m) => from_blocks(grow(
                (m.width, m.pass.len() / m.width),
                to_blocks(self.core),
                // Keeping only blocks whose neighbours pass eats one block off each side of
                // whatever cuts the surface.
                (jump / LOSSY_BLOCK as f64) as usize + 2,
                |x, y| m.pass[y * m.width + x],
            )),
        }
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

fn to_blocks(c: Component) -> Component {
    let s = LOSSY_BLOCK as usize;
    Component {
        count: c.count / (s * s),
        x0: c.x0 / s,
        y0: c.y0 / s,
        x1: c.x1 / s,
        y1: c.y1 / s,
    }
}

/// Widens a box side by side while the next line of points of a `w`×`h` field is still
/// mostly passing (a fifth is enough: rounded corners and islands take the rest).
fn grow(
    (w, h): (usize, usize),
    mut b: Component,
    jump: usize,
    pass: impl Fn(usize, usize) -> bool,
) -> Component {
    let frac = |xs: std::ops::RangeInclusive<usize>, ys: std::ops::RangeInclusive<usize>| {
        let total = xs.clone().count() * ys.clone().count();
        let n = ys
            .flat_map(|y| xs.clone().map(move |x| (x, y)))
            .filter(|&(x, y)| pass(x, y))
            .count();
        n * 5 >= total
    };
    b.x1 = b.x1.min(w - 1);
    b.y1 = b.y1.min(h - 1);
    // Two rounds: a side grown in the first can let another side's lines pass in the second.
    for _ in 0..2 {
        while let Some(d) = (1..=jump.min(b.x0)).find(|&d| frac(b.x0 - d..=b.x0 - d, b.y0..=b.y1)) {
            b.x0 -= d;
        }
        while let Some(d) =
            (1..=jump).find(|&d| b.x1 + d < w && frac(b.x1 + d..=b.x1 + d, b.y0..=b.y1))
        {
            b.x1 += d;
        }
        while let Some(d) = (1..=jump.min(b.y0)).find(|&d| frac(b.x0..=b.x1, b.y0 - d..=b.y0 - d)) {
            b.y0 -= d;
        }
        while let Some(d) =
            (1..=jump).find(|&d| b.y1 + d < h && frac(b.x0..=b.x1, b.y1 + d..=b.y1 + d))
        {
            b.y1 += d;
        }
    }
    b
}
