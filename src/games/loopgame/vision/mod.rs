//! Reading a Loop board off a picture: the app's canvas anywhere in a full-page capture, light
//! or dark theme, at any cell size.
//!
//! The steps, in order: refuse a capture the win sheet dims (its hints are hidden; `win`);
//! find the board by its flat colour (`board`); fix the lattice from its grid lines
//! (`lattice_lines`), or where they are gone from the board's edges and the numbers
//! (`lattice_edges`); read the drawn path from the ink crossing each edge between neighbouring
//! cells (`path`); cut each number out of its cell (`numbers`, by the rules of `ink`) and read
//! it by shape against templates cut from the corpus (`calibration/loop/digits.json`),
//! checked against its colour (`digits`), with the minus of a count below zero (`sign`); and
//! recover each hint from what the number displays: by default the app counts numbers down as
//! the path is drawn (hint = displayed + path turns in its block), and with its "Show total"
//! behaviour shows the hint itself, and with "Show both" counts down with the hint small in
//! the cell's corner (`corner`); `count_mode` tells which, or refuses.

mod board;
mod corner;
mod count_mode;
mod digits;
mod ink;
mod lattice_edges;
mod lattice_lines;
mod locate;
mod look;
mod numbers;
mod path;
mod sign;
#[cfg(test)]
mod tests;
#[cfg(test)]
pub(super) mod truth;
mod win;

use super::model::{Cell, Puzzle};
use crate::calibration::{Profile, Samples};
use crate::error::{Error, Region, Result};
use crate::vision::geometry::Geometry;
use crate::vision::glyph::Glyph;
use corner::Corner;
use count_mode::Seen;
use digits::{read_number, read_total, templates};
use image::{Rgba, RgbaImage};
use ink::InkRule;
use locate::locate;
use look::Look;
use numbers::{numbers, numbers_by, Cut};
use path::{path_turns, read_path};
use sign::Sign;
use win::refuse_win_sheet;

pub use win::{shows_loop_won, win_sheet};

/// The app follows the system's colour scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    Light,
    Dark,
}

#[derive(Debug, Clone)]
pub struct Reading {
    /// The hints, recovered from the displayed numbers and the drawn path.
    pub puzzle: Puzzle,
    pub geometry: Geometry,
    pub theme: Theme,
    /// The drawn path's cells in order along it, empty when nothing is drawn. A picture does
    /// not show where the stroke began: an open path starts at its end that comes first in
    /// row-major order, a closed one at its first cell in row-major order, heading to the
    /// smaller of its two neighbours.
    pub path: Vec<Cell>,
    /// Whether the path is a closed loop.
    pub closed: bool,
    /// Whether the board shows the win. A capture under the win sheet is refused (the sheet
    /// hides the hints), so a reading is only solved when the sheet was dismissed and the path
    /// shows green; that look is not in the corpus, so this stays false until it is calibrated.
    pub solved: bool,
    /// 0..1: the least sure of the number readings and of the decisions that a cell with a
    /// little number ink is blank; below `MIN_CONFIDENCE` a reading is refused.
    pub confidence: f64,
}

/// Below this confidence a reading is refused.
pub const MIN_CONFIDENCE: f64 = 0.3;

pub fn recognize(img: &RgbaImage) -> Result<Reading> {
    recognize_with(img, None)
}

/// As [`recognize`], with the numbers matched against a learned profile instead of the
/// embedded templates.
pub fn recognize_with(img: &RgbaImage, profile: Option<&Profile>) -> Result<Reading> {
    refuse_win_sheet(img)?;
    let located = locate(img)?;
    match profile {
        None => read(img, &located, templates()),
        Some(p) => {
            p.check_for("loop", "app")?;
            read(img, &located, &p.glyphs())
        }
    }
}

/// Learns a digit profile from pictures whose puzzles are known. Each number is labelled with
/// what the app shows there: its hint less the path's turns already drawn in its block. A
/// number the path crosses is left out (the path hides some of its strokes).
pub fn learn(samples: &[(String, RgbaImage, Puzzle)]) -> Result<Profile> {
    let mut out = Samples::default();
    for (name, img, truth) in samples {
        let named = |e: Error| Error::Usage(format!("{name}: {e}"));
        refuse_win_sheet(img).map_err(named)?;
        let l = locate(img).map_err(named)?;
        let n = l.size;
        if truth.cols != n || truth.rows != n {
            return Err(Error::Usage(format!(
                "{name}: the picture shows a {n}x{n} board, the puzzle is {}x{}",
                truth.cols, truth.rows
            )));
        }
        let (path, closed) = read_path(img, &l).map_err(named)?;
        let turns = path_turns(n, &path, closed);
        let mut took = false;
        for f in numbers(img, &l) {
            let [r, c] = f.at;
            let Some(hint) = truth.hints[r * n + c] else {
                return Err(Error::Usage(format!(
                    "{name}: a number at row {r} col {c}, where the puzzle has no hint"
                )));
            };
            let drawn = truth.block(r, c).filter(|&[a, b]| turns[a * n + b]).count() as i32;
            let shown = hint as i32 - drawn;
            // The templates are digits: a count below zero, or where the path may hide its
            // minus, teaches nothing surer than the other numbers do.
            if f.crossed || f.glyphs.len() != 1 || f.sign != Sign::Plus || shown < 0 {
                continue;
            }
            out.add(&shown.to_string(), f.glyphs[0].clone());
            took = true;
        }
        if took {
            out.used(name);
        }
    }
    out.into_profile("loop", "app")
}

