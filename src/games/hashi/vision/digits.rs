//! Island numbers: the glyphs cut out of each island's disc and matched by shape against
//! templates learned from pictures whose puzzles are known, so a number reads alike at any
//! tile size and a doubtful one is refused rather than guessed.

use super::sample::px;
use super::{locate, Located, Style, MIN_CONFIDENCE};
use crate::calibration::{Profile, Samples};
use crate::error::{Error, Region, Result};
use crate::games::hashi::model::Puzzle;
use crate::vision::color::{bilinear, blend_corners};
use crate::vision::glyph::{best_match, Glyph, Ink, Likeness, TemplateSet};
use image::{Rgba, RgbaImage};
use std::sync::OnceLock;

/// A glyph less alike than this to its best template is unreadable, whatever the margin.
const MIN_GLYPH_SCORE: f32 = 0.8;
/// The lead over the runner-up template that counts as full confidence.
const FULL_MARGIN: f32 = 0.1;
/// Similarity to the best template that counts as no confidence, and the span above it to
/// full confidence: clean corpus glyphs score 0.9–0.95 at tile sizes 24–80, a digit with a blot
/// over it about 0.86.
const ZERO_SCORE: f32 = 0.85;
const SCORE_SPAN: f32 = 0.1;
/// A glyph fewer pixels tall than this cannot score as high against templates learned from
/// large, sharp digits: its strokes are a pixel or two wide and its outline is a staircase.
/// Measured on copies of the Bridges fixtures shrunk to 13–19 px cells, the right template's
/// score fell by about 0.015 a pixel under 12 (the lower 5 % at 0.83 for digits 5–6 px tall,
/// 0.90 for 12 px), while the runner-up kept its distance. So the scores that count as no
/// confidence and as unreadable are lowered by that much per pixel; the margin over the
/// runner-up still has to be there.
const SHARP_TALL: f32 = 12.0;
const SCORE_PER_PIXEL: f32 = 0.015;

/// The score that counts as no confidence for a glyph `tall` pixels high.
fn zero_score(tall: f64) -> f32 {
    ZERO_SCORE - SCORE_PER_PIXEL * (SHARP_TALL - tall as f32).max(0.0)
}

/// A glyph cut from a disc, with its height in pixels of the sharpest picture it went
/// through: the picture's pixels, over how many times an enlarged copy was enlarged when the
/// reader can tell (an enlargement adds pixels, not detail; `sgt_blur::sharp_height`).
#[derive(Debug, Clone)]
pub(super) struct Cut {
    pub glyph: Glyph,
    pub tall: f64,
}

/// How many samples at least span a number's disc when its glyphs are cut: a disc fewer
/// pixels across (a small tile, a capture scaled down) is sampled between its pixels, so its
/// strokes keep the smooth outline the templates were learned from instead of a staircase.
const DISC_SAMPLES: f64 = 60.0;
/// The finest sampling, in samples per pixel side.
const MOST_SAMPLES_PER_PIXEL: usize = 3;

