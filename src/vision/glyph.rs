//! Glyphs (digits, letters) and sprites as small masks, one template format for all of them,
//! and one matcher that ranks templates by a chosen likeness.
//!
//! A glyph is cut from an ink patch in one of two ways: `Ink::normalize` keeps its aspect ratio
//! in a 16×16 square (antialiased digits, compared by coverage), `Ink::stretch` fills a W×H box
//! and remembers the aspect apart (a handwriting font whose strokes vary in width). A sprite is
//! a mask sampled straight from a tile. Templates of every kind live in JSON files of one shape
//! (`TemplateSet`), embedded at build time.

use serde::{Deserialize, Serialize};

/// Side of a glyph made by `Ink::normalize`.
pub const SIZE: usize = 16;
/// Sub-samples per cell side when shrinking a glyph: enough to turn a 1-px stroke into partial
/// coverage instead of dropping it.
const SUB: usize = 4;

/// Coverage 0..1 per cell, row-major; binary masks hold 0 and 1.
#[derive(Debug, Clone, PartialEq)]
pub struct Glyph {
    pub width: usize,
    pub height: usize,
    pub cells: Vec<f32>,
    /// Width over height of the ink's box, when the cells no longer show it.
    pub aspect: Option<f64>,
}

/// A boolean ink patch, row-major.
#[derive(Debug, Clone)]
pub struct Ink {
    pub width: usize,
    pub height: usize,
    pub on: Vec<bool>,
}

/// Inclusive box `(x0, y0, x1, y1)` in patch pixels.
pub type Bounds = (usize, usize, usize, usize);

impl Ink {
    fn at(&self, x: usize, y: usize) -> bool {
        self.on[y * self.width + x]
    }

    /// The ink's bounding box within columns `x0..=x1`, if any ink is there.
    fn bounds_in(&self, x0: usize, x1: usize) -> Option<Bounds> {
        let mut b: Option<Bounds> = None;
        for y in 0..self.height {
            for x in x0..=x1 {
                if self.at(x, y) {
                    b = Some(match b {
                        None => (x, y, x, y),
                        Some((a, c, d, e)) => (a.min(x), c.min(y), d.max(x), e.max(y)),
                    });
                }
            }
        }
        b
    }

    /// Glyphs separated by blank columns, left to right (a two-digit number gives two).
    pub fn split(&self) -> Vec<Bounds> {
        let cols = (0..self.width).map(|x| (0..self.height).any(|y| self.at(x, y)));
        super::runs::runs(cols)
            .into_iter()
            .filter_map(|(s, n)| self.bounds_in(s, s + n - 1))
            .collect()
    }

    /// The box as a `SIZE`×`SIZE` coverage glyph: the box fills the square along its longer
    /// side and is centred along the shorter one, so the aspect ratio is kept.
    pub fn normalize(&self, (x0, y0, x1, y1): Bounds) -> Glyph {
        let (bw, bh) = (x1 + 1 - x0, y1 + 1 - y0);
        let side = bw.max(bh) as f32;
        // Top-left of the square the box is centred in, in patch pixels.
        let sx = x0 as f32 - (side - bw as f32) / 2.0;
        let sy = y0 as f32 - (side - bh as f32) / 2.0;
        let step = side / SIZE as f32;
        let mut out = vec![0f32; SIZE * SIZE];
        for (k, cell) in out.iter_mut().enumerate() {
            let (cx, cy) = ((k % SIZE) as f32, (k / SIZE) as f32);
            let mut hits = 0;
            for a in 0..SUB {
                for b in 0..SUB {
                    let px = sx + (cx + (a as f32 + 0.5) / SUB as f32) * step;
                    let py = sy + (cy + (b as f32 + 0.5) / SUB as f32) * step;
                    let (px, py) = (px.floor(), py.floor());
                    if px >= x0 as f32
                        && py >= y0 as f32
                        && px <= x1 as f32
                        && py <= y1 as f32
                        && self.at(px as usize, py as usize)
                    {
                        hits += 1;
                    }
                }
            }
            *cell = hits as f32 / (SUB * SUB) as f32;
        }
        Glyph {
            width: SIZE,
            height: SIZE,
            cells: out,
            aspect: None,
        }
    }

