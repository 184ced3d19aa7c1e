//! The web Hashi game's two themes: their colours, and the tests that tell the board's surface
//! and grid lines from everything else on the page.

use crate::vision::color::{blend_position, near};
use image::Rgba;

/// The web game's colours (its stylesheet's light and dark themes).
#[derive(Debug, Clone, Copy)]
pub(super) struct WebTheme {
    pub(super) surface: [u8; 3],
    pub(super) grid: [u8; 3],
    pub(super) bridge: [u8; 3],
    /// A bridge under the mouse is drawn double in this colour whatever its count.
    pub(super) preview: [u8; 3],
    pub(super) island: [u8; 3],
    pub(super) satisfied: [u8; 3],
    pub(super) over: [u8; 3],
}

pub(super) const WEB_LIGHT: WebTheme = WebTheme {
    surface: [0xe5, 0xe7, 0xeb],
    grid: [0xca, 0xcd, 0xd3],
    bridge: [0x0f, 0x17, 0x2a],
    preview: [0x25, 0x63, 0xeb],
    island: [0xff, 0xff, 0xff],
    satisfied: [0xbb, 0xf7, 0xd0],
    over: [0xfe, 0xca, 0xca],
};

pub(super) const WEB_DARK: WebTheme = WebTheme {
    surface: [0x1a, 0x22, 0x30],
    grid: [0x2f, 0x39, 0x48],
    bridge: [0xf8, 0xfa, 0xfc],
    preview: [0x7d, 0xd3, 0xfc],
    island: [0xe2, 0xe8, 0xf0],
    satisfied: [0xa7, 0xf3, 0xd0],
    over: [0xfe, 0xca, 0xca],
};

/// A grid line pixel, also when scaling has blurred the 1-px line into its neighbours.
/// `SLACK` widens every colour test for a lossy copy (JPEG) of a capture; 0 for a lossless one.
/// A constant, so the per-pixel tests of a lossless capture stay as tight and as fast as ever.
pub(super) fn grid_like<const SLACK: u8>(p: Rgba<u8>, theme: &WebTheme) -> bool {
    // Most pixels are plain surface or far off the surface-to-grid mix: settle those with
    // integer tests before the projection.
    let (s, g) = (theme.surface[0] as i32, theme.grid[0] as i32);
    let slack = SLACK as i32;
    let (lo, hi) = (
        s.min(g + (g - s) / 3) - 3 - slack,
        s.max(g + (g - s) / 3) + 3 + slack,
    );
    if near(p, theme.surface, 2 + SLACK) || !(lo..=hi).contains(&(p.0[0] as i32)) {
        return false;
    }
    blend_position(p, theme.surface, theme.grid, 2.0 + SLACK as f32)
        .is_some_and(|t| (0.4..=1.3).contains(&t))
}

pub(super) fn surface_or_grid<const SLACK: u8>(p: Rgba<u8>, theme: &WebTheme) -> bool {
    near(p, theme.surface, 2 + SLACK) || grid_like::<SLACK>(p, theme)
}
