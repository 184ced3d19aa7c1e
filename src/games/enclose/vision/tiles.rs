//! Every tile is pixel art on a 16×16 grid, so each is sampled at its 16×16 sub-pixel centres
//! and told apart against the picture's own colours (captures differ in colour): grass, water,
//! a wall, or a sprite, matched against the silhouettes in `calibration/enclose/sprites.json`
//! (or in a profile learned by `autoplayer calibrate enclose`).

use super::{is_gold, is_white, theme_misfit, Board};
use crate::calibration::Profile;
use crate::error::{Error, Result};
use crate::vision::color::{densest, dominant, euclidean, pixel_at, saturation, Rgb};
use crate::vision::glyph::{Glyph, Likeness, TemplateSet};
use image::RgbaImage;
use std::sync::OnceLock;

/// Sub-pixels per tile side: the art's own resolution.
pub(super) const SUB: usize = 16;
/// A tile's colour samples, row-major.
pub(super) type Tile = [Rgb; SUB * SUB];
/// A sprite whose best template overlaps less than this is unknown, and refused.
pub(crate) const MIN_OVERLAP: f64 = 0.45;
/// A sample this far from its tile's background is part of a sprite, never a grass tuft.
const SPRITE_CONTRAST: f64 = 90.0;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Class {
    Grass,
    Water,
    Wall,
    Horse,
    Cherry,
    Golden,
    Bees,
    Unicorn,
    Portal(Rgb),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Sprite {
    Horse,
    Cherry,
    Golden,
    Bees,
    Unicorn,
    Portal,
}

impl Sprite {
    /// The sprite a map character stands for, if it is one.
    pub(super) fn of_tile(c: char) -> Option<Sprite> {
        Some(match c {
            'H' => Sprite::Horse,
            'C' => Sprite::Cherry,
            'G' => Sprite::Golden,
            'S' => Sprite::Bees,
            'U' => Sprite::Unicorn,
            '0'..='9' | 'a'..='z' => Sprite::Portal,
            _ => return None,
        })
    }

    /// Its label in a template file.
    pub(super) fn label(self) -> &'static str {
        match self {
            Sprite::Horse => "horse",
            Sprite::Cherry => "cherry",
            Sprite::Golden => "golden",
            Sprite::Bees => "bees",
            Sprite::Unicorn => "unicorn",
            Sprite::Portal => "portal",
        }
    }

    fn of_label(label: &str) -> Option<Sprite> {
        [
            Sprite::Horse,
            Sprite::Cherry,
            Sprite::Golden,
            Sprite::Bees,
            Sprite::Unicorn,
            Sprite::Portal,
        ]
        .into_iter()
        .find(|s| s.label() == label)
    }
}

/// The silhouettes sprites are matched against.
pub(super) type Sprites = Vec<(Sprite, Glyph)>;

/// The embedded silhouettes.
pub(super) fn sprites() -> &'static Sprites {
    static T: OnceLock<Sprites> = OnceLock::new();
    T.get_or_init(|| {
        sprites_of(
            &TemplateSet::from_json(include_str!("../../../../calibration/enclose/sprites.json"))
                .expect("calibration JSON is embedded at build time")
                .glyphs(),
        )
        .expect("the embedded sprites have known labels")
    })
}

/// A learned profile's silhouettes; a label that names no sprite is refused.
pub(super) fn sprites_of_profile(profile: &Profile) -> Result<Sprites> {
    profile.check_for("enclose", "page")?;
    sprites_of(&profile.glyphs())
}

fn sprites_of(glyphs: &[(String, Glyph)]) -> Result<Sprites> {
    glyphs
        .iter()
        .map(|(label, g)| {
            if (g.width, g.height) != (SUB, SUB) {
                return Err(Error::Usage(format!(
                    "sprite template {label:?} is {}×{}, not {SUB}×{SUB}",
                    g.width, g.height
                )));
            }
            Sprite::of_label(label)
                .map(|s| (s, g.clone()))
                .ok_or_else(|| Error::Usage(format!("unknown sprite label {label:?}")))
        })
        .collect()
}

/// Whether a pen's wheat fills the tile (a third of it gold at least).
pub(super) fn on_wheat(t: &[Rgb]) -> bool {
    share(t, &is_gold) >= 0.35
}