/// Cuts the ink inside a disc into glyphs; `ink` decides which (interpolated) pixels are
/// glyph strokes.
pub(super) fn glyphs_in_disc(
    img: &RgbaImage,
    (cx, cy): (f64, f64),
    r: f64,
    ink: impl Fn(Rgba<u8>) -> bool,
) -> Vec<Cut> {
    let fine = ((DISC_SAMPLES / (2.0 * r)).ceil() as usize).clamp(1, MOST_SAMPLES_PER_PIXEL);
    let f = fine as f64;
    let x0 = (cx - r).floor();
    let y0 = (cy - r).floor();
    let pixels = (2.0 * r).ceil() as usize + 2;
    // Each pixel's own test first (one more row and column: a cell's samples blend the pixel
    // and its right and lower neighbours).
    let n = pixels + 1;
    let colours: Vec<Option<Rgba<u8>>> = (0..n * n)
        .map(|k| px(img, x0 + (k % n) as f64, y0 + (k / n) as f64))
        .collect();
    let pixel_ink: Vec<bool> = colours.iter().map(|p| p.is_some_and(&ink)).collect();
    let side = pixels * fine;
    let mut on = vec![false; side * side];
    for pj in 0..pixels {
        for pi in 0..pixels {
            // A blend of pixels none of which is ink is not ink: only cells touching ink are
            // sampled (most of a disc is background).
            let k = pj * n + pi;
            if ![k, k + 1, k + n, k + n + 1].iter().any(|&k| pixel_ink[k]) {
                continue;
            }
            let (x, y) = (x0 + pi as f64, y0 + pj as f64);
            // Off the picture's right or bottom edge: each sample reads what it can.
            let corners = (|| {
                Some([
                    colours[k]?,
                    colours[k + 1]?,
                    colours[k + n]?,
                    colours[k + n + 1]?,
                ])
            })();
            for b in 0..fine {
                for a in 0..fine {
                    let (sx, sy) = (x + a as f64 / f, y + b as f64 / f);
                    if (sx - cx).powi(2) + (sy - cy).powi(2) > r * r {
                        continue;
                    }
                    let colour = match &corners {
                        Some(c) => Some(blend_corners(
                            c,
                            (a as f64 / f) as f32,
                            (b as f64 / f) as f32,
                        )),
                        None => bilinear(img, sx, sy),
                    };
                    on[(pj * fine + b) * side + pi * fine + a] = colour.is_some_and(&ink);
                }
            }
        }
    }
    let patch = Ink {
        width: side,
        height: side,
        on,
    };
    patch
        .split()
        .into_iter()
        // A stray anti-aliased pixel is not a glyph.
        .filter(|&(a, b, c, d)| (c + 1 - a) * (d + 1 - b) >= 4 * fine * fine)
        .map(|b| Cut {
            glyph: patch.normalize(b),
            tall: (b.3 + 1 - b.1) as f64 / f,
        })
        .collect()
}

pub(super) fn templates(style: Style) -> &'static [(String, Glyph)] {
    static SGT: OnceLock<Vec<(String, Glyph)>> = OnceLock::new();
    static WEB: OnceLock<Vec<(String, Glyph)>> = OnceLock::new();
    let (cell, text) = match style {
        Style::Sgt => (
            &SGT,
            include_str!("../../../../calibration/hashi/sgt_digits.json"),
        ),
        Style::Web => (
            &WEB,
            include_str!("../../../../calibration/hashi/web_digits.json"),
        ),
    };
    cell.get_or_init(|| {
        TemplateSet::from_json(text)
            .expect("calibration JSON is embedded at build time")
            .glyphs()
    })
}

/// Each island's number as read: the targets, the worst glyph's confidence, and the islands
/// whose number is a 1 and a second digit too alike to two or more digits to name one, with
/// the numbers they may be (`Undecided`).
pub(super) struct Numbers {
    pub(super) targets: Vec<u8>,
    pub(super) confidence: f64,
    pub(super) undecided: Vec<Undecided>,
}

/// An island whose number may be any of `may_be`, each from 10 to 16.
pub(super) struct Undecided {
    pub(super) island: usize,
    pub(super) may_be: Vec<u8>,
    /// Where it is and why it is not read, for the refusal if the puzzle does not settle it.
    pub(super) region: Region,
    pub(super) why: String,
}

impl Undecided {
    pub(super) fn refusal(&self) -> Error {
        Error::vision(Some(self.region), self.why.clone())
    }
}

/// How close a second digit's other templates may score to the best and still be what the
/// digit is: the Bridges app draws a number of 10 or more in a smaller face, and at 16 px tiles
/// its 3 px wide 0 scores 0.820 against the 0 and 0.805–0.806 against the 6, 8 and 9.
const ALIKE: f32 = 0.05;

/// The most bridges an island can take: four a side in the app (its "m" is at most 4).
const MOST_BRIDGES: u8 = 16;