    /// The box scaled to `width`×`height` cells, a cell on when at least half its pixels are;
    /// the box's width/height ratio goes in `aspect`.
    pub fn stretch(&self, (x0, y0, x1, y1): Bounds, width: usize, height: usize) -> Glyph {
        let (bw, bh) = ((x1 - x0 + 1) as f64, (y1 - y0 + 1) as f64);
        let mut cells = vec![0f32; width * height];
        for (gy, row) in cells.chunks_mut(width).enumerate() {
            for (gx, cell) in row.iter_mut().enumerate() {
                let xa = x0 + (gx as f64 * bw / width as f64) as usize;
                let xb = x0 + (((gx + 1) as f64 * bw / width as f64).ceil() as usize).max(1);
                let ya = y0 + (gy as f64 * bh / height as f64) as usize;
                let yb = y0 + (((gy + 1) as f64 * bh / height as f64).ceil() as usize).max(1);
                let (mut n, mut t) = (0, 0);
                for yy in ya..yb.min(y1 + 1) {
                    for xx in xa..xb.min(x1 + 1) {
                        t += 1;
                        n += self.at(xx, yy) as usize;
                    }
                }
                *cell = (t > 0 && n * 2 >= t) as u8 as f32;
            }
        }
        Glyph {
            width,
            height,
            cells,
            aspect: Some(bw / bh),
        }
    }
}

impl Glyph {
    /// A binary mask as a glyph.
    pub fn from_mask(width: usize, height: usize, on: &[bool]) -> Glyph {
        Glyph {
            width,
            height,
            cells: on.iter().map(|&v| v as u8 as f32).collect(),
            aspect: None,
        }
    }

    fn on(&self, k: usize) -> bool {
        self.cells[k] >= 0.5
    }

    /// The cell-wise mean of several glyphs of one size.
    pub fn mean(glyphs: &[Glyph]) -> Option<Glyph> {
        let first = glyphs.first()?;
        let mut acc = vec![0f32; first.cells.len()];
        for g in glyphs {
            for (a, v) in acc.iter_mut().zip(&g.cells) {
                *a += v;
            }
        }
        Some(Glyph {
            cells: acc.into_iter().map(|v| v / glyphs.len() as f32).collect(),
            ..first.clone()
        })
    }
}

/// How alike a glyph and a template are, 1 for the same. Each suits one way of cutting glyphs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Likeness {
    /// 1 − the mean absolute coverage difference: antialiased glyphs normalised to one size.
    Coverage,
    /// The share of both masks' ink within one cell of the other mask's ink: stroke widths and
    /// rounding differ with the font size.
    NearStroke,
    /// Intersection over union of the cells inside the outer ring (which mixes with the
    /// neighbours in a rescaled capture) in the first `rows` rows, at the best shift of up to
    /// one cell for rounding in the grid fit: sprites sampled from tiles.
    InnerOverlap { rows: usize },
}

impl Likeness {
    pub fn score(self, glyph: &Glyph, template: &Glyph) -> f64 {
        match self {
            Likeness::Coverage => coverage(glyph, template) as f64,
            Likeness::NearStroke => near_stroke(glyph, template),
            Likeness::InnerOverlap { rows } => inner_overlap(glyph, template, rows),
        }
    }
}

fn coverage(a: &Glyph, b: &Glyph) -> f32 {
    let diff: f32 = a
        .cells
        .iter()
        .zip(&b.cells)
        .map(|(a, b)| (a - b).abs())
        .sum();
    1.0 - diff / a.cells.len() as f32
}

fn near_stroke(a: &Glyph, b: &Glyph) -> f64 {
    let (w, h) = (a.width, a.height);
    let near = |m: &Glyph, x: usize, y: usize| {
        (y.saturating_sub(1)..(y + 2).min(h))
            .any(|yy| (x.saturating_sub(1)..(x + 2).min(w)).any(|xx| m.on(yy * w + xx)))
    };
    let covered = |from: &Glyph, to: &Glyph| {
        (0..w * h)
            .filter(|&k| from.on(k) && near(to, k % w, k / w))
            .count()
    };
    let total = (0..w * h).filter(|&k| a.on(k)).count() + (0..w * h).filter(|&k| b.on(k)).count();
    (covered(a, b) + covered(b, a)) as f64 / total.max(1) as f64
}

