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
    glyph_boxes_starting(img, area, ink, area.h as usize)
}

/// As `glyph_boxes`, of the ink that starts in the area's top `rows` rows (kept whole however
/// far down it runs).
fn glyph_boxes_starting(
    img: &RgbaImage,
    area: Rect<u32>,
    ink: &dyn Fn(Rgb) -> bool,
    rows: usize,
) -> Vec<GlyphBox> {
    let patch = ink_patch(img, area, ink);
    let w = patch.width;
    let mut boxes: Vec<Bounds> = components(&patch.on, w, Connectivity::Eight)
        .into_iter()
        .filter(|c| c.y0 < rows)
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
#[cfg(test)]
pub(super) fn tall_glyph_boxes(
    img: &RgbaImage,
    area: Rect<u32>,
    ink: &dyn Fn(Rgb) -> bool,
) -> Vec<GlyphBox> {
    tall(glyph_boxes(img, area, ink))
}

/// The boxes at least 4 pixels tall (specks dropped).
fn tall(gs: Vec<GlyphBox>) -> Vec<GlyphBox> {
    gs.into_iter()
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
        let ch = m.label.chars().next()?;
        // A loop the ink does not close is no loop: two 1s blurred into one blob (a copy
        // shrunk to 40 % and enlarged again) matched the 8 at 0.86, and "11/11" read as 18/18.
        if LOOPED.contains(ch) && !shows_hole(g) {
            return None;
        }
        return Some((ch, m.score));
    }
    // Stretched to the template size, a bare stroke's slant and thickness vary with the size
    // the page draws it at (a "1" at 40 px tiles scored 0.70, a thinner one had no template
    // of its width), but no other character the counter or score shows is one unbroken
    // upright stroke: it is read from its box, at the least score that passes.
    (g.aspect.is_some_and(|a| a <= STROKE_ASPECT) && unbroken(g)).then_some(('1', MIN_SCORE))
}

/// The digits Schoolbell draws with a closed loop.
const LOOPED: &str = "0689";

/// Whether the glyph's ink closes a loop, allowing a break up to `BREAK` cells across: a
/// copy shrunk to three quarters thins Schoolbell's 0 to a one-pixel stroke that the resampling
/// breaks in places (two or three cells of the stretched glyph), while two 1s blurred into one
/// blob leave a gap as wide as the glyph's inside. The ink is also tried as it stands, since
/// thickening it fills a small loop (the 6's) as well as a break.
fn shows_hole(g: &Glyph) -> bool {
    let ink: Vec<bool> = g.cells.iter().map(|&v| v >= 0.5).collect();
    encloses(&ink, g.width, g.height)
        || encloses(&thickened(&ink, g.width, BREAK / 2), g.width, g.height)
}

/// The widest break in a loop's stroke, in cells of the stretched glyph, that still counts as
/// closed.
const BREAK: usize = 4;

/// The ink grown by `by` cells side by side (each step to the four neighbours).
fn thickened(ink: &[bool], w: usize, by: usize) -> Vec<bool> {
    let h = ink.len() / w.max(1);
    let mut cur = ink.to_vec();
    for _ in 0..by {
        cur = (0..w * h)
            .map(|k| {
                let (x, y) = (k % w, k / w);
                cur[k]
                    || (x > 0 && cur[k - 1])
                    || (x + 1 < w && cur[k + 1])
                    || (y > 0 && cur[k - w])
                    || (y + 1 < h && cur[k + w])
            })
            .collect();
    }
    cur
}

/// Whether background cells exist that no path of background cells (side by side) leads to
/// from the mask's border: a piece of background that does not reach the border.
fn encloses(ink: &[bool], w: usize, h: usize) -> bool {
    let background: Vec<bool> = ink.iter().map(|&on| !on).collect();
    components(&background, w, Connectivity::Four)
        .iter()
        .any(|c| c.x0 > 0 && c.y0 > 0 && c.x1 + 1 < w && c.y1 + 1 < h)
}

/// Ink on every row of the glyph: one stroke top to bottom, not a colon's two dots.
fn unbroken(g: &Glyph) -> bool {
    g.cells
        .chunks(g.width.max(1))
        .all(|row| row.iter().any(|&v| v >= 0.5))
}

