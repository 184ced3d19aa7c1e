//! Reading an enclose.horse board off a picture, in named steps over the shared vision layer:
//!
//! 1. **lattice**: the game draws a faint light line on every tile boundary, the board's outer
//!    edge included, and nowhere else; the board is the longest evenly spaced run of such
//!    ridges in each direction (`vision::lattice`);
//! 2. **tiles**: each tile sampled at its 16×16 sub-pixel centres, the grass colour taken from
//!    the whole board, every tile classified (`tiles`);
//! 3. **portals**: portal tiles paired by colour (`portals`);
//! 4. **text**: the walls counter and the score line under the board (`text`);
//! 5. **theme**: from the grass hue.

mod learn;
mod portals;
mod text;
mod tiles;

pub use learn::learn;
pub use text::ShownScore;

use crate::calibration::Profile;
use crate::error::{Error, Region, Result};
use crate::vision::color::{brightness, hue, saturation, Rgb};
use crate::vision::geometry::Geometry;
use crate::vision::lattice::{axis_from_ridges, ridge_profile, Axis};
use image::RgbaImage;
use std::collections::BTreeSet;
use tiles::Class;

/// The documented recognition floor: every sprite is refused below this overlap with its best
/// template (and every counter glyph below a likeness of 0.85), so no reading's `confidence`
/// falls under it.
pub const MIN_CONFIDENCE: f64 = tiles::MIN_OVERLAP;

/// What the caller already knows about the level.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// The level's wall budget; wins over the on-screen counter.
    pub budget: Option<u32>,
    /// Sprite silhouettes learned by `calibrate`, read instead of the embedded ones.
    pub profile: Option<std::sync::Arc<Profile>>,
}

#[derive(Debug, Clone)]
pub struct Reading {
    /// Map text, one string per row (`.` `~` `H` `C` `G` `S` `U` `W` and portal characters).
    pub rows: Vec<String>,
    pub budget: Option<u32>,
    /// Walls already on the board, from the counter (which shows walls *left*) and the budget.
    pub walls_placed: Option<u32>,
    pub geometry: Geometry,
    /// `default`, `classic`, `girl` or `hot`.
    pub theme: String,
    /// A pen (wheat-filled tiles in a gold outline) is shown.
    pub enclosed: bool,
    /// The bonus round, when the picture shows one. Always `None` for now: no unicorn sprite or
    /// round title was available to calibrate against, so a unicorn tile is refused (or, with a
    /// learned profile that has one, read, and the round must be named with `--variant`).
    pub variant_hint: Option<String>,
    /// The page's score line, when the picture shows it.
    pub score_shown: Option<ShownScore>,
    /// 0..1: the weakest evidence behind any tile or digit.
    pub confidence: f64,
}

impl Reading {
    pub fn cols(&self) -> usize {
        self.rows.first().map_or(0, |r| r.chars().count())
    }
}

/// The pen's wheat and the score's digits.
fn is_gold(p: Rgb) -> bool {
    let h = hue(p);
    (30.0..=58.0).contains(&h) && saturation(p) >= 60 && p[0] >= 150
}

/// The counter's digits and the portals' highlights.
fn is_white(p: Rgb) -> bool {
    p.iter().all(|&v| v >= 200) && saturation(p) <= 40
}

/// The tile lattice: the lines along each axis.
struct Board {
    x: Axis,
    y: Axis,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edge {
    Left,
    Right,
    Top,
    Bottom,
}

impl Edge {
    const ALL: [Edge; 4] = [Edge::Left, Edge::Right, Edge::Top, Edge::Bottom];

    fn name(self) -> &'static str {
        match self {
            Edge::Left => "left",
            Edge::Right => "right",
            Edge::Top => "top",
            Edge::Bottom => "bottom",
        }
    }
}

impl Board {
    fn rows(&self) -> usize {
        self.y.cells
    }

    fn cols(&self) -> usize {
        self.x.cells
    }

    fn tile_region(&self, r: usize, c: usize) -> Region {
        Region {
            x: (self.x.start + c as f64 * self.x.pitch) as i32,
            y: (self.y.start + r as f64 * self.y.pitch) as i32,
            w: self.x.pitch.round() as i32,
            h: self.y.pitch.round() as i32,
        }
    }

