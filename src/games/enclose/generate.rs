//! Seeded generator of realistic levels: water in random blobs, the horse near the middle,
//! cherries, sometimes portals, a golden apple, bees, and the unicorn for its rounds. Budgets
//! scale with the map so that the best pen is neither the whole island nor trivial.

use super::check::flood;
use super::model::{Level, Tile, Variant};

#[derive(Debug, Clone)]
pub struct Params {
    pub rows: usize,
    pub cols: usize,
    /// Fraction of tiles under water, roughly.
    pub water: f64,
    pub cherries: usize,
    pub portal_pairs: usize,
    pub golden: usize,
    pub bees: usize,
    pub budget: u32,
    pub variant: Variant,
}

impl Params {
    /// A varied but reproducible choice of parameters: sizes 8×8 to 30×30, like the dailies
    /// (and the larger weekly levels).
    pub fn for_seed(seed: u64) -> Params {
        let mut r = Rng::new(seed ^ 0x5eed);
        let rows = 8 + r.below(23) as usize;
        let cols = (rows as i64 + r.below(7) as i64 - 3).clamp(8, 30) as usize;
        let size = (rows + cols) as u32;
        Params {
            rows,
            cols,
            water: 0.22 + 0.13 * r.unit(),
            cherries: r.below(10) as usize,
            portal_pairs: if r.unit() < 0.3 {
                1 + r.below(3) as usize
            } else {
                0
            },
            golden: usize::from(r.unit() < 0.25),
            bees: if r.unit() < 0.25 {
                1 + r.below(3) as usize
            } else {
                0
            },
            budget: 5 + size / 6 + r.below(4) as u32,
            variant: Variant::Main,
        }
    }
}

/// splitmix64: tiny, seedable, good enough for level layouts.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Makes a level; the same seed and parameters always give the same level. Layouts where the
/// horse is already penned by water, or roams fewer than 20 tiles, are redrawn.
pub fn generate(seed: u64, p: &Params) -> Level {
    let mut r = Rng::new(seed);
    loop {
        if let Some(level) = attempt(&mut r, p) {
            return level;
        }
    }
}

fn attempt(r: &mut Rng, p: &Params) -> Option<Level> {
    let (rows, cols) = (p.rows.max(3), p.cols.max(3));
    let n = rows * cols;
    let mut tiles = vec![Tile::Grass; n];
    let target = (p.water * n as f64) as usize;
    let mut water = 0;
    while water < target {
        let (cr, cc) = (r.below(rows as u64) as f64, r.below(cols as u64) as f64);
        let rad = 0.8 + 2.2 * r.unit();
        for (i, t) in tiles.iter_mut().enumerate() {
            let (dr, dc) = ((i / cols) as f64 - cr, (i % cols) as f64 - cc);
            let d = (dr * dr + dc * dc).sqrt();
            if d <= rad + 0.6 * (r.unit() - 0.5) && *t == Tile::Grass {
                *t = Tile::Water;
                water += 1;
            }
        }
    }
    let middle =
        |len: usize, r: &mut Rng| len * 3 / 10 + r.below((len * 2 / 5).max(1) as u64) as usize;
    let horse = middle(rows, r) * cols + middle(cols, r);
    tiles[horse] = Tile::Horse;
    let level = |tiles: Vec<Tile>| Level {
        rows,
        cols,
        tiles,
        budget: p.budget,
        variant: p.variant,
    };
    let (reach, escaped) = flood(&level(tiles.clone()), &vec![false; n], horse);
    if !escaped || reach.len() < 20 {
        return None;
    }
    // Items go on grass the horse can reach, so that they matter.
    let mut spots: Vec<usize> = reach.iter().copied().filter(|&i| i != horse).collect();
    let mut take = |r: &mut Rng| -> Option<usize> {
        (!spots.is_empty()).then(|| spots.swap_remove(r.below(spots.len() as u64) as usize))
    };
    let mut place = |t: Tile, r: &mut Rng, tiles: &mut Vec<Tile>| -> Option<()> {
        tiles[take(r)?] = t;
        Some(())
    };
    if p.variant.has_unicorn() {
        place(Tile::Unicorn, r, &mut tiles)?;
    }
    for _ in 0..p.cherries {
        place(Tile::Cherry, r, &mut tiles)?;
    }
    for _ in 0..p.golden {
        place(Tile::Golden, r, &mut tiles)?;
    }
    for _ in 0..p.bees {
        place(Tile::Bees, r, &mut tiles)?;
    }
    for ch in 0..p.portal_pairs.min(36) as u8 {
        // One end near the horse, the other anywhere on grass: portals that open new ground.
        place(Tile::Portal(ch), r, &mut tiles)?;
        let far: Vec<usize> = (0..n).filter(|&i| tiles[i] == Tile::Grass).collect();
        if far.is_empty() {
            return None;
        }
        tiles[far[r.below(far.len() as u64) as usize]] = Tile::Portal(ch);
    }
    Some(level(tiles))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::enclose::format::{parse, to_canonical};

    #[test]
    fn reproducible_and_well_formed() {
        for seed in 0..40 {
            for variant in [Variant::Main, Variant::Lovebirds, Variant::Quarrel] {
                let p = Params {
                    variant,
                    ..Params::for_seed(seed)
                };
                let a = generate(seed, &p);
                assert_eq!(a, generate(seed, &p));
                let text = to_canonical(&a);
                assert_eq!(parse(&text, "gen", None).unwrap(), a, "{text}");
            }
        }
    }
}
