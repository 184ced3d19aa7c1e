//! Reading a number: by shape against templates (the corpus's digits and the system font's),
//! sure only by a clear lead, with its colour, which the app sets by value, as a check.

use super::ink::InkRule;
use super::look::{palette_value, Look};
use super::numbers::Number;
use super::sign::Sign;
use crate::error::{Error, Result};
use crate::vision::glyph::{best_match_seen, ranked, Glyph, Match, TemplateSet};
use std::sync::OnceLock;

/// A glyph less alike than this to its best template is unreadable, whatever the margin.
const MIN_GLYPH_SCORE: f64 = 0.8;
/// The lead over the runner-up template that counts as full confidence, and the likeness
/// that counts as none, with the span above it to full confidence.
const FULL_MARGIN: f64 = 0.08;
const ZERO_SCORE: f64 = 0.82;
const SCORE_SPAN: f64 = 0.1;
/// How much further from a number's fill than the read digit's palette colour another digit's
/// must be for the colour to rule that digit out: twice the largest step between neighbouring
/// palette colours (38 levels), so only the satisfied green against the rest, and digits
/// three or more apart, can rule each other out.
const COLOUR_APART: i32 = 80;
/// How close two digits' shapes must score for a crossed number's colour to choose between
/// them: an eighth of the lead that counts as full confidence.
const SHAPE_TIE: f64 = 0.01;
/// In a JPEG copy (`InkRule::Matched`), a number whose colour is a palette step from its shape's
/// is read when its colour lies within this many levels a channel of the shape's colour (the
/// corpus's 7s in q20 copies: up to 25; a hue turned 30° moves a number a step
/// over by 42 or more)...
const LOSSY_COLOUR_SLACK: u8 = 28;
/// ...and its shape leads every other digit's template by this much (the 7s: 0.2; twice the
/// lead that counts as full confidence).
const LOSSY_SHAPE_MARGIN: f64 = 0.16;

/// Under this share of a glyph's cells seen, a crossed number is not read by what is left.
const MIN_SEEN: f32 = 0.5;

/// The template most like `g` by coverage over the cells `unseen` leaves (weighted by how
/// much of each is seen), with its lead over the best other digit; `None` when too little of
/// the glyph is seen.
fn seen_match(g: &Glyph, unseen: &Glyph, templates: &[(String, Glyph)]) -> Option<Match> {
    let seen: Vec<f32> = unseen.cells.iter().map(|u| 1.0 - u).collect();
    let total: f32 = seen.iter().sum();
    if total < MIN_SEEN * seen.len() as f32 {
        return None;
    }
    ranked(
        templates
            .iter()
            .map(|(label, t)| {
                let diff: f32 = (0..seen.len())
                    .map(|k| seen[k] * (g.cells[k] - t.cells[k]).abs())
                    .sum();
                ((1.0 - diff / total) as f64, label.as_str())
            })
            .collect(),
    )
}

pub(super) fn templates() -> &'static [(String, Glyph)] {
    static SET: OnceLock<Vec<(String, Glyph)>> = OnceLock::new();
    SET.get_or_init(|| {
        // The corpus's digits and the same digits in this system's sans face (DejaVu Sans).
        [
            include_str!("../../../../calibration/loop/digits.json"),
            include_str!("../../../../calibration/loop/dejavu_digits.json"),
        ]
        .iter()
        .flat_map(|text| {
            TemplateSet::from_json(text)
                .expect("calibration JSON is embedded at build time")
                .glyphs()
        })
        .collect()
    })
}

/// A number as read: its displayed value, how sure the reading is, and whether it shows the
/// satisfied green.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Read {
    pub(super) value: i32,
    pub(super) sure: f64,
    pub(super) green: bool,
}