fn inner_overlap(mask: &Glyph, t: &Glyph, rows: usize) -> f64 {
    let (w, h) = (mask.width as i32, mask.height as i32);
    let mut best = 0.0f64;
    for dy in -1i32..=1 {
        for dx in -1i32..=1 {
            let (mut inter, mut union) = (0u32, 0u32);
            for y in 1..(rows as i32).min(h - 1) {
                for x in 1..w - 1 {
                    let m = mask.on((y * w + x) as usize);
                    let (tx, ty) = (x + dx, y + dy);
                    let tv = (0..w).contains(&tx)
                        && (0..h).contains(&ty)
                        && t.on((ty * w + tx) as usize);
                    inter += (m && tv) as u32;
                    union += (m || tv) as u32;
                }
            }
            if union > 0 {
                best = best.max(inter as f64 / union as f64);
            }
        }
    }
    best
}

/// A labelled template as stored on disk: coverage as 0..=255 per cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Template {
    pub label: String,
    /// How many samples were averaged into it.
    #[serde(default = "one")]
    pub samples: usize,
    /// The ink box's width/height, for glyphs made by `Ink::stretch`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aspect: Option<f64>,
    /// The picture (and place in it) the template was cut from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub mask: Vec<u8>,
}

fn one() -> usize {
    1
}

impl Template {
    pub fn from_glyph(label: &str, samples: usize, g: &Glyph) -> Template {
        Template {
            label: label.to_string(),
            samples,
            aspect: g.aspect,
            source: None,
            mask: g.cells.iter().map(|v| (v * 255.0).round() as u8).collect(),
        }
    }
}

/// One calibration file: templates of one size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TemplateSet {
    pub width: usize,
    pub height: usize,
    pub templates: Vec<Template>,
}

impl TemplateSet {
    /// Reads a calibration file; a template of another size than the file's is an error.
    pub fn from_json(text: &str) -> Result<TemplateSet, String> {
        let set: TemplateSet = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if let Some(t) = set
            .templates
            .iter()
            .find(|t| t.mask.len() != set.width * set.height)
        {
            return Err(format!(
                "template {:?} has {} cells, not {}×{}",
                t.label,
                t.mask.len(),
                set.width,
                set.height
            ));
        }
        Ok(set)
    }

    /// The file as its text, one template a line so a change reads well in a diff.
    pub fn to_json(&self) -> String {
        let lines: Vec<String> = self
            .templates
            .iter()
            .map(|t| serde_json::to_string(t).expect("templates serialise"))
            .collect();
        format!(
            "{{\"width\":{},\"height\":{},\"templates\":[\n{}\n]}}\n",
            self.width,
            self.height,
            lines.join(",\n")
        )
    }

    /// The templates as labelled glyphs, ready to match against.
    pub fn glyphs(&self) -> Vec<(String, Glyph)> {
        self.templates
            .iter()
            .map(|t| {
                (
                    t.label.clone(),
                    Glyph {
                        width: self.width,
                        height: self.height,
                        cells: t.mask.iter().map(|&v| v as f32 / 255.0).collect(),
                        aspect: t.aspect,
                    },
                )
            })
            .collect()
    }
}

/// The best template for a glyph, how alike they are, and how far ahead of the best template
/// with another label.
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    pub label: String,
    pub score: f64,
    pub margin: f64,
}

/// Ranks the templates by `likeness`; when the glyph and a template both know their aspect,
/// a template whose aspect is more than 30% off is not a candidate.
pub fn best_match(g: &Glyph, templates: &[(String, Glyph)], likeness: Likeness) -> Option<Match> {
    let scored: Vec<(f64, &str)> = templates
        .iter()
        .filter(|(_, t)| match (g.aspect, t.aspect) {
            (Some(a), Some(b)) => (a - b).abs() <= 0.3 * a.max(b),
            _ => true,
        })
        .map(|(l, t)| (likeness.score(g, t), l.as_str()))
        .collect();
    ranked(scored)
}

