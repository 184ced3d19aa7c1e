//! The text under the board: the "Walls: left/budget" counter on the left and the "Score:"
//! line on the right, in the game's handwriting font. Text pixels are grouped into glyphs
//! (8-connected, columns that overlap merged, so a colon stays whole), each stretched to a
//! 12×18 mask and matched against `calibration/enclose/glyphs.json` with a one-cell stroke
//! tolerance.

use super::Board;
use crate::rect::Rect;
use crate::vision::color::{dominant, luma, rgb, Rgb};
use crate::vision::components::{components, Connectivity};
use crate::vision::glyph::{best_match, Bounds, Glyph, Ink, Likeness, TemplateSet};
use image::RgbaImage;
use std::sync::OnceLock;

/// The stretched glyph's size.
pub(super) const GW: usize = 12;
pub(super) const GH: usize = 18;
/// A glyph less alike than this to its best template, or less than `LEAD` ahead of the best
/// template of another character, stays unread.
const MIN_SCORE: f64 = 0.85;
const LEAD: f64 = 0.05;

fn templates() -> &'static [(String, Glyph)] {
    static G: OnceLock<Vec<(String, Glyph)>> = OnceLock::new();
    G.get_or_init(|| {
        TemplateSet::from_json(include_str!("../../../../calibration/enclose/glyphs.json"))
            .expect("calibration JSON is embedded at build time")
            .glyphs()
    })
}

/// One group of text pixels: its box (x0, y0, x1, y1 inclusive, relative to the rectangle)
/// and its stretched glyph.
pub(super) struct GlyphBox {
    pub(super) box_: Bounds,
    pub(super) glyph: Glyph,
}

/// The glyphs in a rectangle of the picture, left to right; `ink` tells text pixels.
pub(super) fn glyph_boxes(
    img: &RgbaImage,
    area: Rect<u32>,
    ink: &dyn Fn(Rgb) -> bool,
) -> Vec<GlyphBox> {
    let (x0, y0) = (area.x, area.y);
    let (w, h) = (area.w as usize, area.h as usize);
    let patch = Ink {
        width: w,
        height: h,
        on: (0..w * h)
            .map(|k| ink(rgb(*img.get_pixel(x0 + (k % w) as u32, y0 + (k / w) as u32))))
            .collect(),
    };
    let mut boxes: Vec<Bounds> = components(&patch.on, w, Connectivity::Eight)
        .into_iter()
        .map(|c| (c.x0, c.y0, c.x1, c.y1))
        .collect();
    boxes.sort_by_key(|b| b.0);
    let mut merged: Vec<Bounds> = Vec::new();
    for b in boxes {
        match merged.last_mut() {
            Some(m) if b.0 <= m.2 => *m = (m.0.min(b.0), m.1.min(b.1), m.2.max(b.2), m.3.max(b.3)),
            _ => merged.push(b),
        }
    }
    merged
        .into_iter()
        .map(|b| GlyphBox {
            box_: b,
            glyph: patch.stretch(b, GW, GH),
        })
        .collect()
}

/// The boxes of `glyph_boxes` at least 4 pixels tall (specks dropped).
pub(super) fn tall_glyph_boxes(
    img: &RgbaImage,
    area: Rect<u32>,
    ink: &dyn Fn(Rgb) -> bool,
) -> Vec<GlyphBox> {
    glyph_boxes(img, area, ink)
        .into_iter()
        .filter(|g| g.box_.3 - g.box_.1 >= 4)
        .collect()
}

/// The widest a bare upright stroke is for its height: Schoolbell's "1" has no flag or foot.
const STROKE_ASPECT: f64 = 0.3;

