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

/// Where `p` lies between colours `from` (0) and `to` (1) when it is a mix of the two, as a
/// thin line blurred by scaling is; `None` when it is more than `tolerance` off that mix.
pub fn blend_position(p: Rgba<u8>, from: [u8; 3], to: [u8; 3], tolerance: f32) -> Option<f32> {
    let d: [f32; 3] = std::array::from_fn(|i| to[i] as f32 - from[i] as f32);
    let v: [f32; 3] = std::array::from_fn(|i| p.0[i] as f32 - from[i] as f32);
    let dd: f32 = d.iter().map(|x| x * x).sum();
    if dd == 0.0 {
        return None;
    }
    let t = v.iter().zip(&d).map(|(a, b)| a * b).sum::<f32>() / dd;
    let off = (0..3).map(|i| (v[i] - t * d[i]).abs()).fold(0.0, f32::max);
    (off <= tolerance).then_some(t)
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
    fn blend_position_follows_the_mix() {
        let (a, b) = ([200, 200, 200], [100, 120, 140]);
        assert_eq!(
            blend_position(Rgba([200, 200, 200, 255]), a, b, 1.0),
            Some(0.0)
        );
        let half = blend_position(Rgba([150, 160, 170, 255]), a, b, 1.0).unwrap();
        assert!((half - 0.5).abs() < 0.01);
        assert_eq!(blend_position(Rgba([150, 200, 100, 255]), a, b, 5.0), None);
        assert_eq!(blend_position(Rgba([1, 2, 3, 255]), a, a, 5.0), None);
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