/// The board found, its lattice fixed, nothing read yet.
#[derive(Debug, Clone)]
struct Located {
    look: Look,
    pub geometry: Geometry,
    pub size: usize,
}

fn region_of(r: crate::rect::Rect<f64>) -> Region {
    Region {
        x: r.x.round() as i32,
        y: r.y.round() as i32,
        w: r.w.round().max(1.0) as i32,
        h: r.h.round().max(1.0) as i32,
    }
}

fn pixel(img: &RgbaImage, x: f64, y: f64) -> Option<Rgba<u8>> {
    let (x, y) = (x.round(), y.round());
    (x >= 0.0 && y >= 0.0 && x < img.width() as f64 && y < img.height() as f64)
        .then(|| *img.get_pixel(x as u32, y as u32))
}

/// Reads the board with the numbers cut as the templates were learned; when that is refused,
/// again with the smear-cutting ink rules of a JPEG copy (a fixed brightness step, then the
/// brightness share matched to each number's colour), each reading passing the same checks
/// (template score, margin, colour agreeing with shape). The first refusal's reason is kept
/// when all fail: it is the one that describes an ordinary capture.
fn read(img: &RgbaImage, l: &Located, templates: &[(String, Glyph)]) -> Result<Reading> {
    read_by(img, l, templates, InkRule::Saturated).or_else(|first| {
        read_by(img, l, templates, InkRule::Contrasted)
            .or_else(|_| read_by(img, l, templates, InkRule::Matched))
            .map_err(|_| first)
    })
}

/// How sure a cell holding `share` of its inner square in number ink is blank: 1 with none,
/// 0 at half the share that makes a number (`numbers::NUMBER_SHARE`). The blank cells of the
/// corpus and its rescaled and JPEG copies hold none or nearly none (see
/// docs/loop-vision-robustness.md); a number's least stroke covers several times that share.
fn blank_confidence(share: f64) -> f64 {
    (1.0 - share / (0.5 * numbers::NUMBER_SHARE)).clamp(0.0, 1.0)
}

fn read_by(
    img: &RgbaImage,
    l: &Located,
    templates: &[(String, Glyph)],
    rule: InkRule,
) -> Result<Reading> {
    let n = l.size;
    let (path, closed) = read_path(img, l)?;
    let turns = path_turns(n, &path, closed);
    let puzzle = Puzzle::empty(n, n);
    let mut confidence = 1.0f64;
    let Cut { numbers, mut faint } = numbers_by(img, l, rule);
    if rule != InkRule::Saturated {
        // A stricter rule can leave too little of a faint number (a pale one in a shrunk copy)
        // to count: its cell would read as blank, a hint lost. Every number the learned rule
        // sees must still be there, and a cell where it sees some number ink stays in doubt
        // however little the stricter rule leaves.
        let learned = numbers_by(img, l, InkRule::Saturated);
        let lost = learned
            .numbers
            .into_iter()
            .find(|f| !numbers.iter().any(|g| g.at == f.at));
        if let Some(f) = lost {
            let [r, c] = f.at;
            return Err(Error::vision(
                Some(f.region),
                format!("row {r} col {c}: a number too faint to cut by brightness"),
            ));
        }
        for f in learned.faint {
            match faint.iter_mut().find(|g| g.at == f.at) {
                Some(g) => g.share = g.share.max(f.share),
                None => faint.push(f),
            }
        }
    }
    // In "Show both" every number has its total in the corner: a board showing a mark there
    // is read so or not at all, before a number's own reading fails for the mark beside it.
    if numbers.iter().any(|f| !matches!(f.corner, Corner::Blank)) {
        if let Some(f) = numbers
            .iter()
            .find(|f| !matches!(f.corner, Corner::Total(_)))
        {
            let blank = matches!(f.corner, Corner::Blank);
            return Err(count_mode::corner_unread(f.at, f.region, blank));
        }
    }
    let mut seen = Vec::new();
    for f in numbers {
        let read = read_number(&l.look, &f, templates, rule)?;
        let [r, c] = f.at;
        let drawn = puzzle
            .block(r, c)
            .filter(|&[a, b]| turns[a * n + b])
            .count() as i32;
        confidence = confidence.min(read.sure);
        seen.push(Seen {
            at: f.at,
            region: f.region,
            read,
            sign: f.sign,
            drawn,
            block: puzzle.block_size(r, c) as i32,
            total: match &f.corner {
                Corner::Total(g) => Some(read_total(g, templates)),
                _ => None,
            },
        });
    }
    let puzzle = count_mode::hints(n, &seen)?;
    // A cell with no number is a decision too: number ink too little for a number is what a
    // number lost in blur or half rubbed out leaves, and it must not pass as a blank cell.
    for f in &faint {
        let [r, c] = f.at;
        let sure = blank_confidence(f.share);
        if sure < MIN_CONFIDENCE {
            return Err(Error::vision(
                Some(f.region),
                format!(
                    "row {r} col {c}: number ink over {:.1}% of the cell, too little for a \
                     number and too much for a blank cell (a number blurred or rubbed out?)",
                    100.0 * f.share
                ),
            ));
        }
        confidence = confidence.min(sure);
    }
    if puzzle.hint_count() == 0 {
        return Err(Error::vision(
            Some(region_of(l.geometry.board)),
            "a grid with no numbers: every Loop daily shows at least one",
        ));
    }
    Ok(Reading {
        puzzle,
        geometry: l.geometry,
        theme: l.look.theme,
        path,
        closed,
        solved: false,
        confidence,
    })
}