/// Reads each island's number.
pub(super) fn read_numbers(located: &Located, templates: &[(String, Glyph)]) -> Result<Numbers> {
    let mut worst = 1.0f64;
    let mut targets = Vec::new();
    let mut undecided = Vec::new();
    for (k, f) in located.islands.iter().enumerate() {
        if f.glyphs.is_empty() || f.glyphs.len() > 2 {
            return Err(Error::vision(
                Some(f.region),
                format!(
                    "island at row {} col {}: {} glyphs where a number should be",
                    f.at.row,
                    f.at.col,
                    f.glyphs.len()
                ),
            ));
        }
        let mut text = String::new();
        let mut alike: Option<(f32, Vec<u8>)> = None;
        let mut doubt = false;
        for (i, g) in f.glyphs.iter().enumerate() {
            let zero = zero_score(g.tall);
            let m = best_match(&g.glyph, templates, Likeness::Coverage)
                .filter(|m| m.score as f32 >= MIN_GLYPH_SCORE - (ZERO_SCORE - zero));
            let Some(m) = m else {
                return Err(Error::vision(
                    Some(f.region),
                    format!(
                        "island at row {} col {}: number unreadable (no template matches)",
                        f.at.row, f.at.col
                    ),
                ));
            };
            // Coverage is computed in f32; the thresholds were tuned in it.
            let (score, margin) = (m.score as f32, m.margin as f32);
            let sure = (margin / FULL_MARGIN).min((score - zero) / SCORE_SPAN);
            // The second digit of a number after a 1: the numbers it may be (its digit and
            // those scoring nearly as well) are kept, for the puzzle to settle when the digit
            // is too alike to others to name, or a fainter cut reads it otherwise.
            if i == 1 && text == "1" && score >= zero {
                let may_be: Vec<u8> = templates
                    .iter()
                    .filter(|(_, t)| Likeness::Coverage.score(&g.glyph, t) as f32 >= score - ALIKE)
                    .filter_map(|(l, _)| l.parse::<u8>().ok())
                    .map(|d| 10 + d)
                    .filter(|&n| n <= MOST_BRIDGES)
                    .collect();
                alike = Some((sure, may_be));
            }
            if alike.is_some() && (sure as f64) < MIN_CONFIDENCE {
                doubt = true;
            } else {
                worst = worst.min(sure.clamp(0.0, 1.0) as f64);
            }
            text.push_str(&m.label);
        }
        let faint = faint_text(&f.faint, templates).filter(|t| *t != text);
        // A two-digit number a fainter cut reads as another one it may be (10 to 16): one
        // more reading for the puzzle to settle.
        if let (Some(t), Some((_, may_be))) = (&faint, &mut alike) {
            match t.parse::<u8>() {
                Ok(n) if (10..=MOST_BRIDGES).contains(&n) => {
                    may_be.push(n);
                    doubt = true;
                }
                _ => doubt = false,
            }
        }
        if let Some(faint) = faint.as_ref().filter(|_| !doubt) {
            return Err(Error::vision(
                Some(f.region),
                format!(
                    "island at row {} col {}: number uncertain (read {text}, but {faint} at a \
                     fainter ink level)",
                    f.at.row, f.at.col
                ),
            ));
        }
        let n: u8 = text.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
            Error::vision(
                Some(f.region),
                format!("island number {text:?} is not a number"),
            )
        })?;
        if worst < MIN_CONFIDENCE {
            return Err(Error::vision(
                Some(f.region),
                format!(
                    "island at row {} col {}: number uncertain (read {text}, confidence {worst:.2})",
                    f.at.row, f.at.col
                ),
            ));
        }
        if let Some((sure, mut may_be)) = alike.filter(|_| doubt) {
            may_be.sort_unstable();
            may_be.dedup();
            undecided.push(Undecided {
                island: k,
                may_be,
                region: f.region,
                why: match &faint {
                    Some(t) => format!(
                        "island at row {} col {}: number uncertain (read {text}, but {t} at a \
                         fainter ink level)",
                        f.at.row, f.at.col
                    ),
                    None => format!(
                        "island at row {} col {}: number uncertain (read {text}, confidence \
                         {sure:.2})",
                        f.at.row, f.at.col
                    ),
                },
            });
        }
        targets.push(n);
    }
    Ok(Numbers {
        targets,
        confidence: worst,
        undecided,
    })
}

/// The number the fainter cut of a disc reads, when every glyph of it matches a template at
/// all (scores above the unreadable floor for its height); `None` when it says nothing.
///
/// A stroke thinner than a resampling's blur fades under the ink test: a copy shrunk to a
/// tenth of a cell and enlarged again keeps a 3's spine and loses its arms, and the spine
/// reads as a 1 with confidence. Cut at a fainter level the arms are back and it reads 3. A
/// number drawn sharp reads the same at both levels.
fn faint_text(faint: &[Cut], templates: &[(String, Glyph)]) -> Option<String> {
    if faint.is_empty() {
        return None;
    }
    faint
        .iter()
        .map(|g| {
            let floor = MIN_GLYPH_SCORE - (ZERO_SCORE - zero_score(g.tall));
            best_match(&g.glyph, templates, Likeness::Coverage)
                .filter(|m| m.score as f32 >= floor)
                .map(|m| m.label)
        })
        .collect()
}