/// Which sub-pixels of a tile belong to a sprite: those far from the tile's background (grass,
/// or a pen's wheat, whose own gold is never sprite).
pub(super) fn silhouette(t: &[Rgb], background: Rgb, wheat: bool) -> [bool; SUB * SUB] {
    let mut mask = [false; SUB * SUB];
    for (i, &p) in t.iter().enumerate() {
        mask[i] = euclidean(p, background) > 62.0 && !(wheat && is_gold(p));
    }
    mask
}

/// The tile's samples at its sub-pixel centres.
pub(super) fn sample(img: &RgbaImage, board: &Board, r: usize, c: usize) -> Tile {
    let mut out = [[0u8; 3]; SUB * SUB];
    let (x0, y0) = (
        board.x.start + c as f64 * board.x.pitch,
        board.y.start + r as f64 * board.y.pitch,
    );
    for j in 0..SUB {
        for i in 0..SUB {
            out[j * SUB + i] = pixel_at(
                img,
                x0 + (i as f64 + 0.5) * board.x.pitch / SUB as f64,
                y0 + (j as f64 + 0.5) * board.y.pitch / SUB as f64,
            );
        }
    }
    out
}

/// Whether a wall stands on the tile, by its front face alone: the mid grey (about #797777)
/// a wall shows from three eighths of the way down its tile, across the tile. Nothing else on
/// the board is that grey across a tile: the "hot" grass is darker, its pen pattern and every
/// wall's top face lighter, water, fruit, portals and the other pens coloured. The wall's top
/// face overhangs the tile above, and a wall on the tile below covers this tile from half way
/// down (its top face has mid grey specks, never a row of them), leaving two of the art's 16
/// rows of this front: two or three pixels at 21 px tiles, which a lattice half a pixel off
/// misses if only the art's row centres are sampled. So every pixel row from a quarter to two
/// thirds of the way down is looked at, and as many as those two art rows, less a pixel for
/// rounding, must be the front's grey across the tile.
pub(super) fn shows_wall(img: &RgbaImage, board: &Board, r: usize, c: usize) -> bool {
    let front = |p: Rgb| saturation(p) <= 10 && (95..=150).contains(&p[0]);
    let (x0, y0) = (
        board.x.start + c as f64 * board.x.pitch,
        board.y.start + r as f64 * board.y.pitch,
    );
    let xs: Vec<f64> = (SUB / 8..SUB * 7 / 8)
        .map(|i| x0 + (i as f64 + 0.5) * board.x.pitch / SUB as f64)
        .collect();
    let (top, bottom) = (y0 + 0.25 * board.y.pitch, y0 + 0.65 * board.y.pitch);
    let across = (top.floor() as i64..bottom.ceil() as i64)
        .filter(|&y| (top..bottom).contains(&(y as f64 + 0.5)) && y >= 0)
        .filter(|&y| {
            let grey = xs
                .iter()
                .filter(|&&x| front(pixel_at(img, x, y as f64)))
                .count();
            grey as f64 >= ACROSS * xs.len() as f64
        })
        .count();
    across >= (board.y.pitch * 2.0 / SUB as f64 - 1.0).max(1.0) as usize
}

/// The share of a pixel row's samples that must be the front's grey for the row to be part
/// of a wall's front: all of them on every wall seen, at most a sixth beside one.
const ACROSS: f64 = 0.8;

/// The water colour: the one most samples of the tiles read as water share.
pub(super) fn water_of(tiles: &[Tile], class: &[Class]) -> Option<Rgb> {
    let water: Vec<Rgb> = tiles
        .iter()
        .zip(class)
        .filter(|(_, c)| **c == Class::Water)
        .flat_map(|(t, _)| t.iter().copied())
        .collect();
    (!water.is_empty()).then(|| dominant(water.into_iter(), 4).0)
}

/// Whether a tile is water by the test `classify` uses: a third of it the water colour, and
/// not mostly grass.
pub(super) fn looks_like(t: &Tile, water: Rgb, grass: Rgb) -> bool {
    share(t, &|p| euclidean(p, grass) <= 40.0) < 0.5
        && share(t, &|p| euclidean(p, water) <= 50.0) >= 0.3
}

/// Whether most of a tile is the grass colour, by the same distance `looks_like` uses.
pub(super) fn mostly(t: &Tile, grass: Rgb) -> bool {
    share(t, &|p| euclidean(p, grass) <= 40.0) >= 0.5
}

