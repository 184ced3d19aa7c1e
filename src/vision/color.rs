//! Colour tests on single pixels.

use image::Rgba;

/// Largest per-channel difference, ignoring alpha: cheap and strict enough to tell a flat
/// UI colour from its neighbours without a colour-space conversion.
pub fn distance(a: Rgba<u8>, b: [u8; 3]) -> u8 {
    (0..3).map(|i| a.0[i].abs_diff(b[i])).max().unwrap_or(0)
}

/// Whether `a` is within `tolerance` of `b` on every channel.
pub fn near(a: Rgba<u8>, b: [u8; 3], tolerance: u8) -> bool {
    distance(a, b) <= tolerance
}

/// Integer luma (Rec. 601 weights), 0..=255.
pub fn luma(a: Rgba<u8>) -> u8 {
    ((299 * a.0[0] as u32 + 587 * a.0[1] as u32 + 114 * a.0[2] as u32) / 1000) as u8
}

/// A saturated red such as an error highlight: red well above both other channels.
pub fn is_red(a: Rgba<u8>) -> bool {
    let [r, g, b, _] = a.0;
    r > 180 && g < r.saturating_sub(80) && b < r.saturating_sub(80)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_is_the_worst_channel() {
        assert_eq!(distance(Rgba([10, 20, 30, 255]), [12, 25, 29]), 5);
        assert!(near(Rgba([213, 213, 213, 0]), [213, 213, 213], 0));
        assert!(!near(Rgba([212, 213, 213, 255]), [213, 213, 213], 0));
    }

    #[test]
    fn luma_and_red() {
        assert_eq!(luma(Rgba([255, 255, 255, 255])), 255);
        assert_eq!(luma(Rgba([0, 0, 0, 255])), 0);
        assert!(luma(Rgba([0, 255, 0, 255])) > luma(Rgba([255, 0, 0, 255])));
        assert!(is_red(Rgba([255, 64, 64, 255])));
        assert!(!is_red(Rgba([213, 213, 213, 255])));
        assert!(!is_red(Rgba([255, 200, 200, 255])));
    }
}