/// Reads a number's displayed value and how sure the reading is. A nonzero digit in the
/// satisfied green is not refused here: in the app's "show total" behaviour a satisfied total
/// is green whatever its value, and only the board (`count_mode`) can tell which behaviour
/// the picture shows.
pub(super) fn read_number(
    look: &Look,
    f: &Number,
    templates: &[(String, Glyph)],
    rule: InkRule,
) -> Result<Read> {
    let [r, c] = f.at;
    let ([g], [hidden]) = (&f.glyphs[..], &f.hidden[..]) else {
        return Err(Error::vision(
            Some(f.region),
            format!(
                "row {r} col {c}: {} glyphs where a one-digit number should be (the path \
                 touches a minus, or they are not one number)",
                f.glyphs.len()
            ),
        ));
    };
    // Under the path the glyph is unknown, not blank. In a JPEG copy the path's rim rings too,
    // so a crossed number is also compared off that rim, and both views must name the digit.
    let whole = best_match_seen(g, hidden, templates);
    let sure_of = |m: &Match| (m.margin / FULL_MARGIN).min((m.score - ZERO_SCORE) / SCORE_SPAN);
    let matched = if rule == InkRule::Matched && f.crossed {
        // The surer view counts.
        match (whole, seen_match(g, &f.unseen[0], templates)) {
            (Some(a), Some(b)) if a.label == b.label => {
                Some(if sure_of(&b) > sure_of(&a) { b } else { a })
            }
            (a, None) => a,
            _ => None,
        }
    } else {
        whole
    };
    let m = matched
        .filter(|m| m.score >= MIN_GLYPH_SCORE)
        .ok_or_else(|| {
            Error::vision(
                Some(f.region),
                format!(
                    "row {r} col {c}: number unreadable (no template matches{})",
                    if f.crossed {
                        "; the path crosses it"
                    } else {
                        ""
                    }
                ),
            )
        })?;
    // The app colours a number by its value: the colour must agree with the shape.
    let off = |n: [u8; 3]| {
        (0..3)
            .map(|i| n[i].abs_diff(f.colour[i]) as i32)
            .max()
            .unwrap()
    };
    let by_colour = palette_value(look, f.colour) as i32;
    let m = colour_settles_a_tie(look, f, hidden, templates, m, by_colour);
    let value: i32 = m.label.parse().map_err(|_| {
        Error::vision(
            Some(f.region),
            format!("row {r} col {c}: read {:?}, not a digit", m.label),
        )
    })?;
    // The app writes a count below zero with a minus; it never writes "-0".
    let value = match (f.sign, value) {
        (Sign::Minus, 0) => {
            return Err(Error::vision(
                Some(f.region),
                format!("row {r} col {c}: a minus before 0, which the app never shows"),
            ))
        }
        (Sign::Minus, v) => -v,
        (_, v) => v,
    };
    let palette = value.abs().min(9);
    // A JPEG copy shifts a thin stroke's colour by up to a palette step (its brightness rings,
    // its colour resolution is halved); there, a neighbouring step passes when the colour is
    // still close to the shape's own and the shape is plainly no other digit.
    let lossy_step = rule == InkRule::Matched
        && (by_colour - palette).abs() == 1
        && m.margin >= LOSSY_SHAPE_MARGIN
        && (0..3)
            .all(|i| look.numbers[palette as usize][i].abs_diff(f.colour[i]) <= LOSSY_COLOUR_SLACK);
    let green = by_colour == 0 && palette != 0;
    if by_colour != palette && !lossy_step && !green {
        return Err(Error::vision(
            Some(f.region),
            format!(
                "row {r} col {c}: the shape reads {value} but the colour #{:02X}{:02X}{:02X} \
                 is the colour of {by_colour}",
                f.colour[0], f.colour[1], f.colour[2]
            ),
        ));
    }
    // The margin that guards against a misread is the lead over the digits the number could
    // be, and the colour already rules some out: were the truth a digit whose palette colour
    // lies `COLOUR_APART` further from the fill than the read one's, the copy would have
    // moved its fill most of the way to another digit's colour. A crossed 0 shows too little
    // to tell it from a 9 by shape, but green is far from any 9. By the triangle inequality
    // only digits whose colours lie `COLOUR_APART` or more from the read one's can drop out,
    // so neighbours in the palette, which a lossy copy's colour drifts between, always count.
    let own = off(look.numbers[value.unsigned_abs().min(9) as usize]);
    let rivals: Vec<(String, Glyph)> = templates
        .iter()
        .filter(|(label, _)| {
            label.parse::<i32>().map_or(true, |v| {
                off(look.numbers[v.unsigned_abs().min(9) as usize]) < own + COLOUR_APART
            })
        })
        .cloned()
        .collect();
    let margin = best_match_seen(g, hidden, &rivals).map_or(m.margin, |r| r.margin);
    let sure = (margin / FULL_MARGIN).min((m.score - ZERO_SCORE) / SCORE_SPAN);
    Ok(Read {
        value,
        sure: sure.clamp(0.0, 1.0),
        green: by_colour == 0,
    })
}