    fn region(&self) -> Region {
        Region {
            x: self.x.start as i32,
            y: self.y.start as i32,
            w: (self.x.pitch * self.x.cells as f64) as i32,
            h: (self.y.pitch * self.y.cells as f64) as i32,
        }
    }

    /// One more row or column of tiles on `edge`.
    fn extend(&mut self, edge: Edge) {
        match edge {
            Edge::Left => {
                self.x.start -= self.x.pitch;
                self.x.cells += 1;
            }
            Edge::Right => self.x.cells += 1,
            Edge::Top => {
                self.y.start -= self.y.pitch;
                self.y.cells += 1;
            }
            Edge::Bottom => self.y.cells += 1,
        }
    }

    /// One row or column of tiles fewer, on `edge`.
    fn shrink(&mut self, edge: Edge) {
        match edge {
            Edge::Left => {
                self.x.start += self.x.pitch;
                self.x.cells -= 1;
            }
            Edge::Right => self.x.cells -= 1,
            Edge::Top => {
                self.y.start += self.y.pitch;
                self.y.cells -= 1;
            }
            Edge::Bottom => self.y.cells -= 1,
        }
    }

    /// The board with one more row or column on `edge`, and that row's or column's tiles
    /// (row-major indices in it), when it lies wholly inside the picture.
    fn beyond(&self, edge: Edge, img: &RgbaImage) -> Option<(Board, Vec<usize>)> {
        let mut b = Board {
            x: self.x,
            y: self.y,
        };
        b.extend(edge);
        let (rows, cols) = (b.rows(), b.cols());
        let tiles: Vec<usize> = match edge {
            Edge::Left => (0..rows).map(|r| r * cols).collect(),
            Edge::Right => (0..rows).map(|r| r * cols + cols - 1).collect(),
            Edge::Top => (0..cols).collect(),
            Edge::Bottom => (0..cols).map(|c| (rows - 1) * cols + c).collect(),
        };
        // Each axis by its own pitch, as `ridge_share` looks at a strip.
        let (out_x, out_y) = (OUTSIDE_SHARE * b.x.pitch, OUTSIDE_SHARE * b.y.pitch);
        let inside = b.x.start >= -out_x
            && b.y.start >= -out_y
            && b.x.end() <= img.width() as f64 + out_x
            && b.y.end() <= img.height() as f64 + out_y;
        inside.then_some((b, tiles))
    }
}

/// The tile lattices the picture's ridges allow, the one found first. A chain of ridges
/// bridges one missing line at every step, so a chain at half the tiles' pitch takes in every
/// grid line and any weak ridge halfway between (a sprite's edge, a tuft, ringing) and outscores
/// the true one; one axis or both can land there. So every lattice at twice the pitch that
/// keeps one line in two is offered too, the stronger phase first, and the reading decides
/// (`recognize`): a lattice at half the pitch splits every sprite in four, one at twice the
/// pitch puts four tiles in a cell, and neither reads. The other way round holds too: a chain
/// at twice the pitch (see `halved`) is offered at half of it.
fn find_boards(img: &RgbaImage) -> Result<Vec<Board>> {
    let (w, h) = (img.width() as usize, img.height() as usize);
    if w < 32 || h < 32 {
        return Err(Error::vision(
            None,
            "picture too small for an enclose.horse board",
        ));
    }
    let none = || Error::vision(None, "no tile grid found: not an enclose.horse board");
    let (across_x, across_y) = (ridge_profile(img, true), ridge_profile(img, false));
    let x = axis_from_ridges(&across_x).ok_or_else(none)?;
    let y = axis_from_ridges(&across_y).ok_or_else(none)?;
    let square = |a: &Axis, b: &Axis| (a.pitch / b.pitch - 1.0).abs() <= 0.04;
    // Each axis as found, at twice its pitch (both phases) and at half of it; tiles are
    // square, so only pairs of equal pitch are boards.
    let variants = |a: Axis, profile: &[u32]| {
        let mut v = vec![a];
        v.extend(every_other_line(a, profile));
        v.extend(halved(a));
        v
    };
    let mut found = Vec::new();
    for dx in variants(x, &across_x) {
        for dy in variants(y, &across_y) {
            if square(&dx, &dy) {
                found.push(Board { x: dx, y: dy });
            }
        }
    }
    found.retain(|b| b.cols() >= 3 && b.rows() >= 3);
    if found.is_empty() {
        let board = Board { x, y };
        return Err(Error::vision(
            Some(board.region()),
            if square(&x, &y) {
                "grid too small for a board".to_string()
            } else {
                format!(
                    "grid cells are not square ({:.1}×{:.1} px): not an enclose.horse board",
                    x.pitch, y.pitch
                )
            },
        ));
    }
    Ok(found)
}