fn match_glyph(g: &Glyph) -> Option<(char, f64)> {
    let m = best_match(g, templates(), Likeness::NearStroke);
    if let Some(m) = m
        .as_ref()
        .filter(|m| m.score >= MIN_SCORE && m.margin >= LEAD)
    {
        return Some((m.label.chars().next()?, m.score));
    }
    // Stretched to the template size, a bare stroke's slant and thickness vary with the size
    // the page draws it at (a "1" at 40 px tiles scored 0.70, a thinner one had no template
    // of its width), but no other character the counter or score shows is one unbroken
    // upright stroke: it is read from its box, at the least score that passes.
    (g.aspect.is_some_and(|a| a <= STROKE_ASPECT) && unbroken(g)).then_some(('1', MIN_SCORE))
}

/// Ink on every row of the glyph: one stroke top to bottom, not a colon's two dots.
fn unbroken(g: &Glyph) -> bool {
    g.cells
        .chunks(g.width.max(1))
        .all(|row| row.iter().any(|&v| v >= 0.5))
}

/// The "Walls: left/budget" counter under the board's left half, read right to left:
/// digits, a slash, digits. `None` unless every one of those glyphs matches a template.
pub(super) fn read_counter(
    img: &RgbaImage,
    board: &Board,
    rows: usize,
    cols: usize,
) -> Option<(u32, u32, f64)> {
    let p = board.y.pitch;
    let bottom = board.y.start + rows as f64 * p;
    let y0 = (bottom + 0.05 * p).max(0.0) as u32;
    let y1 = ((bottom + 1.3 * p) as u32).min(img.height());
    let x0 = (board.x.start - 0.2 * p).max(0.0) as u32;
    let x1 = ((board.x.start + board.x.pitch * cols as f64 * 0.5) as u32).min(img.width());
    if y1 <= y0 + 4 || x1 <= x0 + 4 {
        return None;
    }
    let area = Rect::new(x0, y0, x1 - x0, y1 - y0);
    counter_in(&tall_glyph_boxes(img, area, &super::is_white)).or_else(|| {
        let page = dominant(area_pixels(img, area), 4).0;
        counter_in(&tall_glyph_boxes(img, area, &light_ink(page)))
    })
}

/// The area's pixels.
fn area_pixels(img: &RgbaImage, area: Rect<u32>) -> impl Iterator<Item = Rgb> + Clone + '_ {
    (area.y..area.y + area.h)
        .flat_map(move |y| (area.x..area.x + area.w).map(move |x| rgb(*img.get_pixel(x, y))))
}

/// White text by its brightness against the page it is written on, two thirds of the way
/// from the page to white: a shrunk copy blurs a thin stroke's white into the page, and JPEG
/// keeps brightness sharper than colour, so both fail the plain white test where this holds.
fn light_ink(page: Rgb) -> impl Fn(Rgb) -> bool {
    let level = |p: Rgb| luma(image::Rgba([p[0], p[1], p[2], 255])) as i32;
    let line = level(page) + (255 - level(page)) * 2 / 3;
    move |p| level(p) >= line
}

/// "left/budget" at the end of the glyphs: digits, a slash, digits. The walls left are the
/// digits packed close before the slash: a word space (over half the text's height, the
/// colon's gap 0.4 at the least) parts them from "Walls:", whose "s" can read as a 5 and
/// whose colon a recompressed copy can lose.
fn counter_in(gs: &[GlyphBox]) -> Option<(u32, u32, f64)> {
    let read: Vec<Option<(char, f64)>> = gs.iter().map(|g| match_glyph(&g.glyph)).collect();
    let slash = read.iter().rposition(|g| g.is_some_and(|g| g.0 == '/'))?;
    let number = |range: &[Option<(char, f64)>]| -> Option<(u32, f64)> {
        let mut v = 0u32;
        let mut score = 1.0f64;
        for g in range {
            let (ch, s) = (*g)?;
            v = v * 10 + ch.to_digit(10)?;
            score = score.min(s);
        }
        (!range.is_empty()).then_some((v, score))
    };
    let budget = number(&read[slash + 1..])?;
    let height = |g: &GlyphBox| (g.box_.3 - g.box_.1 + 1) as f64;
    let tall = gs[slash..].iter().map(height).fold(0.0, f64::max);
    let packed = tall * DIGIT_GAP;
    let is_digit = |k: usize| read[k].is_some_and(|g| g.0.is_ascii_digit());
    let mut start = slash;
    while start > 0 && is_digit(start - 1) && gap(&gs[start - 1], &gs[start]) <= packed {
        start -= 1;
    }
    let left = number(&read[start..slash])?;
    // A digit or slash broken in pieces (a recompressed stroke) can match a template piece
    // by piece: each must stand as tall as the text.
    if gs[start..].iter().any(|g| height(g) < FULL_HEIGHT * tall) {
        return None;
    }
    // More walls left than the budget is a digit lost (a rescaled "12/12" read as "12/2").
    (left.0 <= budget.0).then_some((left.0, budget.0, left.1.min(budget.1)))
}

