//! Reading an enclose.horse board off a picture.
//!
//! The game draws a faint light line on every tile boundary, the board's outer edge included,
//! and nowhere else; the board is found as the longest evenly spaced run of such lines in each
//! direction. Every tile is pixel art on a 16×16 grid, so each tile is sampled at its 16×16
//! sub-pixel centres and classified against the picture's own grass colour (captures differ in
//! colour), then against sprite silhouettes kept in `calibration/enclose/`.

use crate::error::{Error, Region, Result};
use crate::screen::PixelPoint;
use image::{Rgba, RgbaImage};
use std::sync::OnceLock;

/// Sprites are 16×16 pixel art scaled to the tile.
const SUB: usize = 16;
const TEMPLATES: &str = include_str!("../../../calibration/enclose/sprites.txt");
const GLYPHS: &str = include_str!("../../../calibration/enclose/glyphs.txt");

/// What the caller already knows about the level.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// The level's wall budget; wins over the on-screen counter.
    pub budget: Option<u32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Geometry {
    /// Centre of cell (0, 0) in image pixels.
    pub origin: PixelPoint,
    /// Tile size in image pixels.
    pub pitch: f64,
    /// Pixel rectangle of the grid: x, y, w, h.
    pub board: (f64, f64, f64, f64),
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
    /// round title was available to calibrate against, and a unicorn tile is refused instead.
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

    pub fn tile_centre(&self, row: usize, col: usize) -> PixelPoint {
        let (x, y, w, h) = self.geometry.board;
        PixelPoint {
            x: x + (col as f64 + 0.5) * w / self.cols().max(1) as f64,
            y: y + (row as f64 + 0.5) * h / self.rows.len().max(1) as f64,
        }
    }
}

type Rgb = [u8; 3];

fn dist(a: Rgb, b: Rgb) -> f64 {
    let d: i32 = (0..3).map(|i| (a[i] as i32 - b[i] as i32).pow(2)).sum();
    (d as f64).sqrt()
}

fn sat(p: Rgb) -> i32 {
    *p.iter().max().unwrap() as i32 - *p.iter().min().unwrap() as i32
}

/// Hue in degrees, for the theme and the wheat, which keep their hue across capture tools.
fn hue(p: Rgb) -> f64 {
    let [r, g, b] = p.map(|v| v as f64);
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    if max - min < 1.0 {
        return 0.0;
    }
    let h = if max == r {
        (g - b) / (max - min)
    } else if max == g {
        2.0 + (b - r) / (max - min)
    } else {
        4.0 + (r - g) / (max - min)
    };
    (h * 60.0).rem_euclid(360.0)
}

fn is_gold(p: Rgb) -> bool {
    let h = hue(p);
    (30.0..=58.0).contains(&h) && sat(p) >= 60 && p[0] >= 150
}

fn is_white(p: Rgb) -> bool {
    p.iter().all(|&v| v >= 200) && sat(p) <= 40
}

fn px(img: &RgbaImage, x: f64, y: f64) -> Rgb {
    let xi = (x.floor().max(0.0) as u32).min(img.width() - 1);
    let yi = (y.floor().max(0.0) as u32).min(img.height() - 1);
    let Rgba([r, g, b, _]) = *img.get_pixel(xi, yi);
    [r, g, b]
}

fn lum(p: &Rgba<u8>) -> i16 {
    ((p[0] as i32 * 2 + p[1] as i32 * 5 + p[2] as i32) / 8) as i16
}

/// Per position along one axis, how many pixels sit on a thin bright ridge across that axis.
/// Grid lines run the whole board, so a few hundred lines of pixels the other way suffice.
fn ridge_profile(img: &RgbaImage, across_x: bool) -> Vec<u32> {
    const D: usize = 2;
    const T: i16 = 6;
    const SAMPLED: usize = 384;
    let (w, h) = (img.width() as usize, img.height() as usize);
    let raw = img.as_raw();
    let lum_at = |x: usize, y: usize| {
        let o = (y * w + x) * 4;
        lum(&Rgba([raw[o], raw[o + 1], raw[o + 2], 255]))
    };
    let (n, m) = if across_x { (w, h) } else { (h, w) };
    // Lines of pixels to sample across the other axis: blocks of neighbours, so a sampled column
    // costs few cache lines per image row.
    const BLOCK: usize = 16;
    let picks: Vec<usize> = if m <= SAMPLED {
        (0..m).collect()
    } else {
        let blocks = SAMPLED / BLOCK;
        (0..blocks)
            .flat_map(|b| (0..BLOCK).map(move |o| b * (m - BLOCK) / (blocks - 1) + o))
            .collect()
    };
    // Luminance as lines[j][i], filled in row order so memory is read sequentially.
    let lines: Vec<Vec<i16>> = if across_x {
        picks
            .iter()
            .map(|&y| (0..n).map(|x| lum_at(x, y)).collect())
            .collect()
    } else {
        let mut t = vec![Vec::with_capacity(n); picks.len()];
        for y in 0..n {
            for (j, &x) in picks.iter().enumerate() {
                t[j].push(lum_at(x, y));
            }
        }
        t
    };
    let mut s = vec![0u32; n];
    for line in &lines {
        for i in 0..n {
            let side = match (i.checked_sub(D), (i + D < n).then_some(i + D)) {
                (Some(a), Some(b)) => line[a].max(line[b]),
                (Some(a), None) | (None, Some(a)) => line[a],
                (None, None) => continue,
            };
            if line[i] - side >= T {
                s[i] += 1;
            }
        }
    }
    s
}

/// Grid lines found along one axis: first line, pitch, number of tiles.
#[derive(Debug, Clone, Copy)]
struct Axis {
    start: f64,
    pitch: f64,
    tiles: usize,
}