/// The grass colour: the one most samples of the whole board share, unless that is the
/// water's. A board more water than grass (a 25×25 level with a wide moat, read at small
/// tiles) has the water colour most common; taken for grass, it made the page's grass beyond
/// the board pass for water and grew the board by a column of it. So the next most common
/// colour is taken instead when the two fit a theme's grass and water far better that way round.
pub(super) fn grass_of(tiles: &[Tile]) -> Rgb {
    let all = || tiles.iter().flat_map(|t| t.iter().copied());
    let (first, _) = dominant(all(), 5);
    let (second, n) = dominant(all().filter(|&p| euclidean(p, first) > 45.0), 5);
    let enough = n * 10 >= tiles.len() * SUB * SUB;
    if enough && theme_misfit(second, first) + SWAP_MARGIN < theme_misfit(first, second) {
        second
    } else {
        first
    }
}

/// How much better, in degrees of hue, the colours must fit a theme the other way round.
const SWAP_MARGIN: f64 = 60.0;

/// What the tiles show.
pub(super) struct Classified {
    pub(super) class: Vec<Class>,
    /// The weakest sprite match.
    pub(super) confidence: f64,
    /// A pen (wheat-filled tiles) is shown.
    pub(super) enclosed: bool,
}

fn share(t: &[Rgb], f: &dyn Fn(Rgb) -> bool) -> f64 {
    t.iter().filter(|&&p| f(p)).count() as f64 / t.len().max(1) as f64
}