/// The small total of the app's "Show both" behaviour as read by shape alone (it takes the
/// count-down's colour): the digit whose template it is most like, `None` when none is alike
/// enough (`MIN_TOTAL_SCORE`), and that likeness. No lead over the runner-up is asked: the
/// total only has to agree with the hint the count-down gives, and at 12 px its 8 leads its
/// 6 by 0.03 (captures of the app at 40 px cells).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Total {
    pub(super) value: Option<i32>,
    pub(super) score: f64,
}

/// The least likeness of a small total that names a digit: it only confirms the hint the
/// count-down gives (a total read otherwise refuses the board), and a copy shrunk to 0.75×
/// leaves the 6 of a 66 px cell's total at 0.76–0.78. Where a total has to settle a sign the
/// path hides, the digits' own floor holds (`Total::settles`).
const MIN_TOTAL_SCORE: f64 = 0.74;

impl Total {
    /// The total, when it is read well enough to choose between two hints.
    pub(super) fn settles(self) -> Option<i32> {
        self.value.filter(|_| self.score >= MIN_GLYPH_SCORE)
    }
}

pub(super) fn read_total(g: &Glyph, templates: &[(String, Glyph)]) -> Total {
    let none = Glyph::from_mask(g.width, g.height, &vec![false; g.width * g.height]);
    match best_match_seen(g, &none, templates) {
        Some(m) => Total {
            value: m.label.parse().ok().filter(|_| m.score >= MIN_TOTAL_SCORE),
            score: m.score,
        },
        None => Total {
            value: None,
            score: 0.0,
        },
    }
}

/// A crossed number whose seen strokes fit two digits alike (a 0 and a 9 cut across the middle
/// by the path) is read as the one its colour names, when the colour rules the other out as
/// `read_number`'s margin does (its palette colour `COLOUR_APART` further from the fill) and
/// the shapes score within `SHAPE_TIE`. Palette neighbours never rule each other out, so a
/// colour a hue turn or a lossy copy moved a step still meets the shape check.
fn colour_settles_a_tie(
    look: &Look,
    f: &Number,
    hidden: &Glyph,
    templates: &[(String, Glyph)],
    m: Match,
    by_colour: i32,
) -> Match {
    let off = |v: i32| {
        let n = look.numbers[v.unsigned_abs().min(9) as usize];
        (0..3)
            .map(|i| n[i].abs_diff(f.colour[i]) as i32)
            .max()
            .unwrap()
    };
    let Ok(shape) = m.label.parse::<i32>() else {
        return m;
    };
    if !f.crossed || shape.abs().min(9) == by_colour || off(shape) < off(by_colour) + COLOUR_APART {
        return m;
    }
    let named = by_colour.to_string();
    let own: Vec<(String, Glyph)> = templates
        .iter()
        .filter(|(label, _)| *label == named)
        .cloned()
        .collect();
    // Both scores in the view that hides only the path, whichever view `m` came from.
    let g = f.glyphs.first().unwrap_or(hidden);
    let best = best_match_seen(g, hidden, templates).map_or(m.score, |w| w.score);
    match best_match_seen(g, hidden, &own) {
        Some(alt) if alt.score >= MIN_GLYPH_SCORE && best - alt.score <= SHAPE_TIE => Match {
            margin: m.margin,
            ..alt
        },
        _ => m,
    }
}