/// The widest gap between two glyphs of one number, for the text's height: the font packs
/// digits within a quarter of it.
const DIGIT_GAP: f64 = 0.33;

/// The least height of a digit or slash, for the tallest of the counter's: Schoolbell's
/// digits and slash stand within a tenth of each other.
const FULL_HEIGHT: f64 = 0.75;

/// Clear columns between two glyphs, left to right.
fn gap(a: &GlyphBox, b: &GlyphBox) -> f64 {
    b.box_.0.saturating_sub(a.box_.2 + 1) as f64
}

/// What the page's "Score:" line shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShownScore {
    /// The pen's score.
    Value(i32),
    /// "N/A": the horse is not enclosed.
    NotEnclosed,
}

/// The score under the board's right half: the value is written in gold after a white
/// "Score:". A leading minus (costly walls) is a flat stroke, too low for a glyph of its own,
/// so it is told by its shape. `None` unless every glyph is read.
pub(super) fn read_score(
    img: &RgbaImage,
    board: &Board,
    rows: usize,
    cols: usize,
) -> Option<(ShownScore, f64)> {
    let p = board.y.pitch;
    let bottom = board.y.start + rows as f64 * p;
    let y0 = (bottom + 0.05 * p).max(0.0) as u32;
    let y1 = ((bottom + 1.3 * p) as u32).min(img.height());
    let x0 = (board.x.start + board.x.pitch * cols as f64 * 0.5).max(0.0) as u32;
    let x1 = ((board.x.start + board.x.pitch * (cols as f64 + 0.3)) as u32).min(img.width());
    if y1 <= y0 + 4 || x1 <= x0 + 4 {
        return None;
    }
    let gs = glyph_boxes(img, Rect::new(x0, y0, x1 - x0, y1 - y0), &super::is_gold);
    let tall = gs.iter().map(|g| g.box_.3 - g.box_.1).max()?;
    if tall < 6 {
        return None;
    }
    let mut it = gs.iter().peekable();
    let negative = it.next_if(|g| {
        let (w, h) = (g.box_.2 - g.box_.0, g.box_.3 - g.box_.1);
        w >= 2 * h.max(1) && h * 3 <= tall
    });
    let read: Vec<Option<(char, f64)>> = it
        .filter(|g| g.box_.3 - g.box_.1 >= 4)
        .map(|g| match_glyph(&g.glyph))
        .collect();
    if negative.is_none() && read.len() == 3 && read[1].is_some_and(|g| g.0 == '/') {
        // "N/A": the letters have no templates, the slash between them does.
        return Some((ShownScore::NotEnclosed, read[1]?.1));
    }
    let (mut v, mut score) = (0i32, 1.0f64);
    for g in &read {
        let (ch, s) = (*g)?;
        v = v.checked_mul(10)?.checked_add(ch.to_digit(10)? as i32)?;
        score = score.min(s);
    }
    (!read.is_empty()).then_some((
        ShownScore::Value(if negative.is_some() { -v } else { v }),
        score,
    ))
}