/// The "Walls: left/budget" counter under the board's left half, read right to left:
/// digits, a slash, digits. `None` unless every one of those glyphs matches a template, the
/// string is laid out as the font lays it out, and no faint stroke beside it went unread.
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
    let page = dominant(area_pixels(img, area), 4).0;
    let faint = ink_patch(img, area, &ink_above(page, FAINT));
    // The text starts in the area, but where the page draws its tiles small for the text
    // (a 13×13 board at device scale 1.5: 31 px tiles, 27 px text) it runs on below it, and a
    // 0 cut off at the area's foot is no closed loop: glyphs are cut from a taller strip, and
    // those that start in the area kept whole.
    let below = ((bottom + RUN_ON * p) as u32).min(img.height()).max(y1);
    let strip = Rect::new(x0, y0, x1 - x0, below - y0);
    let started = |ink: &dyn Fn(Rgb) -> bool| {
        Line::read(tall(glyph_boxes_starting(
            img,
            strip,
            ink,
            (y1 - y0) as usize,
        )))
    };
    let white = started(&super::is_white);
    let light = started(&ink_above(page, LIGHT));
    let half = started(&ink_above(page, HALF));
    let reads = [
        counter_in(&white, &[&light], &faint),
        counter_in(&light, &[&white], &faint),
        // The loosest test is heard last and answers to both others: where either finds a
        // glyph as tall that reads otherwise (a "4" this test closed into a 9), it is silent.
        counter_in(&half, &[&white, &light], &faint),
    ];
    // Each ink test reads the strokes it keeps; where several read the counter they must
    // agree, or a stroke one of them lost (the top of a "4" that then reads as a 9) decided a
    // digit.
    let mut read = reads.into_iter().flatten();
    let first = read.next()?;
    read.try_fold(first, |a, b| {
        ((a.0, a.1) == (b.0, b.1)).then_some((a.0, a.1, a.2.max(b.2)))
    })
}

/// How far below the board, in tiles, the counter's text may run on.
const RUN_ON: f64 = 2.0;

/// The area's pixels.
fn area_pixels(img: &RgbaImage, area: Rect<u32>) -> impl Iterator<Item = Rgb> + Clone + '_ {
    (area.y..area.y + area.h)
        .flat_map(move |y| (area.x..area.x + area.w).map(move |x| rgb(*img.get_pixel(x, y))))
}

/// The area's pixels that `ink` takes, as a patch.
fn ink_patch(img: &RgbaImage, area: Rect<u32>, ink: &dyn Fn(Rgb) -> bool) -> Ink {
    let (w, h) = (area.w as usize, area.h as usize);
    Ink {
        width: w,
        height: h,
        on: (0..w * h)
            .map(|k| {
                ink(rgb(*img.get_pixel(
                    area.x + (k % w) as u32,
                    area.y + (k / w) as u32,
                )))
            })
            .collect(),
    }
}

/// White text by its brightness against the page it is written on, two thirds of the way
/// from the page to white: a shrunk copy blurs a thin stroke's white into the page, and JPEG
/// keeps brightness sharper than colour, so both fail the plain white test where this holds.
const LIGHT: f64 = 2.0 / 3.0;

/// A third of the way from the page to white: too loose to read by (neighbouring strokes
/// merge), but a stroke blurred below the reading tests still shows (a 1-px "1" shrunk by a box
/// average stays at about 60 % of the way).
const FAINT: f64 = 1.0 / 3.0;

/// Half the way from the page to white: a copy shrunk to about three quarters by a bilinear
/// filter or a box average leaves the 1-px strokes of a counter 10 px tall between a half and
/// two thirds of the way, so the two reading tests above break its "1"s, "2"s and slash in
/// pieces; this one keeps them whole, at the cost of merging glyphs in a sharper copy (which
/// then read as nothing).
const HALF: f64 = 0.5;

/// Pixels brighter than `share` of the way from the page's brightness to white.
fn ink_above(page: Rgb, share: f64) -> impl Fn(Rgb) -> bool {
    let level = |p: Rgb| luma(image::Rgba([p[0], p[1], p[2], 255])) as f64;
    let line = level(page) + (255.0 - level(page)) * share;
    move |p| level(p) >= line
}

/// The glyphs one ink test finds on the counter's line, and what each reads as.
struct Line {
    glyphs: Vec<GlyphBox>,
    read: Vec<Option<(char, f64)>>,
}

impl Line {
    fn read(glyphs: Vec<GlyphBox>) -> Line {
        let read = glyphs.iter().map(|g| match_glyph(&g.glyph)).collect();
        Line { glyphs, read }
    }
}

