//! The app's colours in each theme, and the pixel tests every step shares: the drawn path's
//! ink and the number palette.

use super::Theme;
use crate::vision::color::{rgb, saturation};
use image::Rgba;

/// The app's colours per theme (its stylesheet, as measured in the corpus captures).
#[derive(Debug, Clone, Copy)]
pub(super) struct Look {
    pub(super) theme: Theme,
    pub(super) board: [u8; 3],
    pub(super) grid: [u8; 3],
    /// The page under the win sheet's dimming layer.
    pub(super) dimmed_page: [u8; 3],
    /// Number colours: index 0 is the satisfied green, 1..=9 the palette by |value|.
    pub(super) numbers: [[u8; 3]; 10],
    /// A second flat board colour this picture shows (the app's tutorial tints a block of
    /// cells), its grid lines tinted alike; none in the app's own looks.
    pub(super) tint: Option<[u8; 3]>,
}

pub(super) const LIGHT: Look = Look {
    theme: Theme::Light,
    board: [0xff, 0xff, 0xff],
    grid: [0xe0, 0xe0, 0xe0],
    dimmed_page: [0x79, 0x7a, 0x7b],
    numbers: [
        [0xac, 0xf3, 0x9d],
        [0xff, 0xb0, 0x4a],
        [0xff, 0x8c, 0x42],
        [0xff, 0x63, 0x47],
        [0xff, 0x41, 0x69],
        [0xf0, 0x3a, 0x7c],
        [0xd4, 0x35, 0x7f],
        [0xb0, 0x2d, 0x8a],
        [0x8c, 0x1f, 0x7d],
        [0x66, 0x15, 0x65],
    ],
    tint: None,
};

pub(super) const DARK: Look = Look {
    theme: Theme::Dark,
    board: [0x2e, 0x2e, 0x2e],
    grid: [0x3a, 0x3a, 0x3a],
    dimmed_page: [0x12, 0x12, 0x12],
    numbers: [
        [0x86, 0xef, 0xac],
        [0xff, 0xd5, 0x80],
        [0xff, 0xad, 0x66],
        [0xff, 0x8a, 0x6b],
        [0xff, 0x6b, 0x8a],
        [0xff, 0x5e, 0x9d],
        [0xe8, 0x57, 0xa6],
        [0xd1, 0x4d, 0xb3],
        [0xb8, 0x45, 0xa0],
        [0x8a, 0x3a, 0x86],
    ],
    tint: None,
};

/// The player's path: near black on the light board, near white on the dark one.
pub(super) fn path_ink(p: Rgba<u8>, look: &Look) -> bool {
    let [r, g, b] = rgb(p);
    let grey = saturation([r, g, b]) <= 24;
    match look.theme {
        Theme::Light => grey && r.max(g).max(b) < 90,
        Theme::Dark => grey && r.min(g).min(b) > 190,
    }
}

/// A grey a third of the way and more from the board towards the path's ink: what is left of a
/// path stroke blurred by resampling. The grid lines (12 levels off the board in the dark
/// theme, 31 in the light) stay well short of it.
pub(super) fn faint_path_ink(p: Rgba<u8>, look: &Look) -> bool {
    let [r, g, b] = rgb(p);
    let grey = saturation([r, g, b]) <= 24;
    match look.theme {
        Theme::Light => grey && r.max(g).max(b) < 170,
        Theme::Dark => grey && r.min(g).min(b) > 120,
    }
}

/// The palette entry nearest `colour` (by the largest channel difference): 0 the satisfied
/// green, 1..=9 the values.
pub(super) fn palette_value(look: &Look, colour: [u8; 3]) -> usize {
    (0..look.numbers.len())
        .min_by_key(|&k| {
            (0..3)
                .map(|i| look.numbers[k][i].abs_diff(colour[i]))
                .max()
                .unwrap()
        })
        .unwrap()
}
