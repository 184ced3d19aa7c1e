//! The game's own scorer (seed 000: a breadth-first flood fill from the horse), kept apart from
//! the solver so that every answer the solver gives is scored again independently.

use super::model::{Level, Tile, Variant, WALL_COST};

/// The game's flood fill, a rule of the level itself (its render marks pens with it); the
/// scorer and the solver's networks name it from here.
pub use super::model::flood;

fn region_value(level: &Level, region: &[usize]) -> i32 {
    region.iter().map(|&i| level.tiles[i].value()).sum()
}

/// Scores new walls (`[row, col]`) the way the game does for the level's round. A main level
/// where the horse escapes scores 0; a bonus round whose condition fails (escape, unicorn in
/// the wrong pen) and any illegal wall are errors with the reason.
pub fn score(level: &Level, walls: &[[usize; 2]]) -> Result<i32, String> {
    let mut wall = vec![false; level.tiles.len()];
    for (i, t) in level.tiles.iter().enumerate() {
        wall[i] = *t == Tile::Wall;
    }
    for &[r, c] in walls {
        if r >= level.rows || c >= level.cols {
            return Err(format!("wall [{r},{c}] is off the map"));
        }
        let i = r * level.cols + c;
        if level.tiles[i] != Tile::Grass {
            return Err(format!(
                "wall [{r},{c}] is on {:?}, not grass",
                level.tiles[i]
            ));
        }
        if wall[i] {
            return Err(format!("wall [{r},{c}] is placed twice"));
        }
        wall[i] = true;
    }
    let used = walls.len() as u32 + level.preplaced_walls();
    if used > level.budget {
        return Err(format!("{used} walls exceed the budget {}", level.budget));
    }
    let (horse, escaped) = flood(level, &wall, level.horse());
    match level.variant {
        Variant::Main => Ok(if escaped {
            0
        } else {
            region_value(level, &horse)
        }),
        Variant::CostlyWalls if escaped => Err("the horse escapes".into()),
        Variant::CostlyWalls => Ok(region_value(level, &horse) - WALL_COST * walls.len() as i32),
        Variant::Lovebirds | Variant::Quarrel => {
            let u = level.unicorn().ok_or("no unicorn on the map")?;
            if escaped {
                return Err("the horse escapes".into());
            }
            let together = horse.contains(&u);
            if level.variant == Variant::Lovebirds {
                return if together {
                    Ok(region_value(level, &horse))
                } else {
                    Err("the unicorn is not in the horse's pen".into())
                };
            }
            if together {
                return Err("horse and unicorn share a pen".into());
            }
            let (unicorn, u_escaped) = flood(level, &wall, u);
            if u_escaped {
                return Err("the unicorn escapes".into());
            }
            Ok(region_value(level, &horse) + region_value(level, &unicorn))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::enclose::format::parse;

    #[test]
    fn seed_example_day9_optimum() {
        // Day 9 (seed 001): the 12 walls of the published optimal drawing score 66.
        let map = "budget: 12\n~~..~~~.~~~~\n~C.C.......~\n..C......~..\n.C.C~~..~~.~\n~.~.~~.....~\n~..........~\n....~.~~...~\n~...~~H~....\n~...........\n~.....~~...~\n..~~..~~C.C~\n~.~......C.~\n~.......C.C~\n~.~~.~.~...~\n";
        let level = parse(map, "day9", None).unwrap();
        let walls = [
            [0, 3],
            [0, 7],
            [1, 2],
            [2, 3],
            [2, 11],
            [5, 3],
            [7, 11],
            [8, 5],
            [8, 11],
            [11, 8],
            [12, 9],
            [13, 10],
        ];
        assert_eq!(score(&level, &walls), Ok(66));
        assert_eq!(
            score(&level, &walls[1..]),
            Ok(0),
            "one wall short: the horse escapes"
        );
        assert!(score(&level, &[[1, 1]]).is_err(), "no wall on a cherry");
    }

    #[test]
    fn variants() {
        let text = "budget: 4\nvariant: quarrel\n~~~~~~\n~H.U.~\n~~~~~~\n";
        let quarrel = parse(text, "t", None).unwrap();
        assert_eq!(score(&quarrel, &[[1, 2]]), Ok(1 + 2));
        assert!(score(&quarrel, &[]).is_err());
        let love = parse(text, "t", Some(Variant::Lovebirds)).unwrap();
        assert_eq!(score(&love, &[]), Ok(4));
        assert!(score(&love, &[[1, 2]]).is_err());
        let costly = parse(
            "budget: 2\n~~~~\n~H.~\n~.~~\n",
            "t",
            Some(Variant::CostlyWalls),
        )
        .unwrap();
        assert_eq!(score(&costly, &[[2, 1]]), Ok(2 - 6));
        assert!(score(&costly, &[]).is_err());
        let bees = parse("budget: 1\n~~~~\n~HS~\n~G~~\n~.~~\n", "t", None).unwrap();
        assert_eq!(score(&bees, &[[3, 1]]), Ok(1 - 4 + 11));
    }
}