/// "left/budget" at the end of the glyphs: digits, a slash, digits, with the font's spacing.
/// The walls left are the tall glyphs before the slash back to "Walls:", whose colon and "s"
/// stand half the text's height (no "l" of it closer than a whole height, even with both
/// lost); each must read as a digit. A gap wider than the font puts between digits, or a
/// glyph that does not read, leaves the counter unread rather than read as another number.
fn counter_in(line: &Line, others: &[&Line], faint: &Ink) -> Option<(u32, u32, f64)> {
    let (gs, read) = (&line.glyphs[..], &line.read[..]);
    let slash = read.iter().rposition(|g| g.is_some_and(|g| g.0 == '/'))?;
    let height = |g: &GlyphBox| (g.box_.3 - g.box_.1 + 1) as f64;
    let tall = gs[slash..].iter().map(height).fold(0.0, f64::max);
    let is_digit = |k: usize| read[k].is_some_and(|g| g.0.is_ascii_digit());
    let full = |k: usize| height(&gs[k]) >= FULL_HEIGHT * tall;
    let mut start = slash;
    while start > 0 && full(start - 1) && gap(&gs[start - 1], &gs[start]) <= WORD_GAP * tall {
        if !is_digit(start - 1) {
            return None;
        }
        start -= 1;
    }
    let number = |range: std::ops::Range<usize>| -> Option<(u32, f64)> {
        let mut v = 0u32;
        let mut score = 1.0f64;
        for k in range.clone() {
            let (ch, s) = read[k]?;
            v = v.checked_mul(10)?.checked_add(ch.to_digit(10)?)?;
            score = score.min(s);
            if k > range.start && gap(&gs[k - 1], &gs[k]) > DIGIT_GAP * tall + 1.0 {
                return None;
            }
        }
        (!range.is_empty()).then_some((v, score))
    };
    let left = number(start..slash)?;
    let budget = number(slash + 1..gs.len())?;
    // Beside the slash the font leaves a sliver: a digit lost there leaves its width and more.
    if gap(&gs[slash - 1], &gs[slash]) > SLASH_GAP * tall + 1.0
        || gap(&gs[slash], &gs[slash + 1]) > SLASH_GAP * tall + 1.0
    {
        return None;
    }
    // A digit or slash broken in pieces (a recompressed stroke) can match a template piece
    // by piece: each must stand as tall as the text.
    if !(start..gs.len()).all(full) {
        return None;
    }
    if unread_stroke(faint, &gs[start..], tall) {
        return None;
    }
    // A stroke at the edge of what one ink test keeps can turn a digit into another (a "4"
    // whose open top blurs shut reads as a 9): a digit counts only if the other test, where
    // it finds a glyph as tall there, reads it the same.
    let disputed = |k: usize| {
        let b = gs[k].box_;
        others.iter().any(|other| {
            other.glyphs.iter().zip(&other.read).any(|(o, r)| {
                o.box_.0 <= b.2
                    && b.0 <= o.box_.2
                    && height(o) >= OPINION * tall
                    && r.map(|r| r.0) != read[k].map(|r| r.0)
            })
        })
    };
    if (start..gs.len()).any(disputed) {
        return None;
    }
    // More walls left than the budget is a digit lost (a rescaled "12/12" read as "12/2").
    (left.0 <= budget.0).then_some((left.0, budget.0, left.1.min(budget.1)))
}

/// Whether the faint ink shows a stroke on the counter's line that none of its glyphs holds:
/// a digit blurred below the reading test (a box-shrunk "12/12" reads "2/2" without its thin
/// "1"s). Columns within a few pixels of a glyph are its own blur; the search reaches less than
/// the colon's distance before the first digit, and a digit's width past the last.
fn unread_stroke(faint: &Ink, gs: &[GlyphBox], tall: f64) -> bool {
    let (Some(first), Some(last)) = (gs.first(), gs.last()) else {
        return false;
    };
    let top = gs.iter().map(|g| g.box_.1).min().unwrap_or(0);
    let bottom = gs.iter().map(|g| g.box_.3).max().unwrap_or(0);
    let margin = (BLUR * tall).max(1.5);
    let from = (first.box_.0 as f64 - BEFORE * tall).max(0.0) as usize;
    let to = ((last.box_.2 as f64 + AFTER * tall) as usize).min(faint.width - 1);
    let least = (STROKE * tall).max(2.0) as usize;
    (from..=to).any(|x| {
        let held = gs
            .iter()
            .any(|g| x as f64 >= g.box_.0 as f64 - margin && x as f64 <= g.box_.2 as f64 + margin);
        !held
            && (top..=bottom.min(faint.height - 1))
                .filter(|&y| faint.on[y * faint.width + x])
                .count()
                >= least
    })
}

