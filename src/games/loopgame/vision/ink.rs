//! Which pixels are a number's ink: by saturation, as the templates were learned, or by the
//! brightness rules that cut a JPEG copy's colour smear off again.

use super::look::Look;
use crate::vision::color::{luma, rgb, saturation};
use image::Rgba;

/// Saturation that marks a number's ink: greys (board, grid, path) have none, the palette's
/// palest colours well over 100; anti-aliased rims down to about 40 still belong to the glyph.
const NUMBER_SATURATION: i32 = 40;
/// The brightness step from the board that number ink also shows. The palest number (green on
/// white) steps 43 levels at full cover; a JPEG q20 copy's colour smear around the strokes
/// stays within about 12 of the board, so 25 cuts the smear and keeps the strokes (measured on
/// the corpus: fewer refusals at 25 than at 12 or 40).
const NUMBER_CONTRAST: u8 = 25;

/// How a number's ink is told from the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum InkRule {
    /// Saturated: greys (board, grid, path) have none. The rule the templates are learned with.
    Saturated,
    /// Saturated and also a brightness step from the board. A JPEG copy keeps brightness at
    /// full resolution but halves the colour's, which spreads saturation about 2 px around
    /// each stroke onto pixels as bright as the board; this cuts that smear off again.
    Contrasted,
    /// Saturated and, by brightness, as much of the number's own colour as the saturation
    /// rule keeps in a lossless capture (`matched_ink`).
    Matched,
}

pub(super) fn number_ink(p: Rgba<u8>, look: &Look, rule: InkRule) -> bool {
    if saturation(rgb(p)) < NUMBER_SATURATION {
        return false;
    }
    match rule {
        InkRule::Saturated => true,
        InkRule::Contrasted => {
            let board = luma(Rgba([look.board[0], look.board[1], look.board[2], 255]));
            luma(p).abs_diff(board) >= NUMBER_CONTRAST
        }
        // Needs the number's colour: `matched_ink`.
        InkRule::Matched => false,
    }
}

/// Number ink as the saturation rule cuts it from a lossless capture, told by brightness: a
/// pixel blending the number's `colour` into the board shows saturation in proportion to the
/// colour's share, so that rule keeps shares of at least `NUMBER_SATURATION` over the colour's
/// own saturation; brightness, which a JPEG copy keeps at full resolution, still gives the
/// share where the halved colour resolution no longer does. A fixed brightness step
/// (`Contrasted`) cuts pale numbers thinner and bright ones on the dark board fatter than the
/// templates were learned.
pub(super) fn matched_ink(p: Rgba<u8>, look: &Look, colour: [u8; 3]) -> bool {
    if saturation(rgb(p)) < NUMBER_SATURATION {
        return false;
    }
    let board = luma(Rgba([look.board[0], look.board[1], look.board[2], 255])) as f64;
    let full = luma(Rgba([colour[0], colour[1], colour[2], 255])) as f64 - board;
    if full.abs() < 1.0 {
        return false;
    }
    let share = (luma(p) as f64 - board) / full;
    // Well past the colour itself is the path's ink (black on white, white on the dark
    // board) smeared with a neighbour's colour.
    share >= NUMBER_SATURATION as f64 / saturation(colour) as f64 && share <= 1.5
}

#[cfg(test)]
mod tests {
    use super::super::look::{palette_value, DARK, LIGHT};
    use super::*;

    /// A pale, board-bright pixel (a JPEG colour smear beside a stroke) is saturated enough
    /// for the learned rule but not number ink once brightness must step from the board.
    #[test]
    fn a_board_bright_smear_is_not_contrasted_ink() {
        let smear = Rgba([255, 235, 200, 255]);
        assert!(number_ink(smear, &LIGHT, InkRule::Saturated));
        assert!(!number_ink(smear, &LIGHT, InkRule::Contrasted));
        let stroke = Rgba([0xff, 0xb0, 0x4a, 255]);
        assert!(number_ink(stroke, &LIGHT, InkRule::Contrasted));
        let dark_stroke = Rgba([0x8a, 0x3a, 0x86, 255]);
        assert!(number_ink(dark_stroke, &DARK, InkRule::Contrasted));
    }

    /// Matched ink keeps the blends the saturation rule keeps at the number's own colour
    /// (half of a 7 over white; a fifth is under its 0.31), whatever their brightness step,
    /// and leaves out the black path smeared with a neighbour's colour.
    #[test]
    fn matched_ink_is_the_saturation_rules_share_of_the_colour() {
        let blend = |c: [u8; 3], over: [u8; 3], share: f64| {
            let m = |i: usize| (over[i] as f64 + share * (c[i] as f64 - over[i] as f64)).round();
            Rgba([m(0) as u8, m(1) as u8, m(2) as u8, 255])
        };
        let seven = LIGHT.numbers[7];
        assert!(matched_ink(blend(seven, LIGHT.board, 0.5), &LIGHT, seven));
        assert!(!matched_ink(blend(seven, LIGHT.board, 0.2), &LIGHT, seven));
        // A JPEG smear as saturated as the rule asks, 25 levels under white: 0.16 of a 7's
        // step, which the fixed step keeps (a 7 cut too fat).
        let smear = Rgba([255, 215, 240, 255]);
        assert!(number_ink(smear, &LIGHT, InkRule::Contrasted));
        assert!(!matched_ink(smear, &LIGHT, seven));
        let green = LIGHT.numbers[0];
        assert!(matched_ink(blend(green, LIGHT.board, 0.6), &LIGHT, green));
        assert!(!number_ink(
            blend(green, LIGHT.board, 0.5),
            &LIGHT,
            InkRule::Contrasted
        ));
        let one = LIGHT.numbers[1];
        assert!(!matched_ink(Rgba([90, 40, 0, 255]), &LIGHT, one));
        let dark_one = DARK.numbers[1];
        assert!(matched_ink(
            blend(dark_one, DARK.board, 0.5),
            &DARK,
            dark_one
        ));
        assert!(!matched_ink(
            blend(dark_one, DARK.board, 0.2),
            &DARK,
            dark_one
        ));
        assert_eq!(palette_value(&LIGHT, [0x97, 0x18, 0x77]), 8);
        assert_eq!(palette_value(&DARK, DARK.numbers[4]), 4);
    }
}