/// The lattice as found first, for the calibration, which knows the map's size and needs no
/// reading to choose.
fn find_board(img: &RgbaImage) -> Result<Board> {
    find_boards(img).map(|mut b| b.swap_remove(0))
}

/// The axis at half its pitch, a line between each two, when its tiles would still be large
/// enough to read. The chain of ridges bridges one missing line at every step, so where a
/// lossy copy lost two lines in a row (along water) a chain at twice the pitch, bridging a
/// whole missing tile of its own at each step, can outscore the true one.
fn halved(axis: Axis) -> Option<Axis> {
    (axis.pitch / 2.0 >= MIN_HALVED_PITCH).then(|| Axis {
        start: axis.start,
        pitch: axis.pitch / 2.0,
        cells: axis.cells * 2,
    })
}

/// The least tile size a lattice is halved to: below the smallest tiles ever read (13.5 px).
const MIN_HALVED_PITCH: f64 = 12.0;

/// The lines of `axis` one in two, at twice its pitch, in both phases: first the phase whose
/// ridges in `profile` are the stronger (JPEG's ringing and sprite edges leave weak ridges
/// between grid lines, which a chain bridging one missing line can take in all along).
fn every_other_line(axis: Axis, profile: &[u32]) -> Vec<Axis> {
    let strength = |k: usize| {
        let at = (axis.start + k as f64 * axis.pitch).round() as i64;
        (at - 2..=at + 2)
            .filter_map(|i| usize::try_from(i).ok().and_then(|i| profile.get(i)))
            .copied()
            .max()
            .unwrap_or(0) as f64
    };
    let phase_mean = |phase: usize| {
        let lines: Vec<f64> = (phase..=axis.cells).step_by(2).map(strength).collect();
        lines.iter().sum::<f64>() / lines.len().max(1) as f64
    };
    let phases = if phase_mean(0) >= phase_mean(1) {
        [0, 1]
    } else {
        [1, 0]
    };
    phases
        .into_iter()
        .map(|phase| Axis {
            start: axis.start + phase as f64 * axis.pitch,
            pitch: 2.0 * axis.pitch,
            cells: (axis.cells - phase) / 2,
        })
        .collect()
}

/// Each theme's grass and water hue (`None`: the `hot` grass, #272727, is grey): grass
/// #186b3b, #365022, #7c507e; water #062f48, #0b2d54, #60d7c9 and the `hot` lava #a53127.
const THEMES: [(&str, Option<f64>, f64); 4] = [
    ("default", Some(144.0), 203.0),
    ("classic", Some(94.0), 212.0),
    ("girl", Some(298.0), 173.0),
    ("hot", None, 5.0),
];

/// A colour this close to grey has no hue to go by.
const GREY: i32 = 15;

fn hue_distance(a: f64, b: f64) -> f64 {
    let d = (a - b).abs();
    d.min(360.0 - d)
}

/// How far a colour is from a theme's grass hue, in degrees (180 for a grey against a hued
/// grass and the other way round).
fn off_grass(p: Rgb, grass_hue: Option<f64>) -> f64 {
    match (grass_hue, saturation(p) < GREY) {
        (None, true) => 0.0,
        (Some(h), false) => hue_distance(hue(p), h),
        _ => 180.0,
    }
}

/// The theme from the grass hue: hue survives the brightness and contrast shifts between
/// capture tools.
fn theme_of(grass: Rgb) -> &'static str {
    THEMES
        .into_iter()
        .min_by(|a, b| off_grass(grass, a.1).total_cmp(&off_grass(grass, b.1)))
        .unwrap()
        .0
}

/// How well two colours fit one theme as its grass and its water: the least sum of their
/// hue distances to a theme's, in degrees.
pub(super) fn theme_misfit(grass: Rgb, water: Rgb) -> f64 {
    THEMES
        .into_iter()
        .map(|(_, g, w)| {
            let water_off = if saturation(water) < GREY {
                180.0
            } else {
                hue_distance(hue(water), w)
            };
            off_grass(grass, g) + water_off
        })
        .fold(f64::INFINITY, f64::min)
}

