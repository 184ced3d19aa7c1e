//! Glyphs (digits and the like) as small scale-free coverage masks, and matching them against
//! templates: a glyph cut from any tile size compares with templates made at any other.

use serde::{Deserialize, Serialize};

/// Side of a normalised glyph, in cells.
pub const SIZE: usize = 16;
/// Sub-samples per cell side when shrinking a glyph: enough to turn a 1-px stroke into partial
/// coverage instead of dropping it.
const SUB: usize = 4;

/// Coverage 0..1 per cell, row-major, `SIZE`×`SIZE`; the ink's bounding box fills the square
/// along its longer side and is centred along the shorter one, so aspect ratio is kept.
#[derive(Debug, Clone, PartialEq)]
pub struct Glyph(pub Vec<f32>);

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
        Glyph(out)
    }
}

impl Glyph {
    /// 1 for identical masks, 0 for complementary ones.
    pub fn similarity(&self, other: &Glyph) -> f32 {
        let diff: f32 = self
            .0
            .iter()
            .zip(&other.0)
            .map(|(a, b)| (a - b).abs())
            .sum();
        1.0 - diff / self.0.len() as f32
    }

    /// The cell-wise mean of several glyphs.
    pub fn mean(glyphs: &[Glyph]) -> Option<Glyph> {
        let first = glyphs.first()?;
        let mut acc = vec![0f32; first.0.len()];
        for g in glyphs {
            for (a, v) in acc.iter_mut().zip(&g.0) {
                *a += v;
            }
        }
        Some(Glyph(
            acc.into_iter().map(|v| v / glyphs.len() as f32).collect(),
        ))
    }
}

/// A labelled template as stored on disk: coverage as 0..=255 per cell.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Template {
    pub label: String,
    /// How many samples were averaged into it.
    pub samples: usize,
    pub mask: Vec<u8>,
}

impl Template {
    pub fn from_glyph(label: &str, samples: usize, g: &Glyph) -> Template {
        Template {
            label: label.to_string(),
            samples,
            mask: g.0.iter().map(|v| (v * 255.0).round() as u8).collect(),
        }
    }

    pub fn glyph(&self) -> Glyph {
        Glyph(self.mask.iter().map(|&v| v as f32 / 255.0).collect())
    }
}

/// The best template for a glyph, how alike they are, and how far ahead of the runner-up.
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    pub label: String,
    pub score: f32,
    pub margin: f32,
}

pub fn best_match(g: &Glyph, templates: &[(String, Glyph)]) -> Option<Match> {
    let mut scored: Vec<(f32, &str)> = templates
        .iter()
        .map(|(l, t)| (g.similarity(t), l.as_str()))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (score, label) = *scored.first()?;
    let margin = scored.get(1).map_or(score, |s| score - s.0);
    Some(Match {
        label: label.to_string(),
        score,
        margin,
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
        assert!(a.similarity(&b) > 0.99, "{}", a.similarity(&b));
        // A thin bar stays thin: the aspect ratio is kept.
        let covered: f32 = a.0.iter().sum();
        assert!(covered < (SIZE * SIZE) as f32 * 0.5);
    }

    #[test]
    fn matches_the_nearest_template_with_a_margin() {
        let bar = ink(&["#", "#", "#"]);
        let block = ink(&["##", "##"]);
        let tb = bar.normalize(bar.split()[0]);
        let tk = block.normalize(block.split()[0]);
        let templates = vec![("bar".to_string(), tb.clone()), ("block".to_string(), tk)];
        let m = best_match(&tb, &templates).unwrap();
        assert_eq!(m.label, "bar");
        assert_eq!(m.score, 1.0);
        assert!(m.margin > 0.3);
        let t = Template::from_glyph("bar", 1, &tb);
        assert!(t.glyph().similarity(&tb) > 0.99);
        assert!(best_match(&tb, &[]).is_none());
        assert_eq!(Glyph::mean(&[tb.clone(), tb.clone()]), Some(tb));
    }
}
