//! Reading a Hashi board off a picture: Simon Tatham's Bridges (a flat grey canvas, black
//! rings and lines) or the web Hashi game (a grid surface with round islands), anywhere in a
//! window or full-screen capture, at any tile size.
//!
//! Both readers work the same way: find the board by its flat background colour
//! (`sgt_canvas`, `web_surface`), fix the cell lattice exactly (Bridges: the canvas is a whole
//! number of tiles, `sgt_lattice`; web: the grid lines, `web`), test each lattice point for an
//! island, read its number by shape against calibrated templates (`calibration/hashi/`,
//! `digits`), then count the lines across the gap between each pair of islands that see each
//! other (`bridges`). Heavily compressed copies that defeat this have readers of their own
//! (`sgt_snapped`, `web_luma`), tried only when nothing else reads.

mod absence;
mod bridges;
mod digits;
mod sample;
mod settle;
mod sgt_blur;
mod sgt_canvas;
mod sgt_lattice;
mod sgt_snapped;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod truth;
mod web;
mod web_luma;
mod web_surface;
mod web_theme;

use super::model::{Bridge, Bridges, Cell, Island, Puzzle};
use crate::calibration::Profile;
use crate::error::{Error, Region, Result};
use crate::vision::geometry::Geometry;
use crate::vision::glyph::Glyph;
use absence::Emptiness;
use bridges::{resolve_preview, seen_between, Seen};
use digits::{read_numbers, templates};
use image::RgbaImage;
use sgt_canvas::{
    sgt_canvas, sgt_canvas_lossy, LOSSY_CANVAS_TOLERANCE, LOSSY_EDGE_ERROR, RESCALED_EDGE_ERROR,
};
use sgt_lattice::locate_sgt;
use sgt_snapped::locate_sgt_snapped;
use web::{locate_web, Fill};
use web_theme::WebTheme;

pub use digits::learn;

/// Which app drew the board: it decides how moves are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// Simon Tatham's Bridges: drag from island to island.
    Sgt,
    /// The web Hashi game: click an island, then its neighbour.
    Web,
}

#[derive(Debug, Clone)]
pub struct Reading {
    pub puzzle: Puzzle,
    /// Bridges already drawn on the board.
    pub bridges: Bridges,
    pub geometry: Geometry,
    pub style: Style,
    /// 0..1; a reading below the threshold is an error, not a Reading.
    pub confidence: f64,
}

/// Below this confidence a reading is refused.
pub const MIN_CONFIDENCE: f64 = 0.3;

/// An island found on the lattice, before its number is read.
#[derive(Debug, Clone)]
struct Found {
    at: Cell,
    /// The glyphs of its number, left to right.
    glyphs: Vec<digits::Cut>,
    /// The same disc cut at a fainter ink level: a number must read the same in both.
    faint: Vec<digits::Cut>,
    region: Region,
    fill: Fill,
}

/// A located board: lattice, islands and their glyphs, not yet read.
#[derive(Debug, Clone)]
struct Located {
    style: Style,
    geometry: Geometry,
    rows: usize,
    cols: usize,
    islands: Vec<Found>,
    web: Option<WebTheme>,
}

pub fn recognize(img: &RgbaImage) -> Result<Reading> {
    recognize_with(img, None)
}

/// As [`recognize`], with the digits matched against a learned profile instead of the
/// embedded templates; a profile for the other look is refused.
pub fn recognize_with(img: &RgbaImage, profile: Option<&Profile>) -> Result<Reading> {
    let located = locate(img)?;
    match profile {
        None => read(img, &located, templates(located.style)),
        Some(p) => {
            p.check_for("hashi", located.style.name())?;
            read(img, &located, &p.glyphs())
        }
    }
}

impl Style {
    /// The look's name in calibration profiles.
    pub fn name(self) -> &'static str {
        match self {
            Style::Sgt => "sgt",
            Style::Web => "web",
        }
    }
}