/// Exactly one horse, or an error that says where the candidates are.
fn one_horse(class: &[Class], board: &Board) -> Result<()> {
    let cols = board.cols();
    let horses: Vec<usize> = (0..class.len())
        .filter(|&k| class[k] == Class::Horse)
        .collect();
    match horses.len() {
        1 => Ok(()),
        0 => Err(Error::vision(Some(board.region()), "no horse on the grid")),
        _ => {
            let at: Vec<String> = horses
                .iter()
                .map(|k| format!("({},{})", k / cols, k % cols))
                .collect();
            Err(Error::vision(
                Some(board.region()),
                format!(
                    "several horse-like sprites at {} (a unicorn is not calibrated)",
                    at.join(" ")
                ),
            ))
        }
    }
}

/// The map text, a row per line.
fn map_rows(class: &[Class], portal_labels: &[char], board: &Board) -> Vec<String> {
    let cols = board.cols();
    (0..board.rows())
        .map(|r| {
            (0..cols)
                .map(|c| {
                    let k = r * cols + c;
                    match class[k] {
                        Class::Grass => '.',
                        Class::Water => '~',
                        Class::Wall => 'W',
                        Class::Horse => 'H',
                        Class::Cherry => 'C',
                        Class::Golden => 'G',
                        Class::Bees => 'S',
                        Class::Unicorn => 'U',
                        Class::Portal(_) => portal_labels[k],
                    }
                })
                .collect()
        })
        .collect()
}