/// Learns a digit profile from pictures whose puzzles are known: every island's glyphs are
/// labelled with its number. All pictures must show the same look.
pub fn learn(samples: &[(String, RgbaImage, Puzzle)]) -> Result<Profile> {
    let mut out = Samples::default();
    let mut style = None;
    for (name, img, truth) in samples {
        let l = locate(img).map_err(|e| Error::Usage(format!("{name}: {e}")))?;
        match style {
            None => style = Some(l.style),
            Some(s) if s != l.style => {
                return Err(Error::Usage(format!(
                    "{name}: shows the {} look, the pictures before it the {} look; one \
                     profile is for one look",
                    l.style.name(),
                    s.name()
                )))
            }
            _ => {}
        }
        if l.cols != truth.cols || l.rows != truth.rows {
            return Err(Error::Usage(format!(
                "{name}: the picture shows a {}x{} board, the puzzle is {}x{}",
                l.cols, l.rows, truth.cols, truth.rows
            )));
        }
        for f in &l.islands {
            let t = truth.islands.iter().find(|i| i.at == f.at).ok_or_else(|| {
                Error::Usage(format!(
                    "{name}: an island at row {} col {} that the puzzle does not have",
                    f.at.row, f.at.col
                ))
            })?;
            let text = t.target.to_string();
            if text.len() != f.glyphs.len() {
                return Err(Error::Usage(format!(
                    "{name}: island at row {} col {} shows {} glyphs for the number {text}",
                    f.at.row,
                    f.at.col,
                    f.glyphs.len()
                )));
            }
            for (ch, g) in text.chars().zip(&f.glyphs) {
                out.add(&ch.to_string(), g.glyph.clone());
            }
        }
        if l.islands.len() != truth.islands.len() {
            return Err(Error::Usage(format!(
                "{name}: {} islands found, the puzzle has {}",
                l.islands.len(),
                truth.islands.len()
            )));
        }
        out.used(name);
    }
    let style = style.map_or("sgt", Style::name);
    out.into_profile("hashi", style)
}

#[cfg(test)]
mod tests {
    use super::super::truth::{corpus, index, load, own_captures};
    use super::super::{recognize, Style};
    use super::*;
    use image::Rgba;

    /// `autoplayer calibrate` over the corpus and the captures kept with the calibration makes
    /// exactly the embedded templates (`calibration/make.sh` runs it so).
    #[test]
    fn the_shipped_templates_are_what_calibrate_learns_from_the_corpus() {
        let Some(shots) = corpus() else { return };
        let known = |web: bool| -> Vec<(String, RgbaImage, Puzzle)> {
            shots
                .iter()
                .cloned()
                .chain(own_captures())
                .filter(|(n, _, _)| n.starts_with("hashi_") == web)
                .map(|(n, img, t)| {
                    let puzzle = Puzzle {
                        cols: t.width,
                        rows: t.height,
                        max_bridges: 2,
                        allow_loops: true,
                        islands: t.islands,
                    };
                    (n, img, puzzle)
                })
                .collect()
        };
        for (web, style) in [(false, Style::Sgt), (true, Style::Web)] {
            let learned = learn(&known(web)).unwrap();
            assert_eq!(learned.style, style.name());
            let shipped: Vec<(String, Glyph)> = templates(style).to_vec();
            assert_eq!(learned.glyphs(), shipped, "{style:?}");
        }
    }

    #[test]
    fn a_blotted_number_is_an_error_naming_its_island() {
        let Some((dir, shots)) = index("hashi/screenshots/index.jsonl") else {
            return;
        };
        let mut img = load(&dir, shots[2]["file"].as_str().unwrap());
        let r = recognize(&img).unwrap();
        let island = r.puzzle.islands[0].at;
        let c = r.geometry.centre(island.row, island.col);
        let half = (r.geometry.pitch() * 0.2) as i64;
        for y in c.y as i64 - half..=c.y as i64 + half {
            for x in c.x as i64 - half / 2..=c.x as i64 + half / 2 {
                img.put_pixel(x as u32, y as u32, Rgba([0, 0, 0, 255]));
            }
        }
        match recognize(&img) {
            Err(Error::Vision {
                region: Some(reg), ..
            }) => {
                assert!(reg.x as f64 <= c.x && c.x <= (reg.x + reg.w) as f64);
                assert!(reg.y as f64 <= c.y && c.y <= (reg.y + reg.h) as f64);
            }
            other => panic!("expected an error at the blotted island, got {other:?}"),
        }
    }
}