/// Finds the board and its islands; digits are cut out but not read.
fn locate(img: &RgbaImage) -> Result<Located> {
    // A lossy copy (JPEG) blurs the canvas colour: tried only when nothing else reads, so a
    // lossless capture reads exactly as it always has.
    sgt_canvas(img, 0)
        .and_then(|canvas| locate_sgt(img, canvas, 0.0))
        .or_else(|| locate_web::<0>(img))
        .or_else(|| {
            sgt_canvas_lossy(img).and_then(|canvas| locate_sgt(img, canvas, LOSSY_EDGE_ERROR))
        })
        .or_else(|| locate_sgt_snapped(img))
        .or_else(|| locate_web::<LOSSY_CANVAS_TOLERANCE>(img))
        .or_else(|| {
            sgt_canvas(img, 0).and_then(|canvas| locate_sgt(img, canvas, RESCALED_EDGE_ERROR))
        })
        .or_else(|| web_luma::locate(img))
        .or_else(|| sgt_snapped::locate_sgt_smoothed(img))
        .ok_or_else(|| {
            Error::vision(
                None,
                "no Hashi board: neither a Bridges canvas nor a web Hashi grid was found",
            )
        })
}

fn read(img: &RgbaImage, located: &Located, templates: &[(String, Glyph)]) -> Result<Reading> {
    let numbers = read_numbers(located, templates)?;
    let (targets, confidence) = (numbers.targets, numbers.confidence);
    let islands: Vec<Island> = located
        .islands
        .iter()
        .zip(&targets)
        .map(|(f, &target)| Island { at: f.at, target })
        .collect();
    let mut puzzle = Puzzle {
        cols: located.cols,
        rows: located.rows,
        max_bridges: 2,
        allow_loops: true,
        islands,
    };
    let mut bridges = Vec::new();
    let mut previews = Vec::new();
    for (a, b) in puzzle.neighbour_pairs() {
        let seen = seen_between(img, located, a, b);
        match seen {
            Seen::Lines(0) => {}
            Seen::Lines(n) => bridges.push(Bridge::new(a, b, n)),
            Seen::Preview => previews.push((a, b)),
            Seen::Foreign | Seen::Merged => {
                let g = &located.geometry;
                let (pa, pb) = (g.centre(a.row, a.col), g.centre(b.row, b.col));
                let what = if seen == Seen::Merged {
                    "one line too wide for one bridge (a double bridge blurred shut?): its \
                     count cannot be told"
                } else {
                    "lines in a colour no bridge of this theme has"
                };
                return Err(Error::vision(
                    Some(Region {
                        x: pa.x.min(pb.x).round() as i32,
                        y: pa.y.min(pb.y).round() as i32,
                        w: (pa.x - pb.x).abs().round().max(1.0) as i32,
                        h: (pa.y - pb.y).abs().round().max(1.0) as i32,
                    }),
                    format!(
                        "the gap between islands ({}, {}) and ({}, {}) shows {what}",
                        a.row, a.col, b.row, b.col
                    ),
                ));
            }
        }
    }
    for (a, b) in previews {
        let n = resolve_preview(located, &puzzle, &bridges, a, b)?;
        bridges.push(Bridge::new(a, b, n));
    }
    bridges.sort();
    let look = match located.web {
        None => Emptiness::sgt(),
        Some(theme) => Emptiness::web(theme),
    };
    let confidence = confidence.min(absence::check_empty_points(img, located, &bridges, &look)?);
    let most_lines = bridges.iter().map(|b| b.count).max().unwrap_or(0);
    let most_target = puzzle.islands.iter().map(|i| i.target).max().unwrap_or(0);
    // The picture proves a larger maximum only by a bridge of 3+ lines or an island no
    // 2-bridge puzzle can have (more than 4 neighbours × 2).
    puzzle.max_bridges = 2u8.max(most_lines).max(most_target.div_ceil(4));
    if !numbers.undecided.is_empty() {
        if located.style == Style::Web {
            return Err(numbers.undecided[0].refusal());
        }
        settle::settle(&mut puzzle, numbers.undecided, most_lines)?;
        let most_target = puzzle.islands.iter().map(|i| i.target).max().unwrap_or(0);
        puzzle.max_bridges = 2u8.max(most_lines).max(most_target.div_ceil(4));
    }
    if located.style == Style::Web && puzzle.max_bridges > 2 {
        let f = &located.islands[0];
        return Err(Error::vision(
            Some(f.region),
            "the web game allows at most 2 bridges, but more were read",
        ));
    }
    Ok(Reading {
        puzzle,
        bridges,
        geometry: located.geometry,
        style: located.style,
        confidence,
    })
}