/// The widest gap between two digits of one number, for the text's height: a "1" has wide
/// sides in this font, and two of them stand a third of the height apart.
const DIGIT_GAP: f64 = 0.5;

/// The least gap between "Walls:" and the walls left for the text's height: the colon stands
/// half a height before the first digit, a lost colon's "s" a whole height.
const WORD_GAP: f64 = 0.7;

/// The widest gap beside the slash for the text's height (the font's is under a fifth).
const SLASH_GAP: f64 = 0.3;

/// How far a glyph's blur reaches, in text heights, past the box the reading test gives it.
const BLUR: f64 = 0.12;

/// How far before the first digit and past the last the faint ink is searched for a lost
/// stroke, in text heights: short of the colon, and a digit's width past the end.
const BEFORE: f64 = 0.45;
const AFTER: f64 = 0.8;

/// The least faint ink in one column, in text heights, that makes a stroke.
const STROKE: f64 = 0.3;

/// The least height, for the text's, of a glyph the other ink test finds where a digit stands
/// for its reading to count against the digit's: a "4" whose faint top the white test loses
/// still stands two thirds of the text.
const OPINION: f64 = 0.5;

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
/// so it is told by its shape. `None` unless every glyph is read, and every gold mark there
/// is a glyph of the text's height.
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
    // Every other gold mark must stand the text's height: a copy that blurred the gold of
    // "N/A" under the ink test leaves specks of it, and the tallest speck read as an 8.
    let rest: Vec<&GlyphBox> = it.collect();
    if rest
        .iter()
        .any(|g| ((g.box_.3 - g.box_.1) as f64) < FULL_HEIGHT * tall as f64)
    {
        return None;
    }
    let read: Vec<Option<(char, f64)>> = rest.iter().map(|g| match_glyph(&g.glyph)).collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The text's height in the made-up lines, in pixels.
    const H: usize = 24;

    /// A line of glyphs as `(character, left edge, width)`, each the font's own template
    /// (the 40-px one) standing the text's full height; `'?'` is a glyph of no character.
    fn line(spec: &[(char, usize, usize)]) -> Line {
        let glyphs = spec
            .iter()
            .map(|&(ch, x, w)| {
                let glyph = templates()
                    .iter()
                    .rev()
                    .find(|(l, _)| l.starts_with(ch))
                    .map(|(_, g)| g.clone())
                    // Ink at the top and the bottom only: no template, nor a bare stroke.
                    .unwrap_or_else(|| {
                        let on: Vec<bool> = (0..GW * GH)
                            .map(|k| k / GW < 4 || k / GW >= GH - 4)
                            .collect();
                        Glyph::from_mask(GW, GH, &on)
                    });
                GlyphBox {
                    box_: (x, 0, x + w - 1, H - 1),
                    glyph: Glyph {
                        aspect: Some(w as f64 / H as f64),
                        ..glyph
                    },
                }
            })
            .collect();
        Line::read(glyphs)
    }

    fn blank() -> Ink {
        Ink {
            width: 200,
            height: H,
            on: vec![false; 200 * H],
        }
    }

    fn mask(rows: &[&str]) -> Glyph {
        let on: Vec<bool> = rows
            .iter()
            .flat_map(|r| r.chars().map(|c| c == '#'))
            .collect();
        Glyph::from_mask(rows[0].len(), rows.len(), &on)
    }

    /// A ring of ink `w` by `h` cells, two cells thick, with the given cells left blank.
    fn ring(w: usize, h: usize, blank: &[(usize, usize)]) -> Glyph {
        let on: Vec<bool> = (0..w * h)
            .map(|k| {
                let (x, y) = (k % w, k / w);
                let edge = x < 2 || x + 2 >= w || y < 2 || y + 2 >= h;
                edge && !blank.contains(&(x, y))
            })
            .collect();
        Glyph::from_mask(w, h, &on)
    }

    #[test]
    fn a_loop_broken_by_a_few_cells_still_counts_as_closed() {
        assert!(shows_hole(&ring(GW, GH, &[])));
        let three_rows: Vec<(usize, usize)> = (7..10).flat_map(|y| [(0, y), (1, y)]).collect();
        assert!(shows_hole(&ring(GW, GH, &three_rows)));
        let two_cols: Vec<(usize, usize)> = (5..7).flat_map(|x| [(x, 0), (x, 1)]).collect();
        assert!(shows_hole(&ring(GW, GH, &two_cols)));
        // A break wider than `BREAK` is an opening, not a thinned stroke.
        let wide: Vec<(usize, usize)> = (6..12).flat_map(|y| [(0, y), (1, y)]).collect();
        assert!(!shows_hole(&ring(GW, GH, &wide)));
    }

    #[test]
    fn a_small_closed_loop_is_not_filled_by_the_break_allowance() {
        let six = mask(&["..####", ".#....", "#.....", "#.###.", "#.#.#.", "#.###."]);
        assert!(shows_hole(&six));
    }

    #[test]
    fn two_strokes_blurred_together_open_below_show_no_loop() {
        // Two 1s of a shrunk and enlarged copy, run together at the top (read as an 8 at 0.85).
        let blob = mask(&[
            "......###...",
            ".....####...",
            "...######...",
            ".##########.",
            ".###....###.",
            "###.....###.",
            "##......###.",
            "##........##",
            "##........##",
        ]);
        assert!(!shows_hole(&blob));
    }

    /// "Walls: 11/11" as the font spaces it: the colon half a height before the first "1",
    /// two "1"s a third of a height apart.
    fn eleven() -> Vec<(char, usize, usize)> {
        vec![
            ('1', 40, 3),
            ('1', 51, 3),
            ('/', 58, 11),
            ('1', 72, 3),
            ('1', 83, 3),
        ]
    }

    #[test]
    fn two_ones_a_third_of_the_height_apart_are_one_number() {
        let l = line(&eleven());
        let read = counter_in(&l, &[&line(&[])], &blank()).map(|c| (c.0, c.1));
        assert_eq!(read, Some((11, 11)));
    }

    #[test]
    fn a_full_height_glyph_that_does_not_read_next_to_the_walls_left_leaves_the_counter_unread() {
        let mut spec = eleven();
        spec[0].0 = '?';
        assert_eq!(counter_in(&line(&spec), &[&line(&[])], &blank()), None);
    }

    #[test]
    fn a_digit_lost_beside_the_slash_or_between_digits_leaves_the_counter_unread() {
        // The budget's first "1" gone: the slash stands apart from the "1" left.
        let mut spec = eleven();
        spec.remove(3);
        assert_eq!(counter_in(&line(&spec), &[&line(&[])], &blank()), None);
        // A gap of a whole height inside the budget.
        let mut spec = eleven();
        spec[4].1 = 100;
        assert_eq!(counter_in(&line(&spec), &[&line(&[])], &blank()), None);
    }

    #[test]
    fn a_faint_stroke_no_glyph_holds_leaves_the_counter_unread() {
        // "11/11" read as "1/11": the first "1" only in the faint ink.
        let mut spec = eleven();
        spec.remove(0);
        let l = line(&spec);
        assert!(counter_in(&l, &[&line(&[])], &blank()).is_some());
        let mut faint = blank();
        for y in 0..H {
            faint.on[y * faint.width + 41] = true;
        }
        assert_eq!(counter_in(&l, &[&line(&[])], &faint), None);
    }

    #[test]
    fn a_digit_the_other_ink_test_reads_otherwise_leaves_the_counter_unread() {
        let spec = [
            ('1', 40, 3),
            ('4', 48, 14),
            ('/', 64, 11),
            ('1', 78, 3),
            ('4', 85, 14),
        ];
        let l = line(&spec);
        assert_eq!(
            counter_in(&l, &[&line(&[])], &blank()).map(|c| c.1),
            Some(14)
        );
        let mut other = spec;
        other[4].0 = '9';
        assert_eq!(counter_in(&l, &[&line(&other)], &blank()), None);
        // The other test reading the same, or finding nothing there, takes nothing away.
        assert!(counter_in(&l, &[&line(&spec)], &blank()).is_some());
        assert!(counter_in(&l, &[&line(&spec[..4])], &blank()).is_some());
    }
}