/// Recognise an enclose.horse board in a full-page capture or a crop.
pub fn recognize(img: &RgbaImage, opts: &ReadOptions) -> Result<Reading> {
    // A profile for another game is refused before the picture is looked at.
    let learned = opts
        .profile
        .as_deref()
        .map(tiles::sprites_of_profile)
        .transpose()?;
    let sprites = learned.as_ref().unwrap_or(tiles::sprites());
    let mut read: Vec<Reading> = Vec::new();
    let mut first_error = None;
    for board in find_boards(img)? {
        let board = fitted(img, board);
        if board.rows() < 3 || board.cols() < 3 {
            first_error.get_or_insert(Error::vision(
                Some(board.region()),
                "grid too small for a board",
            ));
            continue;
        }
        match recognize_on(img, board, opts, sprites) {
            Ok(r) => read.push(r),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    match read.len() {
        0 => Err(first_error.expect("at least one lattice was tried")),
        1 => Ok(read.remove(0)),
        _ => {
            let pitches: Vec<String> = read
                .iter()
                .map(|r| format!("{:.1} px", r.geometry.pitch()))
                .collect();
            Err(Error::vision(
                Some({
                    let b = read[0].geometry.board;
                    Region {
                        x: b.x.round() as i32,
                        y: b.y.round() as i32,
                        w: b.w.round() as i32,
                        h: b.h.round() as i32,
                    }
                }),
                format!(
                    "the picture reads as a board of tiles {}: the tile size is not certain",
                    pitches.join(" and of ")
                ),
            ))
        }
    }
}

/// The board without the rows and columns that lie more than a quarter outside the picture.
/// A lattice found at twice the tiles' pitch counts in a double tile of which three quarters
/// show, and halved (`halved`) that becomes a tile and a half-seen one past the picture's edge,
/// read as a column of the board's grass that is the page's.
fn within_picture(img: &RgbaImage, mut board: Board) -> Board {
    let trim = |a: &mut Axis, len: f64| {
        let out = OUTSIDE_SHARE * a.pitch;
        while a.cells > 0 && a.start < -out {
            a.start += a.pitch;
            a.cells -= 1;
        }
        while a.cells > 0 && a.end() > len + out {
            a.cells -= 1;
        }
    };
    trim(&mut board.x, img.width() as f64);
    trim(&mut board.y, img.height() as f64);
    board
}

/// The board grown past each side its grid lines run on through (bounded: a board never runs
/// on past the picture, and the page beyond it has no grid).
fn grown(img: &RgbaImage, mut board: Board) -> Board {
    while let Some(edge) = grid_goes_on(img, &board) {
        board.extend(edge);
    }
    board
}

/// The lattice as found, kept to the picture, grown, and without any outer row or column
/// with no grid line across it at all: the page's grass, which a chain of ridges can take in
/// where a tuft or a sprite's edge on it falls a pitch from the board's outer line. (A row of
/// water hides its lines too, so the water test that follows puts such a row back; it runs
/// on the board as grown, and trimming again there would undo it.)
fn fitted(img: &RgbaImage, board: Board) -> Board {
    let mut board = grown(img, within_picture(img, board));
    while let Some(edge) = Edge::ALL.into_iter().find(|&e| hollow(img, &board, e)) {
        if board.rows() <= 3 || board.cols() <= 3 {
            break;
        }
        board.shrink(edge);
    }
    board
}

/// Refuses a board past one of whose edges grid lines go on, too faint to grow by but too
/// many for the page: a copy that blurred the lines of the board's last columns (a copy
/// resampled twice read a 19-column board 15 wide). The counter's text under the board fills
/// one row's worth of ridges; lines fading out run on through the next row too, or up to the
/// picture's edge.
fn edges_certain(img: &RgbaImage, board: &Board) -> Result<()> {
    for edge in Edge::ALL {
        let (Some(inside), Some(beyond)) = (
            ridge_share(img, board, edge, -1.0),
            ridge_share(img, board, edge, 0.0),
        ) else {
            continue;
        };
        let runs_on = ridge_share(img, board, edge, 1.0).is_none_or(|next| next >= 0.5 * beyond);
        if inside > 0.0 && beyond >= MIN_GRID_SHARE && runs_on {
            let region = board
                .beyond(edge, img)
                .map_or(board.region(), |(bigger, strip)| {
                    strip_region(&bigger, &strip)
                });
            return Err(Error::vision(
                Some(region),
                format!(
                    "faint grid lines go on past the board's {} edge: where the board ends is not certain",
                    edge.name()
                ),
            ));
        }
    }
    Ok(())
}

/// The least share of ridge points along the lines across an outer row or column of the
/// board for it to be the board's: the page beyond has none (its tufts reach 0.01).
const HOLLOW_SHARE: f64 = 0.03;

/// Whether the outer row or column on `edge` shows no grid line across it.
fn hollow(img: &RgbaImage, board: &Board, edge: Edge) -> bool {
    ridge_share(img, board, edge, -1.0).is_some_and(|share| share < HOLLOW_SHARE)
}

/// The board grown by the row or column of water tiles just outside one of its edges, if
/// there is one: at least two in three of its tiles the level's water colour. The page around
/// a board is never water, so a row beyond with any water tile but too few to grow by is the
/// board's own, its lines lost (a JPEG copy lost the lines of a 19×19 board's five top rows,
/// mostly water, and read the board five rows short; a copy resampled twice lost a grass
/// column with two water tiles at its foot): that is refused, naming the row.
fn water_beyond(
    img: &RgbaImage,
    board: &Board,
    samples: &[tiles::Tile],
    class: &[Class],
    grass: Rgb,
) -> Result<Option<Board>> {
    let Some(water) = tiles::water_of(samples, class) else {
        return Ok(None);
    };

    let mut uncertain = None;
    for edge in Edge::ALL {
        let Some((bigger, strip)) = board.beyond(edge, img) else {
            continue;
        };
        let cols = bigger.cols();
        let watery = strip
            .iter()
            .filter(|&&k| {
                tiles::looks_like(
                    &tiles::sample(img, &bigger, k / cols, k % cols),
                    water,
                    grass,
                )
            })
            .count();
        if watery * 3 >= strip.len() * 2 {
            return Ok(Some(bigger));
        }
        if watery > 0 && uncertain.is_none() {
            uncertain = Some((edge, strip_region(&bigger, &strip)));
        }
    }
    match uncertain {
        Some((edge, region)) => Err(Error::vision(
            Some(region),
            format!(
                "water goes on past the board's {} edge without grid lines: where the board ends is not certain",
                edge.name()
            ),
        )),
        None => Ok(None),
    }
}

/// The picture region of a row or column of tiles (row-major indices on `board`).
fn strip_region(board: &Board, strip: &[usize]) -> Region {
    let cols = board.cols();
    let first = board.tile_region(strip[0] / cols, strip[0] % cols);
    let last = board.tile_region(strip[strip.len() - 1] / cols, strip[strip.len() - 1] % cols);
    Region {
        x: first.x,
        y: first.y,
        w: last.x + last.w - first.x,
        h: last.y + last.h - first.y,
    }
}

/// The edge past which a whole row or column of the board's grass lies, if any, with the
/// picture ending on that row's outer tile boundary. The page around a board is grass too,
/// but it does not end on the board's lattice; a picture cropped to the board that ends one
/// grass row past the lattice has that row as the board's own, its grid lines lost in a lossy
/// copy, and reading the board without it would be a smaller, wrong board.
fn grass_beyond(img: &RgbaImage, board: &Board, grass: Rgb) -> Option<Edge> {
    // A crop can keep a thin frame of the page: up to a sixth of a tile is seen.
    let frame = 0.15 * board.x.pitch;
    Edge::ALL.into_iter().find(|&edge| {
        board.beyond(edge, img).is_some_and(|(bigger, strip)| {
            let margin = match edge {
                Edge::Left => bigger.x.start,
                Edge::Top => bigger.y.start,
                Edge::Right => img.width() as f64 - bigger.x.end(),
                Edge::Bottom => img.height() as f64 - bigger.y.end(),
            };
            // Negative where the crop cut into that row (`beyond` bounds how far).
            if margin > frame {
                return false;
            }
            let cols = bigger.cols();
            let grassy = strip
                .iter()
                .filter(|&&k| {
                    tiles::mostly(&tiles::sample(img, &bigger, k / cols, k % cols), grass)
                })
                .count();
            grassy * 3 >= strip.len() * 2
        })
    })
}

/// The share of points along the grid lines that cross a strip one tile wide, `offset` tiles
/// past the last line on `edge` (−1 for the last tile inside), that stand out as a ridge, as
/// `ridge_profile` finds them; `None` when the strip is not wholly inside the picture.
fn ridge_share(img: &RgbaImage, board: &Board, edge: Edge, offset: f64) -> Option<f64> {
    const D: i64 = 2;
    const T: i16 = 6;
    let (along, across) = match edge {
        Edge::Left | Edge::Right => (&board.x, &board.y),
        Edge::Top | Edge::Bottom => (&board.y, &board.x),
    };
    let from = match edge {
        Edge::Left | Edge::Top => along.start - (offset + 1.0) * along.pitch,
        Edge::Right | Edge::Bottom => along.end() + offset * along.pitch,
    };
    let to = from + along.pitch;
    let limit = match edge {
        Edge::Left | Edge::Right => img.width(),
        Edge::Top | Edge::Bottom => img.height(),
    } as f64;
    let out = OUTSIDE_SHARE * along.pitch;
    if from < -out || to > limit + out {
        return None;
    }
    let lum = |a: i64, b: i64| -> Option<i16> {
        let (x, y) = match edge {
            Edge::Left | Edge::Right => (a, b),
            Edge::Top | Edge::Bottom => (b, a),
        };
        (x >= 0 && y >= 0 && (x as u32) < img.width() && (y as u32) < img.height())
            .then(|| brightness(*img.get_pixel(x as u32, y as u32)))
    };
    let (mut hits, mut all) = (0usize, 0usize);
    for k in 0..=across.cells {
        let line = (across.start + k as f64 * across.pitch).round() as i64;
        // A quarter tile clear of each end: a sprite's outline can sit in the corner.
        let (a0, a1) = (
            (from + 0.25 * along.pitch) as i64,
            (to - 0.25 * along.pitch) as i64,
        );
        // Points off the picture (a strip a crop cut into) are not looked at.
        for a in (a0..a1).filter(|&a| lum(a, line).is_some()) {
            all += 1;
            let ridge =
                (line - 1..=line + 1).any(|b| match (lum(a, b), lum(a, b - D), lum(a, b + D)) {
                    (Some(v), Some(l), Some(r)) => v - l.max(r) >= T,
                    _ => false,
                });
            hits += ridge as usize;
        }
    }
    (all > 0).then(|| hits as f64 / all as f64)
}

/// How much of a row or column of tiles may lie outside the picture for it to count as seen:
/// the lattice search counts in a tile a crop cut into when three quarters of it show, and a
/// board cropped tight and then rescaled has its outer grid line rounded onto, or a pixel or
/// two past, the picture's edge.
const OUTSIDE_SHARE: f64 = 0.25;

/// The least share of ridge points a row or column of the board shows: a row of water hides
/// most of its lines (0.15 seen), but when the last row is one, text under the board can
/// reach half its share (0.08 in a JPEG copy) and must not pass for another row.
const MIN_GRID_SHARE: f64 = 0.12;

/// The edge past which the grid lines run on through one more row or column of tiles, if
/// any. A rescaled or recompressed copy can lose the lines that bound the last row or column,
/// cutting the lattice short; the lines across that row still show, which the page beyond a
/// board never does (its text reaches a quarter of a grid row's share at most).
fn grid_goes_on(img: &RgbaImage, board: &Board) -> Option<Edge> {
    Edge::ALL.into_iter().find(|&edge| {
        match (
            ridge_share(img, board, edge, -1.0),
            ridge_share(img, board, edge, 0.0),
        ) {
            (Some(inside), Some(beyond)) => {
                inside > 0.0 && beyond >= 0.5 * inside && beyond >= MIN_GRID_SHARE
            }
            _ => false,
        }
    })
}

fn recognize_on(
    img: &RgbaImage,
    board: Board,
    opts: &ReadOptions,
    sprites: &tiles::Sprites,
) -> Result<Reading> {
    let board = grown(img, board);
    let (rows, cols) = (board.rows(), board.cols());
    let samples: Vec<tiles::Tile> = (0..rows * cols)
        .map(|k| tiles::sample(img, &board, k / cols, k % cols))
        .collect();
    let grass = tiles::grass_of(&samples);
    let tiles = tiles::classify(&samples, grass, &board, sprites)?;
    // A row of water along an edge hides the grid lines inside it and can leave its outer line
    // too faint to join the lattice. The page around a board is never water, so a row of
    // water tiles just outside an edge is the board's own, and the board is read with it.
    if let Some(bigger) = water_beyond(img, &board, &samples, &tiles.class, grass)? {
        return recognize_on(img, bigger, opts, sprites);
    }
    if let Some(edge) = grass_beyond(img, &board, grass) {
        let (bigger, strip) = board
            .beyond(edge, img)
            .expect("grass_beyond found it inside");
        return Err(Error::vision(
            Some(strip_region(&bigger, &strip)),
            format!(
                "the board's grass goes on past its {} edge without grid lines: where the board ends is not certain",
                edge.name()
            ),
        ));
    }
    edges_certain(img, &board)?;
    one_horse(&tiles.class, &board)?;
    let labels = portals::pair_portals(&tiles.class, cols, &board)?;
    let map = map_rows(&tiles.class, &labels, &board);

    let mut confidence = tiles.confidence;
    let counter = text::read_counter(img, &board, rows, cols);
    if let Some((_, _, score)) = counter {
        confidence = confidence.min(score);
    }
    // The score is only checked after play, so a weak read of it does not lower confidence.
    let score_shown = text::read_score(img, &board, rows, cols).map(|(shown, _)| shown);
    debug_assert!(confidence >= MIN_CONFIDENCE);
    let budget = opts.budget.or(counter.map(|c| c.1));
    let walls_placed = counter.and_then(|(left, b, _)| budget.unwrap_or(b).checked_sub(left));
    Ok(Reading {
        rows: map,
        budget,
        walls_placed,
        geometry: Geometry::from_axes(board.x, board.y),
        theme: theme_of(grass).to_string(),
        enclosed: tiles.enclosed,
        variant_hint: None,
        score_shown,
        confidence,
    })
}

/// What the page shows after play, read on the board found before it (the window has not
/// moved): the walls, and the page's score line. Only these must match the plan; the pen's
/// look (a pattern of its own in each theme) and where the horse now stands may not decide.
#[derive(Debug, Clone)]
pub struct AfterPlay {
    pub walls: BTreeSet<[usize; 2]>,
    pub score_shown: Option<ShownScore>,
}

pub fn read_after_play(img: &RgbaImage, before: &Geometry, rows: usize, cols: usize) -> AfterPlay {
    let axis = |start: f64, pitch: f64, cells: usize| Axis {
        start,
        pitch,
        cells,
    };
    let board = Board {
        x: axis(before.board.x, before.pitch_x, cols),
        y: axis(before.board.y, before.pitch_y, rows),
    };
    let walls = (0..rows * cols)
        .filter(|&k| tiles::shows_wall(img, &board, k / cols, k % cols))
        .map(|k| [k / cols, k % cols])
        .collect();
    AfterPlay {
        walls,
        score_shown: text::read_score(img, &board, rows, cols).map(|(shown, _)| shown),
    }
}

#[cfg(test)]
mod tests;