/// Classifies every tile; a tile that is neither grass nor water, or whose sprite matches no
/// template, is an error naming it.
pub(super) fn classify(
    tiles: &[Tile],
    grass: Rgb,
    board: &Board,
    sprites: &[(Sprite, Glyph)],
) -> Result<Classified> {
    let (rows, cols) = (board.rows(), board.cols());
    let near_grass = |p: Rgb| euclidean(p, grass) <= 40.0;
    let stone = |p: Rgb| saturation(p) <= 12 && euclidean(p, grass) >= 60.0;
    let half = SUB * SUB / 2;

    let wall: Vec<bool> = tiles
        .iter()
        .map(|t| share(&t[..half], &stone) >= 0.55 && share(&t[half..], &stone) >= 0.55)
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
        .filter(|t| share(t, &near_grass) < 0.5 && share(t, &is_gold) < 0.35)
        .flat_map(|t| t.iter().copied().filter(|&p| !near_grass(p)))
        .collect();
    let water = (!not_grass.is_empty())
        .then(|| dominant(not_grass.iter().copied(), 4).0)
        .filter(|&w| euclidean(w, grass) >= 45.0);
    let near_water = |p: Rgb| water.is_some_and(|w| euclidean(p, w) <= 50.0);
    for k in 0..rows * cols {
        let (r, c) = (k / cols, k % cols);
        if wall[k] {
            class[k] = Class::Wall;
            continue;
        }
        let visible_rows = visible(k);
        let t = &tiles[k][..visible_rows * SUB];
        let wheat = on_wheat(t);
        enclosed |= wheat;
        let background = if wheat {
            dominant(t.iter().copied().filter(|&p| is_gold(p)), 4).0
        } else if share(t, &near_grass) >= 0.5 {
            grass
        } else if share(t, &near_water) >= 0.3 {
            class[k] = Class::Water;
            continue;
        } else if euclidean(dominant(t.iter().copied(), 4).0, grass) <= 40.0
            || densest(t, 40.0).is_some_and(|(mode, _)| euclidean(mode, grass) <= 40.0)
        {
            // A rescaled or recompressed capture blurs a sprite into its grass and spreads
            // the grass over more shades, but no colour of the sprite is as common as grass:
            // by 4-bit bins, or without bins where those split the grass (the classic grass's
            // green, 80, lies on a bin edge, and a white horse's tight bin outnumbered each
            // half). Either alone loses copies the other reads.
            grass
        } else {
            return Err(Error::vision(
                Some(board.tile_region(r, c)),
                format!(
                    "tile row {r} col {c}: neither grass nor water (colour {:?})",
                    dominant(t.iter().copied(), 4).0
                ),
            ));
        };
        let mask = silhouette(t, background, wheat);
        if !has_sprite(t, &mask, background, visible_rows) {
            continue;
        }
        let seen = Glyph::from_mask(SUB, SUB, &mask);
        let likeness = Likeness::InnerOverlap { rows: visible_rows };
        // Of equally good templates the last one wins, as it always has here.
        let (best, score) = sprites
            .iter()
            .map(|(sprite, t)| (*sprite, likeness.score(&seen, t)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap();
        if score < MIN_OVERLAP {
            return Err(Error::vision(
                Some(board.tile_region(r, c)),
                format!("tile row {r} col {c}: unknown sprite (best match {best:?} at {score:.2})"),
            ));
        }
        confidence = confidence.min(score);
        class[k] = match best {
            Sprite::Horse => Class::Horse,
            Sprite::Cherry => Class::Cherry,
            Sprite::Golden => Class::Golden,
            Sprite::Bees => Class::Bees,
            Sprite::Unicorn => Class::Unicorn,
            Sprite::Portal => Class::Portal(portal_colour(t, &mask)),
        };
    }
    Ok(Classified {
        class,
        confidence,
        enclosed,
    })
}

/// Whether a tile's sprite mask shows a sprite on its `background`: at least 6 of its samples
/// inside the tile's border stand far from it. The grass carries faint tufts, lighter shades of itself (about 50 away
/// on the page, and a grid line less) that a rescaled or recompressed copy pushes to 75 at
/// most, past the mask's threshold; every sprite has a score of samples past 90 even at half
/// size or in JPEG quality 20 (at least 22 in the robustness bench's copies).
fn has_sprite(t: &[Rgb], mask: &[bool], background: Rgb, visible_rows: usize) -> bool {
    (1..visible_rows.min(SUB - 1))
        .flat_map(|y| (1..SUB - 1).map(move |x| y * SUB + x))
        .filter(|&i| mask[i] && euclidean(t[i], background) > SPRITE_CONTRAST)
        .count()
        >= 6
}

/// The swirl's colour: mean of the saturated sprite pixels.
fn portal_colour(t: &[Rgb], mask: &[bool]) -> Rgb {
    let mut sum = [0f64; 3];
    let mut n = 0.0f64;
    for (i, &p) in t.iter().enumerate() {
        if mask[i] && saturation(p) >= 40 && !is_white(p) {
            for c in 0..3 {
                sum[c] += p[c] as f64;
            }
            n += 1.0;
        }
    }
    sum.map(|v| (v / n.max(1.0)) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRASS: Rgb = [124, 80, 126];

    fn tile_with(samples: &[(usize, Rgb)]) -> (Tile, [bool; SUB * SUB]) {
        let mut t = [GRASS; SUB * SUB];
        for &(i, p) in samples {
            t[i] = p;
        }
        let mut mask = [false; SUB * SUB];
        for (i, &p) in t.iter().enumerate() {
            mask[i] = euclidean(p, GRASS) > 62.0;
        }
        (t, mask)
    }

    #[test]
    fn a_tuft_brightened_by_rescaling_is_no_sprite() {
        // The girl theme's tuft (#9A6B9C) pushed to #A474A6 by resampling: 67 from the grass.
        let tuft: Vec<(usize, Rgb)> = (0..12)
            .map(|k| (3 * SUB + 2 + k, [164, 116, 166]))
            .collect();
        let (t, mask) = tile_with(&tuft);
        assert!(mask.iter().filter(|&&m| m).count() >= 6);
        assert!(!has_sprite(&t, &mask, GRASS, SUB));
    }

    #[test]
    fn a_few_far_samples_make_a_sprite_and_the_border_does_not_count() {
        let red: Rgb = [200, 30, 40];
        let inside: Vec<(usize, Rgb)> = (0..6).map(|k| (5 * SUB + 4 + k, red)).collect();
        let (t, mask) = tile_with(&inside);
        assert!(has_sprite(&t, &mask, GRASS, SUB));
        // The same six on the tile's top border row are the grid line's or the next tile's.
        let border: Vec<(usize, Rgb)> = (0..6).map(|k| (4 + k, red)).collect();
        let (t, mask) = tile_with(&border);
        assert!(!has_sprite(&t, &mask, GRASS, SUB));
        // Below the rows a wall overhangs, they are not looked at.
        let low: Vec<(usize, Rgb)> = (0..6).map(|k| (12 * SUB + 4 + k, red)).collect();
        let (t, mask) = tile_with(&low);
        assert!(has_sprite(&t, &mask, GRASS, SUB));
        assert!(!has_sprite(&t, &mask, GRASS, SUB / 2));
    }
}