#[cfg(test)]
mod tests {
    use super::super::corner::Corner;
    use super::super::look::LIGHT;
    use super::super::numbers::widened;
    use super::*;
    use crate::error::Region;

    /// A plain 7 whose colour a JPEG copy moved a palette step (to the 8's side) reads as 7
    /// only under the JPEG rule; colour further off, or a step on a shape that is not plainly
    /// one digit, stays refused.
    #[test]
    fn a_lossy_colour_a_step_off_passes_only_with_a_plain_shape() {
        let seven = templates()
            .iter()
            .find(|(l, _)| l == "7")
            .map(|(_, g)| g.clone())
            .unwrap();
        let number = |glyph: Glyph, colour: [u8; 3]| Number {
            at: [0, 0],
            glyphs: vec![glyph],
            hidden: vec![Glyph::from_mask(16, 16, &[false; 256])],
            unseen: vec![Glyph::from_mask(16, 16, &[false; 256])],
            crossed: false,
            colour,
            sign: Sign::Plus,
            corner: Corner::Blank,
            region: Region {
                x: 0,
                y: 0,
                w: 50,
                h: 50,
            },
        };
        let shifted = number(seven.clone(), [0x97, 0x18, 0x77]);
        let read = |f: &Number, rule| read_number(&LIGHT, f, templates(), rule);
        assert_eq!(read(&shifted, InkRule::Matched).unwrap().value, 7);
        assert!(read(&shifted, InkRule::Saturated).is_err());
        assert!(read(&shifted, InkRule::Contrasted).is_err());
        // The 8's own colour is 36 levels of red from the 7's.
        assert!(read(&number(seven.clone(), LIGHT.numbers[8]), InkRule::Matched).is_err());
        // Half a 7 and half an 8: no plain shape.
        let eight = templates()
            .iter()
            .find(|(l, _)| l == "8")
            .unwrap()
            .1
            .clone();
        let blend = Glyph::mean(&[seven, eight]).unwrap();
        assert!(read(&number(blend, [0x97, 0x18, 0x77]), InkRule::Matched).is_err());
    }

    /// A crossed glyph a little nearer a 9 than a 0 is read as the digit its colour names when
    /// the colour rules the other out; a plain 9, or a glyph the path does not cross, keeps
    /// its shape's reading (and meets the colour check after).
    #[test]
    fn a_crossed_tie_is_settled_by_colour_and_nothing_else_is() {
        let set = templates();
        let first = |d: &str| set.iter().find(|(l, _)| l == d).unwrap().1.clone();
        let (zero, nine) = (first("0"), first("9"));
        let mut between = zero.clone();
        for (k, c) in between.cells.iter_mut().enumerate() {
            *c = 0.49 * zero.cells[k] + 0.51 * nine.cells[k];
        }
        let none = Glyph::from_mask(16, 16, &[false; 256]);
        let number = |glyph: &Glyph, crossed: bool| Number {
            at: [0, 0],
            glyphs: vec![glyph.clone()],
            hidden: vec![none.clone()],
            unseen: vec![none.clone()],
            crossed,
            colour: LIGHT.numbers[0],
            sign: Sign::Plus,
            corner: Corner::Blank,
            region: Region {
                x: 0,
                y: 0,
                w: 50,
                h: 50,
            },
        };
        let settle = |glyph: &Glyph, crossed: bool| {
            let m = best_match_seen(glyph, &none, set).unwrap();
            colour_settles_a_tie(&LIGHT, &number(glyph, crossed), &none, set, m, 0).label
        };
        assert_eq!(settle(&between, true), "0");
        assert_eq!(settle(&between, false), "9");
        assert_eq!(settle(&nine, true), "9");
    }