fn find_axis(s: &[u32]) -> Option<Axis> {
    let max = *s.iter().max()?;
    if max < 20 {
        return None;
    }
    let thr = (max / 4).max(10);
    let mut cands: Vec<(f64, f64)> = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] < thr {
            i += 1;
            continue;
        }
        let (mut sw, mut sx, mut top) = (0.0, 0.0, 0u32);
        while i < s.len() && s[i] >= thr {
            sw += s[i] as f64;
            sx += s[i] as f64 * i as f64;
            top = top.max(s[i]);
            i += 1;
        }
        cands.push((sx / sw, top as f64));
    }
    // Busy pictures give many short ridges; the pair search below is quadratic in them.
    const MAX_CANDS: usize = 400;
    if cands.len() > MAX_CANDS {
        cands.sort_by(|a, b| b.1.total_cmp(&a.1));
        cands.truncate(MAX_CANDS);
        cands.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    // Chains of (candidate, line index); one missing line is bridged (a sprite can hide it).
    let mut best: Option<(f64, Vec<(usize, usize)>)> = None;
    for a in 0..cands.len() {
        for b in a + 1..cands.len() {
            let d = cands[b].0 - cands[a].0;
            if d < 8.0 {
                continue;
            }
            let tol = (d * 0.05).max(2.0);
            let mut chain = vec![(a, 0), (b, 1)];
            let mut pitch = d;
            'grow: loop {
                let (last, idx) = *chain.last().unwrap();
                for step in 1..=2 {
                    let want = cands[last].0 + step as f64 * pitch;
                    let hit = (last + 1..cands.len())
                        .take_while(|&k| cands[k].0 <= want + tol)
                        .find(|&k| (cands[k].0 - want).abs() <= tol);
                    if let Some(k) = hit {
                        chain.push((k, idx + step));
                        pitch = (cands[k].0 - cands[a].0) / (idx + step) as f64;
                        continue 'grow;
                    }
                }
                break;
            }
            if chain.len() < 4 {
                continue;
            }
            let score: f64 = chain.iter().map(|&(k, _)| cands[k].1).sum();
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, chain));
            }
        }
    }
    let (_, mut chain) = best?;
    // Text or a sprite edge that happens to sit a pitch beyond the board is no grid line: grid
    // lines are about as long as each other.
    let mut strengths: Vec<f64> = chain.iter().map(|&(k, _)| cands[k].1).collect();
    strengths.sort_by(f64::total_cmp);
    let median = strengths[strengths.len() / 2];
    while chain.len() > 2 && cands[chain.last().unwrap().0].1 < 0.5 * median {
        chain.pop();
    }
    while chain.len() > 2 && cands[chain[0].0].1 < 0.5 * median {
        chain.remove(0);
        let first = chain[0].1;
        for c in chain.iter_mut() {
            c.1 -= first;
        }
    }
    if chain.len() < 4 {
        return None;
    }
    // Least-squares line through (line index, position).
    let n = chain.len() as f64;
    let mi = chain.iter().map(|&(_, i)| i as f64).sum::<f64>() / n;
    let mx = chain.iter().map(|&(k, _)| cands[k].0).sum::<f64>() / n;
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for &(k, i) in &chain {
        sxy += (i as f64 - mi) * (cands[k].0 - mx);
        sxx += (i as f64 - mi).powi(2);
    }
    let pitch = sxy / sxx;
    let mut start = mx - mi * pitch;
    let mut tiles = chain.last().unwrap().1;
    let len = s.len() as f64;
    // A crop can cut the outer line off; a tile is still there if its whole width is.
    let end = start + tiles as f64 * pitch;
    if end + pitch > len - 1.5 && len - end >= 0.75 * pitch {
        tiles += 1;
    }
    if start - pitch < 0.5 && start >= 0.75 * pitch {
        start -= pitch;
        tiles += 1;
    }
    Some(Axis {
        start,
        pitch,
        tiles,
    })
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Sprite {
    Horse,
    Cherry,
    Bees,
    Portal,
}

struct Template {
    sprite: Sprite,
    mask: [bool; SUB * SUB],
}

fn parse_masks(text: &str, w: usize, h: usize) -> Vec<(String, Vec<bool>)> {
    let mut out = Vec::new();
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    while let Some(head) = lines.next() {
        let Some(name) = head.strip_prefix("# ") else {
            continue;
        };
        let mut mask = Vec::with_capacity(w * h);
        for row in lines.by_ref().take(h) {
            mask.extend(row.chars().take(w).map(|c| c == 'X'));
        }
        out.push((name.trim().to_string(), mask));
    }
    out
}

fn templates() -> &'static [Template] {
    static T: OnceLock<Vec<Template>> = OnceLock::new();
    T.get_or_init(|| {
        parse_masks(TEMPLATES, SUB, SUB)
            .into_iter()
            .filter_map(|(name, m)| {
                let sprite = match name.split_whitespace().next()? {
                    "horse" => Sprite::Horse,
                    "cherry" => Sprite::Cherry,
                    "bees" => Sprite::Bees,
                    "portal" => Sprite::Portal,
                    _ => return None,
                };
                let mut mask = [false; SUB * SUB];
                mask.copy_from_slice(&m);
                Some(Template { sprite, mask })
            })
            .collect()
    })
}