/// As `best_match` by coverage, for a glyph partly hidden by something drawn over it: `hidden`
/// holds each cell's hidden share. A hidden cell says nothing about the glyph, so counting it
/// as blank (what the ink mask shows there) would mark down every template with ink there,
/// the right one most. The template's ink is expected only in a cell's seen share, and the
/// likeness is the mean over what is seen; with nothing hidden it is `Likeness::Coverage`.
pub fn best_match_seen(g: &Glyph, hidden: &Glyph, templates: &[(String, Glyph)]) -> Option<Match> {
    let seen: Vec<f32> = hidden.cells.iter().map(|h| 1.0 - h).collect();
    let total: f32 = seen.iter().sum();
    if total <= 0.0 {
        return None;
    }
    let scored = templates
        .iter()
        .map(|(l, t)| {
            let diff: f32 = g
                .cells
                .iter()
                .zip(&t.cells)
                .zip(&seen)
                .map(|((a, b), s)| (a - b * s).abs())
                .sum();
            ((1.0 - diff / total) as f64, l.as_str())
        })
        .collect();
    ranked(scored)
}

/// The best of templates scored `(likeness, label)`, its lead over the best of another label.
pub fn ranked(mut scored: Vec<(f64, &str)>) -> Option<Match> {
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (score, label) = *scored.first()?;
    let rival = scored.iter().find(|s| s.1 != label).map_or(0.0, |s| s.0);
    Some(Match {
        label: label.to_string(),
        score,
        margin: score - rival,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ink(rows: &[&str]) -> Ink {
        Ink {
            width: rows[0].len(),
            height: rows.len(),
            on: rows
                .iter()
                .flat_map(|r| r.chars().map(|c| c == '#'))
                .collect(),
        }
    }

    #[test]
    fn splits_on_blank_columns_and_keeps_scale_out() {
        let small = ink(&["#..##", "#...#", "#..##"]);
        let parts = small.split();
        assert_eq!(parts, vec![(0, 0, 0, 2), (3, 0, 4, 2)]);
        // The same bar drawn three times larger normalises to the same glyph.
        let big = ink(&[
            "...###...",
            "...###...",
            "...###...",
            "...###...",
            "...###...",
            "...###...",
            "...###...",
            "...###...",
            "...###...",
        ]);
        let a = small.normalize(parts[0]);
        let b = big.normalize(big.split()[0]);
        let alike = Likeness::Coverage.score(&a, &b);
        assert!(alike > 0.99, "{alike}");
        // A thin bar stays thin: the aspect ratio is kept.
        let covered: f32 = a.cells.iter().sum();
        assert!(covered < (SIZE * SIZE) as f32 * 0.5);
    }

    #[test]
    fn matches_the_nearest_template_with_a_margin() {
        let bar = ink(&["#", "#", "#"]);
        let block = ink(&["##", "##"]);
        let tb = bar.normalize(bar.split()[0]);
        let tk = block.normalize(block.split()[0]);
        let templates = vec![("bar".to_string(), tb.clone()), ("block".to_string(), tk)];
        let m = best_match(&tb, &templates, Likeness::Coverage).unwrap();
        assert_eq!(m.label, "bar");
        assert_eq!(m.score, 1.0);
        assert!(m.margin > 0.3);
        assert!(best_match(&tb, &[], Likeness::Coverage).is_none());
        assert_eq!(Glyph::mean(&[tb.clone(), tb.clone()]), Some(tb));
    }

    #[test]
    fn stretched_glyphs_match_across_stroke_widths_and_filter_by_aspect() {
        let thin = ink(&["#....#", "#....#", "######", "#....#", "#....#"]);
        let bold = ink(&[
            "##......##",
            "##......##",
            "##......##",
            "##########",
            "##########",
            "##......##",
            "##......##",
            "##......##",
        ]);
        let a = thin.stretch(thin.split()[0], 12, 18);
        let b = bold.stretch(bold.split()[0], 12, 18);
        assert!(Likeness::NearStroke.score(&a, &b) > 0.9);
        let bar = ink(&["#", "#", "#", "#", "#"]);
        let tall = bar.stretch(bar.split()[0], 12, 18);
        assert!(tall.aspect.unwrap() < 0.3);
        // The bar's aspect rules out the wide template; the other one is taken.
        let templates = vec![
            ("H".to_string(), b.clone()),
            ("I".to_string(), tall.clone()),
        ];
        assert_eq!(
            best_match(&tall, &templates, Likeness::NearStroke)
                .unwrap()
                .label,
            "I"
        );
        let only_h = vec![("H".to_string(), b)];
        assert!(best_match(&tall, &only_h, Likeness::NearStroke).is_none());
    }

    #[test]
    fn overlap_forgives_a_one_cell_shift_but_not_another_shape() {
        let mut square = vec![false; 8 * 8];
        let mut moved = vec![false; 8 * 8];
        let mut cross = vec![false; 8 * 8];
        for y in 2..5 {
            for x in 2..5 {
                square[y * 8 + x] = true;
                moved[(y + 1) * 8 + x + 1] = true;
            }
        }
        for k in 1..7 {
            cross[4 * 8 + k] = true;
            cross[k * 8 + 4] = true;
        }
        let (s, m, c) = (
            Glyph::from_mask(8, 8, &square),
            Glyph::from_mask(8, 8, &moved),
            Glyph::from_mask(8, 8, &cross),
        );
        let whole = Likeness::InnerOverlap { rows: 8 };
        assert_eq!(whole.score(&s, &m), 1.0);
        assert!(whole.score(&s, &c) < 0.4);
        // Only the top rows count when the rest is hidden.
        assert!(Likeness::InnerOverlap { rows: 1 }.score(&s, &m) == 0.0);
    }

    #[test]
    fn hidden_cells_neither_count_against_a_template_nor_for_it() {
        let mask = |rows: &[&str]| {
            let i = ink(rows);
            Glyph::from_mask(i.width, i.height, &i.on)
        };
        // A ring whose middle columns a line drawn over it hides: as blank they make it as
        // like two bars as the ring.
        let cut = mask(&["##..##", "#....#", "#....#", "#....#", "#....#", "##..##"]);
        let hidden = mask(&["..##..", "..##..", "..##..", "..##..", "..##..", "..##.."]);
        let ring = mask(&["######", "#....#", "#....#", "#....#", "#....#", "######"]);
        let bars = mask(&["#....#", "#....#", "#....#", "#....#", "#....#", "#....#"]);
        let templates = vec![("ring".to_string(), ring), ("bars".to_string(), bars)];
        let blind = best_match(&cut, &templates, Likeness::Coverage).unwrap();
        assert_eq!(blind.margin, 0.0);
        let seen = best_match_seen(&cut, &hidden, &templates).unwrap();
        assert_eq!(seen.label, "ring");
        assert_eq!(seen.score, 1.0);
        assert!(seen.margin > 0.1);
        // With nothing hidden it is the coverage likeness, to the bit.
        let none = Glyph::from_mask(6, 6, &[false; 36]);
        let plain = best_match_seen(&cut, &none, &templates).unwrap();
        assert_eq!(plain, blind);
        // All hidden: nothing to go by.
        let all = Glyph::from_mask(6, 6, &[true; 36]);
        assert!(best_match_seen(&cut, &all, &templates).is_none());
    }

    #[test]
    fn template_files_round_trip_and_refuse_a_wrong_size() {
        let g = Glyph::from_mask(2, 2, &[true, false, false, true]);
        let set = TemplateSet {
            width: 2,
            height: 2,
            templates: vec![Template::from_glyph("d", 1, &g)],
        };
        let back = TemplateSet::from_json(&set.to_json()).unwrap();
        assert_eq!(back.glyphs(), vec![("d".to_string(), g)]);
        let bad = r#"{"width":3,"height":3,"templates":[{"label":"x","mask":[1,2]}]}"#;
        assert!(TemplateSet::from_json(bad).unwrap_err().contains("2 cells"));
    }
}