    /// With the cells the path covers left out, a template compared with itself scores 1
    /// however much is unseen, as long as enough is seen; a glyph blotted where it is unseen
    /// still matches its own template best.
    #[test]
    fn a_crossed_glyph_is_compared_where_it_is_seen() {
        let set = templates();
        let (label, two) = set.iter().find(|(l, _)| l == "2").unwrap();
        let band = |rows: std::ops::Range<usize>| {
            let on: Vec<bool> = (0..256).map(|k| rows.contains(&(k / 16))).collect();
            Glyph::from_mask(16, 16, &on)
        };
        let mut blotted = two.clone();
        for k in 7 * 16..11 * 16 {
            blotted.cells[k] = 1.0;
        }
        let m = seen_match(&blotted, &band(7..11), set).unwrap();
        assert_eq!(&m.label, label);
        assert!((m.score - 1.0).abs() < 1e-6, "{}", m.score);
        assert!(seen_match(two, &band(2..11), set).is_none());
        let mut dot = vec![false; 25];
        dot[6] = true;
        let w = widened(&dot, 5, 1);
        let grown: Vec<usize> = (0..25).filter(|&k| w[k]).collect();
        assert_eq!(grown, [0, 1, 2, 5, 6, 7, 10, 11, 12]);
    }
}

/// Builds `calibration/loop/dejavu_digits.json` from this system's DejaVu Sans Bold: run
/// `cargo test --lib build_loop_font_templates -- --ignored`. The corpus's own digits are
/// learned by `autoplayer calibrate loop` (`calibration/make.sh`).
#[cfg(test)]
mod calibrate {
    use super::*;
    use crate::vision::glyph::{self, Ink, Template};

    /// The app draws its numbers in the browser's `bold sans-serif`, which is whatever sans face
    /// the system has: the corpus shows one face, Debian's and Ubuntu's default (DejaVu Sans)
    /// draws a 4 with a closed top that the corpus's templates score too low. Its digits are
    /// rendered here from the font file at the app's sizes (0.75 of the 50, 66.7 and 100 px
    /// cells), cut with the reader's own rule (ink where the colour's coverage makes it
    /// saturated enough, about a quarter) and averaged into one more template per digit.
    fn rendered_templates() -> Vec<Template> {
        const FONT: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
        let data = std::fs::read(FONT)
            .unwrap_or_else(|e| panic!("{FONT} (Debian package fonts-dejavu-core): {e}"));
        let font = ab_glyph::FontRef::try_from_slice(&data).expect("a TrueType font");
        let sizes = [37.0f32, 50.0, 75.0];
        (0..=9)
            .map(|d| {
                let glyphs: Vec<Glyph> = sizes
                    .iter()
                    .map(|&px| {
                        let side = (px * 1.5) as u32;
                        let mut img = image::GrayImage::new(side, side);
                        let text = d.to_string();
                        imageproc::drawing::draw_text_mut(
                            &mut img,
                            image::Luma([255]),
                            (px * 0.25) as i32,
                            (px * 0.1) as i32,
                            px,
                            &font,
                            &text,
                        );
                        let ink = Ink {
                            width: side as usize,
                            height: side as usize,
                            on: img.pixels().map(|p| p.0[0] >= 64).collect(),
                        };
                        let parts = ink.split();
                        assert_eq!(parts.len(), 1, "{d} at {px} px is one glyph");
                        ink.normalize(parts[0])
                    })
                    .collect();
                let mut t = Template::from_glyph(
                    &d.to_string(),
                    sizes.len(),
                    &Glyph::mean(&glyphs).unwrap(),
                );
                t.source = Some(
                    "DejaVu Sans Bold (fonts-dejavu-core), rendered at 37, 50 and 75 px".into(),
                );
                t
            })
            .collect()
    }

    /// Writes `calibration/loop/dejavu_digits.json`; the corpus's own digits are learned by
    /// `autoplayer calibrate loop` (see `calibration/make.sh`).
    #[test]
    #[ignore]
    fn build_loop_font_templates() {
        let set = TemplateSet {
            width: glyph::SIZE,
            height: glyph::SIZE,
            templates: rendered_templates(),
        };
        let path = format!(
            "{}/calibration/loop/dejavu_digits.json",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::write(&path, set.to_json()).unwrap();
        eprintln!("{path}: {} templates", set.templates.len());
    }
}