/// Best overlap of a tile's sprite mask with a template over rows `1..rows`, allowing a shift
/// of one sub-pixel for rounding in the grid fit. The outer ring of sub-pixels is left out: in a
/// rescaled capture it mixes with the grid line and the neighbouring tiles.
fn iou(mask: &[bool; SUB * SUB], t: &[bool; SUB * SUB], rows: usize) -> f64 {
    let mut best = 0.0f64;
    for dy in -1i32..=1 {
        for dx in -1i32..=1 {
            let (mut inter, mut union) = (0u32, 0u32);
            for y in 1..rows.min(SUB - 1) as i32 {
                for x in 1..SUB as i32 - 1 {
                    let m = mask[(y * SUB as i32 + x) as usize];
                    let (tx, ty) = (x + dx, y + dy);
                    let tv = (0..SUB as i32).contains(&tx)
                        && (0..SUB as i32).contains(&ty)
                        && t[(ty * SUB as i32 + tx) as usize];
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

/// Colour most of `samples` share, by 4-bit bins, averaged within its bin.
fn mode(samples: impl Iterator<Item = Rgb> + Clone, bits: u32) -> (Rgb, usize) {
    let key = |p: Rgb| {
        let s = 8 - bits;
        ((p[0] as usize >> s) << (2 * bits)) | ((p[1] as usize >> s) << bits) | (p[2] as usize >> s)
    };
    let mut hist = vec![0usize; 1 << (3 * bits)];
    for p in samples.clone() {
        hist[key(p)] += 1;
    }
    let (k, &n) = hist.iter().enumerate().max_by_key(|(_, &n)| n).unwrap();
    let mut sum = [0usize; 3];
    for p in samples.filter(|&p| key(p) == k) {
        for i in 0..3 {
            sum[i] += p[i] as usize;
        }
    }
    (sum.map(|v| (v / n.max(1)) as u8), n)
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Class {
    Grass,
    Water,
    Wall,
    Horse,
    Cherry,
    Bees,
    Portal(Rgb),
}

struct Board {
    x: Axis,
    y: Axis,
}

impl Board {
    fn tile_region(&self, r: usize, c: usize) -> Region {
        Region {
            x: (self.x.start + c as f64 * self.x.pitch) as i64,
            y: (self.y.start + r as f64 * self.y.pitch) as i64,
            w: self.x.pitch.round() as u32,
            h: self.y.pitch.round() as u32,
        }
    }

    fn sample(&self, img: &RgbaImage, r: usize, c: usize) -> [Rgb; SUB * SUB] {
        let mut out = [[0u8; 3]; SUB * SUB];
        let (x0, y0) = (
            self.x.start + c as f64 * self.x.pitch,
            self.y.start + r as f64 * self.y.pitch,
        );
        for j in 0..SUB {
            for i in 0..SUB {
                out[j * SUB + i] = px(
                    img,
                    x0 + (i as f64 + 0.5) * self.x.pitch / SUB as f64,
                    y0 + (j as f64 + 0.5) * self.y.pitch / SUB as f64,
                );
            }
        }
        out
    }
}

fn find_board(img: &RgbaImage) -> Result<Board> {
    let (w, h) = (img.width() as usize, img.height() as usize);
    if w < 32 || h < 32 {
        return Err(Error::vision(
            None,
            "picture too small for an enclose.horse board",
        ));
    }
    let none = || Error::vision(None, "no tile grid found: not an enclose.horse board");
    let x = find_axis(&ridge_profile(img, true)).ok_or_else(none)?;
    let y = find_axis(&ridge_profile(img, false)).ok_or_else(none)?;
    let region = Region {
        x: x.start as i64,
        y: y.start as i64,
        w: (x.pitch * x.tiles as f64) as u32,
        h: (y.pitch * y.tiles as f64) as u32,
    };
    if (x.pitch / y.pitch - 1.0).abs() > 0.04 {
        return Err(Error::vision(
            Some(region),
            format!(
                "grid cells are not square ({:.1}×{:.1} px): not an enclose.horse board",
                x.pitch, y.pitch
            ),
        ));
    }
    if x.tiles < 3 || y.tiles < 3 {
        return Err(Error::vision(Some(region), "grid too small for a board"));
    }
    Ok(Board { x, y })
}

/// The theme from the grass hue (#186b3b, #365022, #7c507e; `hot` grass #272727 is grey): hue
/// survives the brightness and contrast shifts between capture tools.
fn theme_of(grass: Rgb) -> &'static str {
    if sat(grass) < 15 {
        return "hot";
    }
    let h = hue(grass);
    let near = |t: f64| {
        let d = (h - t).abs();
        d.min(360.0 - d)
    };
    [("default", 144.0), ("classic", 94.0), ("girl", 298.0)]
        .into_iter()
        .min_by(|a, b| near(a.1).total_cmp(&near(b.1)))
        .unwrap()
        .0
}

/// Recognise an enclose.horse board in a full-page capture or a crop.
pub fn recognize(img: &RgbaImage, opts: &ReadOptions) -> Result<Reading> {
    let board = find_board(img)?;
    let (rows, cols) = (board.y.tiles, board.x.tiles);
    let tiles: Vec<[Rgb; SUB * SUB]> = (0..rows * cols)
        .map(|k| board.sample(img, k / cols, k % cols))
        .collect();
    let grass = mode(tiles.iter().flat_map(|t| t.iter().copied()), 5).0;
    let near_grass = |p: Rgb| dist(p, grass) <= 40.0;
    let stone = |p: Rgb| sat(p) <= 12 && dist(p, grass) >= 60.0;
    let frac = |t: &[Rgb], f: &dyn Fn(Rgb) -> bool| {
        t.iter().filter(|&&p| f(p)).count() as f64 / t.len().max(1) as f64
    };
    let half = SUB * SUB / 2;

    let wall: Vec<bool> = tiles
        .iter()
        .map(|t| frac(&t[..half], &stone) >= 0.55 && frac(&t[half..], &stone) >= 0.55)
        .collect();
    let mut class = vec![Class::Grass; rows * cols];
    let mut confidence = 1.0f64;
    let mut enclosed = false;
    // A wall sprite overhangs the lower half of the tile above it.
    let visible = |k: usize| {
        if k / cols + 1 < rows && wall[k + cols] {
            SUB / 2
        } else {
            SUB
        }
    };
    // Water is the usual non-grass colour of the tiles that are mostly not grass (nor wheat).
    let not_grass: Vec<Rgb> = (0..rows * cols)
        .filter(|&k| !wall[k])
        .map(|k| &tiles[k][..visible(k) * SUB])
        .filter(|t| frac(t, &near_grass) < 0.5 && frac(t, &is_gold) < 0.35)
        .flat_map(|t| t.iter().copied().filter(|&p| !near_grass(p)))
        .collect();
    let water = (!not_grass.is_empty())
        .then(|| mode(not_grass.iter().copied(), 4).0)
        .filter(|&w| dist(w, grass) >= 45.0);
    let near_water = |p: Rgb| water.is_some_and(|w| dist(p, w) <= 50.0);
    for k in 0..rows * cols {
        let (r, c) = (k / cols, k % cols);
        if wall[k] {
            class[k] = Class::Wall;
            continue;
        }
        let visible_rows = visible(k);
        let t = &tiles[k][..visible_rows * SUB];
        let wheat = frac(t, &is_gold) >= 0.35;
        enclosed |= wheat;
        let background = if wheat {
            mode(t.iter().copied().filter(|&p| is_gold(p)), 4).0
        } else if frac(t, &near_grass) >= 0.5 {
            grass
        } else if frac(t, &near_water) >= 0.3 {
            class[k] = Class::Water;
            continue;
        } else if dist(mode(t.iter().copied(), 4).0, grass) <= 40.0 {
            // A rescaled capture blurs a sprite into its grass, but grass stays the mode.
            grass
        } else {
            return Err(Error::vision(
                Some(board.tile_region(r, c)),
                format!(
                    "tile row {r} col {c}: neither grass nor water (colour {:?})",
                    mode(t.iter().copied(), 4).0
                ),
            ));
        };
        let mut mask = [false; SUB * SUB];
        for (i, &p) in t.iter().enumerate() {
            mask[i] = dist(p, background) > 62.0 && !(wheat && is_gold(p));
        }
        let on = (1..visible_rows.min(SUB - 1))
            .flat_map(|y| (1..SUB - 1).map(move |x| y * SUB + x))
            .filter(|&i| mask[i])
            .count();
        if on < 6 {
            continue;
        }
        let (best, score) = templates()
            .iter()
            .map(|tp| (tp.sprite, iou(&mask, &tp.mask, visible_rows)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap();
        if score < 0.45 {
            return Err(Error::vision(
                Some(board.tile_region(r, c)),
                format!("tile row {r} col {c}: unknown sprite (best match {best:?} at {score:.2})"),
            ));
        }
        confidence = confidence.min(score);
        class[k] = match best {
            Sprite::Horse => Class::Horse,
            Sprite::Cherry => Class::Cherry,
            Sprite::Bees => Class::Bees,
            Sprite::Portal => Class::Portal(portal_colour(t, &mask)),
        };
    }

    let horses: Vec<usize> = (0..class.len())
        .filter(|&k| class[k] == Class::Horse)
        .collect();
    let region = Region {
        x: board.x.start as i64,
        y: board.y.start as i64,
        w: (board.x.pitch * cols as f64) as u32,
        h: (board.y.pitch * rows as f64) as u32,
    };
    match horses.len() {
        1 => {}
        0 => return Err(Error::vision(Some(region), "no horse on the grid")),
        _ => {
            let at: Vec<String> = horses
                .iter()
                .map(|k| format!("({},{})", k / cols, k % cols))
                .collect();
            return Err(Error::vision(
                Some(region),
                format!(
                    "several horse-like sprites at {} (a unicorn is not calibrated)",
                    at.join(" ")
                ),
            ));
        }
    }

    let labels = pair_portals(&class, cols, &board)?;
    let map: Vec<String> = (0..rows)
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
                        Class::Bees => 'S',
                        Class::Portal(_) => labels[k],
                    }
                })
                .collect()
        })
        .collect();

    let counter = read_counter(img, &board, rows, cols);
    if let Some((_, _, score)) = counter {
        confidence = confidence.min(score);
    }
    // The score is only checked after play, so a weak read of it does not lower confidence.
    let score_shown = read_score(img, &board, rows, cols).map(|(shown, _)| shown);
    let budget = opts.budget.or(counter.map(|c| c.1));
    let walls_placed = counter.and_then(|(left, b, _)| budget.unwrap_or(b).checked_sub(left));
    let pitch = (board.x.pitch + board.y.pitch) / 2.0;
    Ok(Reading {
        rows: map,
        budget,
        walls_placed,
        geometry: Geometry {
            origin: PixelPoint {
                x: board.x.start + board.x.pitch / 2.0,
                y: board.y.start + board.y.pitch / 2.0,
            },
            pitch,
            board: (
                board.x.start,
                board.y.start,
                board.x.pitch * cols as f64,
                board.y.pitch * rows as f64,
            ),
        },
        theme: theme_of(grass).to_string(),
        enclosed,
        variant_hint: None,
        score_shown,
        confidence,
    })
}

/// The swirl's colour: mean of the saturated sprite pixels.
fn portal_colour(t: &[Rgb], mask: &[bool; SUB * SUB]) -> Rgb {
    let mut sum = [0f64; 3];
    let mut n = 0.0f64;
    for (i, &p) in t.iter().enumerate() {
        if mask[i] && sat(p) >= 40 && !is_white(p) {
            for c in 0..3 {
                sum[c] += p[c] as f64;
            }
            n += 1.0;
        }
    }
    sum.map(|v| (v / n.max(1.0)) as u8)
}

/// Portal characters in row-major order of first appearance; the two tiles of a pair share a
/// colour that is clearly closer to each other than to any other portal.
fn pair_portals(class: &[Class], cols: usize, board: &Board) -> Result<Vec<char>> {
    let portals: Vec<(usize, Rgb)> = class
        .iter()
        .enumerate()
        .filter_map(|(k, c)| match c {
            Class::Portal(rgb) => Some((k, *rgb)),
            _ => None,
        })
        .collect();
    let mut labels = vec!['?'; class.len()];
    let err = |k: usize, msg: String| {
        Error::vision(
            Some(board.tile_region(k / cols, k % cols)),
            format!("portal at row {} col {}: {msg}", k / cols, k % cols),
        )
    };
    let mut partner = vec![usize::MAX; portals.len()];
    for i in 0..portals.len() {
        let mut d: Vec<(f64, usize)> = (0..portals.len())
            .filter(|&j| j != i)
            .map(|j| (dist(portals[i].1, portals[j].1), j))
            .collect();
        d.sort_by(|a, b| a.0.total_cmp(&b.0));
        let Some(&(d0, j)) = d.first() else {
            return Err(err(portals[i].0, "no partner of its colour".into()));
        };
        if let Some(&(d1, _)) = d.get(1) {
            if d0 > 0.6 * d1 {
                return Err(err(
                    portals[i].0,
                    format!("colour {:?} matches several portals", portals[i].1),
                ));
            }
        }
        partner[i] = j;
    }
    const NAMES: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut next = 0;
    for i in 0..portals.len() {
        let j = partner[i];
        if partner[j] != i {
            return Err(err(
                portals[i].0,
                "its colour pairs with no single tile".into(),
            ));
        }
        if labels[portals[i].0] == '?' {
            let Some(&ch) = NAMES.get(next) else {
                return Err(err(
                    portals[i].0,
                    "more portal pairs than characters".into(),
                ));
            };
            labels[portals[i].0] = ch as char;
            labels[portals[j].0] = ch as char;
            next += 1;
        }
    }
    Ok(labels)
}

struct Glyph {
    ch: char,
    mask: Vec<bool>,
    aspect: f64,
}

const GW: usize = 12;
const GH: usize = 18;

fn glyphs() -> &'static [Glyph] {
    static G: OnceLock<Vec<Glyph>> = OnceLock::new();
    G.get_or_init(|| {
        parse_masks(GLYPHS, GW, GH)
            .into_iter()
            .filter_map(|(name, mask)| {
                let mut it = name.split_whitespace();
                let ch = it.next()?.chars().next()?;
                let aspect = it.next()?.parse().ok()?;
                Some(Glyph { ch, mask, aspect })
            })
            .collect()
    })
}

/// Text pixels (those `ink` accepts) in a rectangle, split into glyphs (8-connected groups
/// whose columns overlap are one glyph, so a colon stays whole); each glyph's box scaled to
/// GW×GH, with its width/height ratio. Groups under 4 pixels tall are dropped as specks.
fn text_glyphs(
    img: &RgbaImage,
    [x0, y0, x1, y1]: [u32; 4],
    ink: fn(Rgb) -> bool,
) -> Vec<(Vec<bool>, f64)> {
    glyph_boxes(img, [x0, y0, x1, y1], ink)
        .into_iter()
        .filter(|g| g.box_[3] - g.box_[1] >= 4)
        .map(|g| (g.mask, g.aspect))
        .collect()
}

/// One group of text pixels: its box (x0, y0, x1, y1 inclusive, relative to the rectangle),
/// its mask scaled to GW×GH and its width/height ratio.
struct GlyphBox {
    box_: [usize; 4],
    mask: Vec<bool>,
    aspect: f64,
}

fn glyph_boxes(img: &RgbaImage, [x0, y0, x1, y1]: [u32; 4], ink: fn(Rgb) -> bool) -> Vec<GlyphBox> {
    let (w, h) = ((x1 - x0) as usize, (y1 - y0) as usize);
    let on: Vec<bool> = (0..w * h)
        .map(|k| {
            let Rgba([r, g, b, _]) = *img.get_pixel(x0 + (k % w) as u32, y0 + (k / w) as u32);
            ink([r, g, b])
        })
        .collect();
    let mut label = vec![usize::MAX; w * h];
    let mut boxes: Vec<[usize; 4]> = Vec::new();
    for s in 0..w * h {
        if !on[s] || label[s] != usize::MAX {
            continue;
        }
        let id = boxes.len();
        let mut bb = [s % w, s / w, s % w, s / w];
        let mut stack = vec![s];
        label[s] = id;
        while let Some(p) = stack.pop() {
            let (x, y) = (p % w, p / w);
            bb = [bb[0].min(x), bb[1].min(y), bb[2].max(x), bb[3].max(y)];
            for dy in -1i32..=1 {
                for dx in -1i32..=1 {
                    let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                    if nx < 0 || ny < 0 || nx >= w as i32 || ny >= h as i32 {
                        continue;
                    }
                    let q = ny as usize * w + nx as usize;
                    if on[q] && label[q] == usize::MAX {
                        label[q] = id;
                        stack.push(q);
                    }
                }
            }
        }
        boxes.push(bb);
    }
    boxes.sort_by_key(|b| b[0]);
    let mut merged: Vec<[usize; 4]> = Vec::new();
    for b in boxes {
        match merged.last_mut() {
            Some(m) if b[0] <= m[2] => {
                *m = [
                    m[0].min(b[0]),
                    m[1].min(b[1]),
                    m[2].max(b[2]),
                    m[3].max(b[3]),
                ]
            }
            _ => merged.push(b),
        }
    }
    merged
        .into_iter()
        .map(|[bx0, by0, bx1, by1]| {
            let (bw, bh) = ((bx1 - bx0 + 1) as f64, (by1 - by0 + 1) as f64);
            let mut m = vec![false; GW * GH];
            for (gy, row) in m.chunks_mut(GW).enumerate() {
                for (gx, cell) in row.iter_mut().enumerate() {
                    let xa = bx0 + (gx as f64 * bw / GW as f64) as usize;
                    let xb = bx0 + (((gx + 1) as f64 * bw / GW as f64).ceil() as usize).max(1);
                    let ya = by0 + (gy as f64 * bh / GH as f64) as usize;
                    let yb = by0 + (((gy + 1) as f64 * bh / GH as f64).ceil() as usize).max(1);
                    let (mut n, mut t) = (0, 0);
                    for yy in ya..yb.min(by1 + 1) {
                        for xx in xa..xb.min(bx1 + 1) {
                            t += 1;
                            n += on[yy * w + xx] as usize;
                        }
                    }
                    *cell = t > 0 && n * 2 >= t;
                }
            }
            GlyphBox {
                box_: [bx0, by0, bx1, by1],
                mask: m,
                aspect: bw / bh,
            }
        })
        .collect()
}

/// Agreement of two glyph masks allowing strokes to be one cell off (stroke width and
/// rounding differ with the font size): the share of each mask's cells that lie within one cell
/// of the other mask.
fn glyph_score(a: &[bool], b: &[bool]) -> f64 {
    let near = |m: &[bool], x: usize, y: usize| {
        (y.saturating_sub(1)..(y + 2).min(GH))
            .any(|yy| (x.saturating_sub(1)..(x + 2).min(GW)).any(|xx| m[yy * GW + xx]))
    };
    let covered = |from: &[bool], to: &[bool]| {
        (0..GW * GH)
            .filter(|&k| from[k] && near(to, k % GW, k / GW))
            .count()
    };
    let total = a.iter().chain(b).filter(|&&v| v).count();
    (covered(a, b) + covered(b, a)) as f64 / total.max(1) as f64
}

fn match_glyph(mask: &[bool], aspect: f64) -> Option<(char, f64)> {
    let mut scores: Vec<(char, f64)> = glyphs()
        .iter()
        .filter(|g| (g.aspect - aspect).abs() <= 0.3 * g.aspect.max(aspect))
        .map(|g| (g.ch, glyph_score(&g.mask, mask)))
        .collect();
    scores.sort_by(|a, b| b.1.total_cmp(&a.1));
    let best = *scores.first()?;
    // The runner-up of another character must be clearly worse, or the glyph stays unread.
    let rival = scores.iter().find(|s| s.0 != best.0).map_or(0.0, |s| s.1);
    (best.1 >= 0.85 && best.1 - rival >= 0.05).then_some(best)
}

/// The "Walls: left/budget" counter under the board's left half, read right to left:
/// digits, a slash, digits. `None` unless every one of those glyphs matches a template.
fn read_counter(
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
    let gs = text_glyphs(img, [x0, y0, x1, y1], is_white);
    let read: Vec<Option<(char, f64)>> = gs.iter().map(|(m, a)| match_glyph(m, *a)).collect();
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
    let start = read[..slash]
        .iter()
        .rposition(|g| !g.is_some_and(|g| g.0.is_ascii_digit()))
        .map_or(0, |i| i + 1);
    let left = number(&read[start..slash])?;
    Some((left.0, budget.0, left.1.min(budget.1)))
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
fn read_score(
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
    let gs = glyph_boxes(img, [x0, y0, x1, y1], is_gold);
    let tall = gs.iter().map(|g| g.box_[3] - g.box_[1]).max()?;
    if tall < 6 {
        return None;
    }
    let mut it = gs.iter().peekable();
    let negative = it.next_if(|g| {
        let (w, h) = (g.box_[2] - g.box_[0], g.box_[3] - g.box_[1]);
        w >= 2 * h.max(1) && h * 3 <= tall
    });
    let read: Vec<Option<(char, f64)>> = it
        .filter(|g| g.box_[3] - g.box_[1] >= 4)
        .map(|g| match_glyph(&g.mask, g.aspect))
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

/// Mark each tile's class for `scan --overlay`: a small filled square at the tile centre in a
/// class colour (portals in their pair's colour), the board outlined.
pub fn draw_overlay(img: &mut RgbaImage, r: &Reading) {
    use imageproc::drawing::{draw_filled_rect_mut, draw_hollow_rect_mut};
    use imageproc::rect::Rect;
    let (bx, by, bw, bh) = r.geometry.board;
    let outline = Rgba([255, 0, 255, 255]);
    draw_hollow_rect_mut(
        img,
        Rect::at(bx as i32, by as i32).of_size(bw.max(1.0) as u32, bh.max(1.0) as u32),
        outline,
    );
    let side = (r.geometry.pitch / 3.0).max(3.0) as u32;
    for (row, line) in r.rows.iter().enumerate() {
        for (col, ch) in line.chars().enumerate() {
            let colour = match ch {
                '.' => Rgba([60, 220, 60, 255]),
                '~' => Rgba([40, 80, 255, 255]),
                'H' => Rgba([255, 255, 255, 255]),
                'C' => Rgba([230, 0, 0, 255]),
                'G' => Rgba([255, 200, 0, 255]),
                'S' => Rgba([0, 0, 0, 255]),
                'U' => Rgba([255, 120, 220, 255]),
                'W' => Rgba([128, 128, 128, 255]),
                p => {
                    let v = p.to_digit(36).unwrap_or(0);
                    Rgba([
                        (v * 67 % 256) as u8,
                        (v * 131 % 256) as u8,
                        (v * 199 % 256) as u8,
                        255,
                    ])
                }
            };
            let c = r.tile_centre(row, col);
            let rect = Rect::at(c.x as i32 - side as i32 / 2, c.y as i32 - side as i32 / 2)
                .of_size(side, side);
            draw_filled_rect_mut(img, rect, colour);
            draw_hollow_rect_mut(img, rect, Rgba([0, 0, 0, 255]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The speed test must not share the two cores with this module's heavy corpus tests.
    fn serial() -> std::sync::MutexGuard<'static, ()> {
        static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
        SERIAL.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn load(p: &Path) -> RgbaImage {
        image::open(p).unwrap().to_rgba8()
    }

    /// Some corpus files named .png are JPEG, which this build does not decode.
    fn try_load(p: &Path) -> Option<RgbaImage> {
        image::open(p).ok().map(|i| i.to_rgba8())
    }

    fn jsonl(rel: &str) -> Option<(std::path::PathBuf, Vec<serde_json::Value>)> {
        let p = crate::corpus::path(rel)?;
        let lines = std::fs::read_to_string(&p)
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        Some((p.parent().unwrap().to_path_buf(), lines))
    }

    /// Portal characters renamed in row-major order of first appearance, as `recognize` names them.
    fn canonical(rows: &[String]) -> Vec<String> {
        let mut map = std::collections::HashMap::new();
        const NAMES: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
        rows.iter()
            .map(|r| {
                r.chars()
                    .map(|ch| {
                        if ch.is_ascii_alphanumeric() && !"HCGSUW".contains(ch) {
                            let n = map.len();
                            *map.entry(ch).or_insert(NAMES[n] as char)
                        } else {
                            ch
                        }
                    })
                    .collect()
            })
            .collect()
    }

    struct Case {
        file: std::path::PathBuf,
        rows: Vec<String>,
        budget: Option<u32>,
        walls_placed: Option<u32>,
    }

    fn rows_of(v: &serde_json::Value) -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().to_string())
            .collect()
    }

    fn known_cases() -> Option<Vec<Case>> {
        let (dir, apps) = jsonl("enclose/app-screens/index.jsonl")?;
        let mut cases = Vec::new();
        for a in apps {
            let mut rows: Vec<Vec<char>> = rows_of(&a["level"]["map_rows"])
                .iter()
                .map(|r| r.chars().collect())
                .collect();
            let walls = a["walls_placed_row_col"].as_array().unwrap();
            for w in walls {
                let (r, c) = (
                    w[0].as_u64().unwrap() as usize,
                    w[1].as_u64().unwrap() as usize,
                );
                assert_eq!(rows[r][c], '.', "truth wall on a non-grass tile");
                rows[r][c] = 'W';
            }
            cases.push(Case {
                file: dir.join(a["file"].as_str().unwrap()),
                rows: rows.into_iter().map(|r| r.into_iter().collect()).collect(),
                // The page shows the counter, so the budget must be read off it.
                budget: a["level"]["budget"].as_u64().map(|b| b as u32),
                walls_placed: Some(walls.len() as u32),
            });
        }
        let (dir, shots) = jsonl("enclose/screenshots/index.jsonl")?;
        for s in shots {
            if s["map_rows"].is_array() {
                cases.push(Case {
                    file: dir.join(s["file"].as_str().unwrap()),
                    rows: rows_of(&s["map_rows"]),
                    // Board crops: no counter in the picture, so nothing to read.
                    budget: None,
                    walls_placed: None,
                });
            }
        }
        Some(cases)
    }

    #[test]
    fn reads_every_known_corpus_screenshot_exactly() {
        let _serial = serial();
        let Some(cases) = known_cases() else { return };
        assert_eq!(cases.len(), 17);
        let mut failures = Vec::new();
        for case in &cases {
            let img = load(&case.file);
            let name = case.file.file_name().unwrap().to_string_lossy().to_string();
            match recognize(&img, &ReadOptions::default()) {
                Ok(r) => {
                    let want = canonical(&case.rows);
                    let tiles_ok = r.rows == want;
                    if !tiles_ok {
                        let diff: Vec<String> = want
                            .iter()
                            .zip(&r.rows)
                            .enumerate()
                            .flat_map(|(i, (a, b))| {
                                a.chars()
                                    .zip(b.chars())
                                    .enumerate()
                                    .filter(|(_, (x, y))| x != y)
                                    .map(move |(j, (x, y))| format!("({i},{j}) {x}->{y}"))
                            })
                            .collect();
                        failures.push(format!(
                            "{name}: {}x{} vs {}x{} {diff:?}",
                            r.rows.len(),
                            r.cols(),
                            want.len(),
                            want[0].len()
                        ));
                    }
                    if r.budget != case.budget || r.walls_placed != case.walls_placed {
                        failures.push(format!(
                            "{name}: budget {:?}/{:?} placed {:?}/{:?}",
                            r.budget, case.budget, r.walls_placed, case.walls_placed
                        ));
                    }
                    let has_w = case.rows.iter().any(|r| r.contains('W'));
                    eprintln!(
                        "{name}: ok={tiles_ok} theme={} pitch={:.2} enclosed={} conf={:.2} walls={has_w}",
                        r.theme, r.geometry.pitch, r.enclosed, r.confidence
                    );
                }
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
        assert!(failures.is_empty(), "{failures:#?}");
    }

    #[test]
    fn themes_and_pen_are_named() {
        let _serial = serial();
        let Some(dir) = crate::corpus::path("enclose/app-screens") else {
            return;
        };
        for (file, theme, enclosed) in [
            ("enclose_day9_default_1280x900_fresh.png", "default", false),
            ("enclose_day9_classic_1280x900_fresh.png", "classic", false),
            ("enclose_day9_girl_1280x900_fresh.png", "girl", false),
            ("enclose_day9_hot_1920x1080_fresh.png", "hot", false),
            (
                "enclose_day9_default_1920x1080_enclosed-1wall.png",
                "default",
                true,
            ),
            (
                "enclose_day9_classic_1920x1080_partial.png",
                "classic",
                true,
            ),
            (
                "enclose_day9_default_1280x900_partial-escaping.png",
                "default",
                false,
            ),
        ] {
            let r = recognize(&load(&dir.join(file)), &ReadOptions::default()).unwrap();
            assert_eq!((r.theme.as_str(), r.enclosed), (theme, enclosed), "{file}");
        }
    }

    /// The page's score line against the game's own scorer run on the recorded walls:
    /// "N/A" exactly when the horse escapes.
    #[test]
    fn shown_score_matches_the_walls() {
        let _serial = serial();
        let Some((dir, apps)) = jsonl("enclose/app-screens/index.jsonl") else {
            return;
        };
        let mut read = 0;
        for a in apps {
            let rows = rows_of(&a["level"]["map_rows"]).join("\n");
            let level = crate::games::enclose::format::parse_map(
                &rows,
                "index",
                12,
                crate::games::enclose::Variant::Main,
            )
            .unwrap();
            let walls: Vec<[usize; 2]> = a["walls_placed_row_col"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| {
                    [
                        w[0].as_u64().unwrap() as usize,
                        w[1].as_u64().unwrap() as usize,
                    ]
                })
                .collect();
            let want = match crate::games::enclose::check::score(&level, &walls) {
                Ok(0) => ShownScore::NotEnclosed,
                Ok(v) => ShownScore::Value(v),
                Err(e) => panic!("{e}"),
            };
            let file = a["file"].as_str().unwrap();
            let r = recognize(&load(&dir.join(file)), &ReadOptions::default()).unwrap();
            assert_eq!(r.score_shown, Some(want), "{file}");
            read += 1;
        }
        assert_eq!(read, 8);
    }

    /// Costly-walls scores can be negative: a flat gold stroke before the digits is a minus.
    /// The stroke is painted in the digit's own gold, as wide as half the digit is tall.
    #[test]
    fn a_minus_before_the_score_is_read() {
        let Some(p) = crate::corpus::path(
            "enclose/app-screens/enclose_day9_default_1920x1080_enclosed-1wall.png",
        ) else {
            return;
        };
        let mut img = load(&p);
        let r = recognize(&img, &ReadOptions::default()).unwrap();
        assert_eq!(r.score_shown, Some(ShownScore::Value(1)));
        let (bx, by, bw, bh) = r.geometry.board;
        let gold: Vec<(u32, u32)> = (by as u32 + bh as u32..img.height())
            .flat_map(|y| ((bx + bw / 2.0) as u32..(bx + bw) as u32 + 10).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let Rgba([r, g, b, _]) = *img.get_pixel(x, y);
                is_gold([r, g, b])
            })
            .take_while(|&(_, y)| y < (by + bh + r.geometry.pitch) as u32)
            .collect();
        let x0 = gold.iter().map(|g| g.0).min().unwrap();
        let (y0, y1) = (
            gold.iter().map(|g| g.1).min().unwrap(),
            gold.iter().map(|g| g.1).max().unwrap(),
        );
        let ink = *img.get_pixel(gold[0].0, gold[0].1);
        let h = y1 - y0;
        let mid = (y0 + y1) / 2;
        for y in mid - 1..=mid + 1 {
            for x in x0 - 4 - h / 2..x0 - 4 {
                img.put_pixel(x, y, ink);
            }
        }
        let r = recognize(&img, &ReadOptions::default()).unwrap();
        assert_eq!(r.score_shown, Some(ShownScore::Value(-1)));
    }

    #[test]
    fn geometry_matches_the_canvas() {
        let _serial = serial();
        let Some((dir, apps)) = jsonl("enclose/app-screens/index.jsonl") else {
            return;
        };
        for a in apps {
            let r = recognize(
                &load(&dir.join(a["file"].as_str().unwrap())),
                &ReadOptions::default(),
            )
            .unwrap();
            let rect = &a["board_canvas_css_rect"];
            let (x, w) = (rect["x"].as_f64().unwrap(), rect["w"].as_f64().unwrap());
            let (bx, _, bw, _) = r.geometry.board;
            // The canvas has a thin border; the grid sits within a few pixels of its rectangle.
            assert!(
                (bx - x).abs() < 4.0 && (bw - w).abs() < 6.0,
                "{a}: {:?}",
                r.geometry
            );
            assert!((r.geometry.pitch - w / 12.0).abs() < 0.6);
            let c = r.tile_centre(13, 11);
            assert!((c.x - (x + w * 23.0 / 24.0)).abs() < 4.0);
        }
    }

    #[test]
    fn budget_option_overrides_and_fills() {
        let Some(p) = crate::corpus::path("enclose/screenshots/dt_2_2025-12-31.png") else {
            return;
        };
        let r = recognize(&load(&p), &ReadOptions { budget: Some(14) }).unwrap();
        assert_eq!((r.budget, r.walls_placed), (Some(14), None));
    }

    #[test]
    fn unknown_maps_read_consistently() {
        let _serial = serial();
        let Some(dir) = crate::corpus::path("enclose/screenshots") else {
            return;
        };
        let count = |r: &Reading, ch: char| {
            r.rows
                .iter()
                .flat_map(|l| l.chars())
                .filter(|&c| c == ch)
                .count()
        };
        // dyigitpolat's own test expectations for this board.
        let r = recognize(&load(&dir.join("dyig_p4.png")), &ReadOptions::default()).unwrap();
        assert_eq!((r.rows.len(), r.cols()), (30, 30));
        assert_eq!(r.rows[23].chars().nth(7), Some('H'));
        assert_eq!(
            (count(&r, '~'), count(&r, '.'), count(&r, 'C')),
            (413, 486, 0)
        );
        let r = recognize(
            &load(&dir.join("dyig_portal_cherries.png")),
            &ReadOptions::default(),
        )
        .unwrap();
        assert_eq!(count(&r, 'C'), 2);
        for f in ["dyig_p2.png", "dyig_portal.png", "dyig_portal2.png"] {
            let r = recognize(&load(&dir.join(f)), &ReadOptions::default()).unwrap();
            assert_eq!(count(&r, 'H'), 1, "{f}");
        }
    }

    #[test]
    fn upscaled_capture_reads_with_double_pitch() {
        let _serial = serial();
        let Some(p) = crate::corpus::path(
            "enclose/app-screens/enclose_day9_default_1280x900_partial-escaping.png",
        ) else {
            return;
        };
        let img = load(&p);
        let one = recognize(&img, &ReadOptions::default()).unwrap();
        let big = image::imageops::resize(
            &img,
            img.width() * 2,
            img.height() * 2,
            image::imageops::FilterType::Nearest,
        );
        let two = recognize(&big, &ReadOptions::default()).unwrap();
        assert_eq!(two.rows, one.rows);
        assert_eq!((two.budget, two.walls_placed), (Some(12), Some(4)));
        assert!((two.geometry.pitch - 2.0 * one.geometry.pitch).abs() < 0.5);
    }

    #[test]
    fn other_pictures_are_rejected() {
        let _serial = serial();
        let blank = RgbaImage::from_pixel(800, 600, Rgba([27, 107, 58, 255]));
        assert!(matches!(
            recognize(&blank, &ReadOptions::default()),
            Err(Error::Vision { .. })
        ));
        let mut others = Vec::new();
        for dir in [
            "hashi/screenshots",
            "hashi/app-screens",
            "flow/screenshots",
            "flow/app-screens",
        ] {
            let Some(d) = crate::corpus::path(dir) else {
                continue;
            };
            for e in std::fs::read_dir(d).unwrap() {
                let p = e.unwrap().path();
                if p.extension().is_some_and(|x| x == "png") {
                    others.push(p);
                }
            }
        }
        assert!(!others.is_empty() || crate::corpus::dir().is_none());
        let decoded: Vec<_> = others
            .iter()
            .filter_map(|p| Some((p, try_load(p)?)))
            .collect();
        assert!(
            decoded.len() >= 20 || crate::corpus::dir().is_none(),
            "{}",
            decoded.len()
        );
        for (p, img) in decoded {
            let res = recognize(&img, &ReadOptions::default());
            assert!(
                matches!(res, Err(Error::Vision { .. })),
                "{}: {:?}",
                p.display(),
                res.map(|r| r.rows)
            );
        }
    }

    /// Paints a filled square of `colour` over the middle of a tile.
    fn paint(
        img: &mut RgbaImage,
        r: &Reading,
        row: usize,
        col: usize,
        colour: Rgba<u8>,
        frac: f64,
    ) {
        let c = r.tile_centre(row, col);
        let half = r.geometry.pitch * frac / 2.0;
        for y in (c.y - half) as u32..(c.y + half) as u32 {
            for x in (c.x - half) as u32..(c.x + half) as u32 {
                img.put_pixel(x, y, colour);
            }
        }
    }

    #[test]
    fn an_unknown_sprite_is_refused_naming_its_tile() {
        let Some(p) = crate::corpus::path("enclose/screenshots/dt_2_2025-12-31.png") else {
            return;
        };
        let mut img = load(&p);
        let r = recognize(&img, &ReadOptions::default()).unwrap();
        assert_eq!(r.rows[3].chars().nth(2), Some('.'));
        paint(&mut img, &r, 3, 2, Rgba([250, 0, 250, 255]), 0.4);
        match recognize(&img, &ReadOptions::default()) {
            Err(Error::Vision {
                region: Some(reg),
                message,
            }) => {
                assert!(message.contains("row 3 col 2"), "{message}");
                let c = r.tile_centre(3, 2);
                assert!((reg.x as f64) < c.x && c.x < (reg.x + reg.w as i64) as f64);
            }
            other => panic!("{:?}", other.map(|r| r.rows)),
        }
    }

    #[test]
    fn a_portal_without_its_partner_is_refused() {
        let Some(p) = crate::corpus::path("enclose/screenshots/djk_portal_calibration.png") else {
            return;
        };
        let mut img = load(&p);
        let r = recognize(&img, &ReadOptions::default()).unwrap();
        assert_eq!(r.rows[1], "~0123456789~");
        // Grass over the lower light-blue portal leaves its upper twin alone.
        let grass = *img.get_pixel(r.tile_centre(4, 2).x as u32, r.tile_centre(4, 2).y as u32);
        paint(&mut img, &r, 2, 1, grass, 1.0);
        let err = recognize(&img, &ReadOptions::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("portal at row 1 col 1"), "{err}");
    }

    #[test]
    fn overlay_marks_tiles() {
        let Some(p) = crate::corpus::path("enclose/screenshots/dt_2_2025-12-31.png") else {
            return;
        };
        let mut img = load(&p);
        let r = recognize(&img, &ReadOptions::default()).unwrap();
        draw_overlay(&mut img, &r);
        let c = r.tile_centre(0, 2);
        assert_eq!(
            *img.get_pixel(c.x as u32, c.y as u32),
            Rgba([40, 80, 255, 255])
        );
    }

    #[test]
    fn rescaled_captures_read_the_same() {
        let _serial = serial();
        use image::imageops::FilterType::{CatmullRom, Triangle};
        let Some(dir) = crate::corpus::path("enclose") else {
            return;
        };
        for f in [
            "app-screens/enclose_day9_default_1280x900_partial-escaping.png",
            "app-screens/enclose_day9_hot_1920x1080_fresh.png",
            "app-screens/enclose_day9_girl_1280x900_fresh.png",
            "screenshots/djk_2026.01.15.png",
        ] {
            let img = load(&dir.join(f));
            let base = recognize(&img, &ReadOptions::default()).unwrap();
            for (scale, filter) in [
                (2.0, Triangle),
                (1.5, Triangle),
                (0.75, Triangle),
                (1.25, CatmullRom),
            ] {
                let (w, h) = (img.width() as f64 * scale, img.height() as f64 * scale);
                let other = image::imageops::resize(&img, w as u32, h as u32, filter);
                let r = recognize(&other, &ReadOptions::default())
                    .unwrap_or_else(|e| panic!("{f} ×{scale}: {e}"));
                assert_eq!(r.rows, base.rows, "{f} ×{scale}");
                assert!((r.geometry.pitch / base.geometry.pitch - scale).abs() < 0.02 * scale);
            }
        }
    }

    /// Rebuilds `calibration/enclose/*.txt` from corpus screenshots; see its README.
    #[test]
    #[ignore]
    fn regenerate_calibration() {
        let corpus = crate::corpus::dir().expect("corpus");
        let sprite = |file: &str, r: usize, c: usize, name: &str| {
            let img = load(&corpus.join("enclose").join(file));
            let b = find_board(&img).unwrap();
            let cols = b.x.tiles;
            let all: Vec<Rgb> = (0..b.y.tiles * cols)
                .flat_map(|k| b.sample(&img, k / cols, k % cols))
                .collect();
            let grass = mode(all.into_iter(), 5).0;
            let t = b.sample(&img, r, c);
            let mut s = format!("# {name} ({file} row {r} col {c})\n");
            for row in t.chunks(SUB) {
                s.extend(
                    row.iter()
                        .map(|&p| if dist(p, grass) > 62.0 { 'X' } else { '.' }),
                );
                s.push('\n');
            }
            s
        };
        let mut out = String::new();
        for (f, r, c, n) in [
            (
                "app-screens/enclose_day9_default_1280x900_fresh.png",
                7,
                6,
                "horse",
            ),
            (
                "app-screens/enclose_day9_girl_1280x900_fresh.png",
                7,
                6,
                "horse",
            ),
            (
                "app-screens/enclose_day9_default_1280x900_fresh.png",
                1,
                1,
                "cherry",
            ),
            ("screenshots/djk_2026.01.23.png", 0, 2, "bees"),
            ("screenshots/djk_portal_calibration.png", 1, 1, "portal"),
            ("screenshots/djk_portal_calibration.png", 2, 4, "portal"),
            ("screenshots/djk_portal_calibration.png", 1, 7, "portal"),
        ] {
            out += &sprite(f, r, c, n);
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration/enclose");
        std::fs::write(root.join("sprites.txt"), out).unwrap();

        let mut out = String::new();
        for f in ["font_schoolbell_28.png", "font_schoolbell_40.png"] {
            let img = load(&root.join(f));
            let gs = text_glyphs(&img, [0, 0, img.width(), img.height()], is_white);
            let text = "0123456789/";
            assert_eq!(gs.len(), text.len(), "{f}");
            for (ch, (m, aspect)) in text.chars().zip(&gs) {
                out += &format!("# {ch} {aspect:.3} ({f})\n");
                for row in m.chunks(GW) {
                    out.extend(row.iter().map(|&v| if v { 'X' } else { '.' }));
                    out.push('\n');
                }
            }
        }
        std::fs::write(root.join("glyphs.txt"), out).unwrap();
    }
}
