//! Learning the page's sprite silhouettes from pictures whose maps are known, for
//! `autoplayer calibrate enclose`: every tile the map names a sprite (horse, fruit, bees,
//! unicorn, portal) gives a silhouette cut as the reader cuts it, and silhouettes alike enough
//! are averaged into one template. A sprite the embedded set lacks (the golden apple, the
//! unicorn) is read from then on wherever a picture showed it.

use super::tiles::{self, Sprite, SUB};
use super::{find_board, fitted, Board, Edge};
use crate::calibration::{Profile, Samples};
use crate::error::{Error, Result};
use crate::vision::glyph::{Glyph, Likeness};
use image::RgbaImage;

/// Two silhouettes of one sprite at least this alike are one look of it; below, another
/// frame of its animation or another theme's drawing.
const SAME_LOOK: f64 = 0.8;

/// A profile of the sprites in `samples`: each a picture's name, the picture, and its map's
/// rows (`.` `~` `H` `C` `G` `S` `U` `W` and portal characters).
pub fn learn(samples: &[(String, RgbaImage, Vec<String>)]) -> Result<Profile> {
    let mut out = Samples::default();
    for (name, img, map) in samples {
        let named = |e: Error| Error::Usage(format!("{name}: {e}"));
        let board = locate(img, map).map_err(named)?;
        let cols = board.cols();
        let all: Vec<tiles::Tile> = (0..board.rows() * cols)
            .map(|k| tiles::sample(img, &board, k / cols, k % cols))
            .collect();
        let grass = tiles::grass_of(&all);
        let mut took = false;
        for (r, row) in map.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let Some(sprite) = Sprite::of_tile(ch) else {
                    continue;
                };
                // A wall below overhangs the sprite's lower half, and a pen's wheat is not its
                // background: neither shows the whole silhouette on grass.
                let under_wall = map
                    .get(r + 1)
                    .is_some_and(|below| below.chars().nth(c) == Some('W'));
                let t = &all[r * cols + c];
                if under_wall || tiles::on_wheat(t) {
                    continue;
                }
                let mask = tiles::silhouette(t, grass, false);
                if mask.iter().filter(|&&on| on).count() < 6 {
                    return Err(Error::Usage(format!(
                        "{name}: tile row {r} col {c}: the map has a {} there, the picture shows bare ground",
                        sprite.label()
                    )));
                }
                let seen = Glyph::from_mask(SUB, SUB, &mask);
                out.add_look(sprite.label(), seen, |a, b| {
                    Likeness::InnerOverlap { rows: SUB }.score(a, b) >= SAME_LOOK
                });
                took = true;
            }
        }
        if took {
            out.used(name);
        }
    }
    out.into_profile("enclose", "page")
}

/// The board as the reader finds it, grown to the map's size where a row or column of water
/// along an edge hid its outer line; any other difference in size is an error.
fn locate(img: &RgbaImage, map: &[String]) -> Result<Board> {
    let board = fitted(img, find_board(img)?);
    let rows = map.len();
    let cols = map.first().map_or(0, |r| r.chars().count());
    let fits = |b: &Board| b.rows() == rows && b.cols() == cols;
    if fits(&board) {
        return Ok(board);
    }
    Edge::ALL
        .iter()
        .filter(|&&edge| water_along(map, edge))
        .filter_map(|&edge| board.beyond(edge, img).map(|(b, _)| b))
        .find(fits)
        .ok_or_else(|| {
            Error::vision(
                Some(board.region()),
                format!(
                    "the picture shows a {}×{} board, the map is {rows}×{cols}",
                    board.rows(),
                    board.cols()
                ),
            )
        })
}

/// Whether the map's outermost row or column on `edge` is water, two tiles in three at least.
fn water_along(map: &[String], edge: Edge) -> bool {
    let line: Vec<char> = match edge {
        Edge::Top => map.first().map_or(vec![], |r| r.chars().collect()),
        Edge::Bottom => map.last().map_or(vec![], |r| r.chars().collect()),
        Edge::Left => map.iter().filter_map(|r| r.chars().next()).collect(),
        Edge::Right => map.iter().filter_map(|r| r.chars().last()).collect(),
    };
    !line.is_empty() && line.iter().filter(|&&c| c == '~').count() * 3 >= line.len() * 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(rows: &[&str]) -> Vec<String> {
        rows.iter().map(|r| r.to_string()).collect()
    }

    #[test]
    fn an_edge_of_water_is_told_from_one_of_land() {
        let m = map(&["~~~~", "~.H.", "~...", "~~.~"]);
        assert!(water_along(&m, Edge::Top));
        assert!(water_along(&m, Edge::Left));
        assert!(water_along(&m, Edge::Bottom));
        assert!(!water_along(&m, Edge::Right));
        assert!(!water_along(&[], Edge::Top));
    }

    /// Each picture with a known map that `calibration/make.sh` learns from, in its order.
    fn make_sh_pictures() -> Option<Vec<(String, RgbaImage, Vec<String>)>> {
        let corpus = crate::corpus::path("enclose")?;
        let rows = |v: &serde_json::Value| -> Option<Vec<String>> {
            Some(
                v.as_array()?
                    .iter()
                    .map(|r| r.as_str().unwrap_or_default().to_string())
                    .collect(),
            )
        };
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/enclose");
        let mut out = Vec::new();
        for (dir, map_of) in [
            (
                corpus.join("screenshots"),
                (|v: &serde_json::Value| v.get("map_rows").cloned())
                    as fn(&serde_json::Value) -> Option<serde_json::Value>,
            ),
            (corpus.join("app-screens"), |v| {
                (v["state"] == "fresh").then(|| v["level"]["map_rows"].clone())
            }),
            (fixtures.join("page"), |v| v.get("map_rows").cloned()),
        ] {
            let index = std::fs::read_to_string(dir.join("index.jsonl")).unwrap();
            for line in index.lines() {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                let Some(map) = map_of(&v).as_ref().and_then(rows) else {
                    continue;
                };
                let file = v["file"].as_str().unwrap();
                let img = crate::screen::read_picture(&dir.join(file)).unwrap();
                out.push((file.to_string(), img, map));
            }
        }
        Some(out)
    }

    /// `autoplayer calibrate enclose` over the pictures `calibration/make.sh` names makes
    /// exactly the embedded sprites.
    #[test]
    fn the_shipped_sprites_are_what_calibrate_learns() {
        let Some(pictures) = make_sh_pictures() else {
            return;
        };
        let learned = learn(&pictures).unwrap();
        let shipped = crate::vision::glyph::TemplateSet::from_json(include_str!(
            "../../../../calibration/enclose/sprites.json"
        ))
        .unwrap();
        assert_eq!(learned.glyphs(), shipped.glyphs());
    }

    #[test]
    fn learning_from_the_page_reads_its_sprites_back() {
        let Some(p) =
            crate::corpus::path("enclose/app-screens/enclose_day9_default_1280x900_fresh.png")
        else {
            return;
        };
        let img = crate::screen::read_picture(&p).unwrap();
        let truth = super::super::recognize(&img, &Default::default()).unwrap();
        let profile = learn(&[("day9".into(), img.clone(), truth.rows.clone())]).unwrap();
        let labels: Vec<&str> = profile
            .set
            .templates
            .iter()
            .map(|t| t.label.as_str())
            .collect();
        assert!(labels.contains(&"horse") && labels.contains(&"cherry"));
        assert_eq!(profile.made_from, vec!["day9".to_string()]);
        let opts = super::super::ReadOptions {
            profile: Some(std::sync::Arc::new(profile)),
            ..Default::default()
        };
        assert_eq!(
            super::super::recognize(&img, &opts).unwrap().rows,
            truth.rows
        );

        // A map that puts a horse where the picture shows grass is refused, naming the tile.
        let mut wrong = truth.rows.clone();
        let (r, c) = wrong
            .iter()
            .enumerate()
            .find_map(|(r, row)| row.find('.').map(|c| (r, c)))
            .unwrap();
        wrong[r].replace_range(c..c + 1, "H");
        let e = learn(&[("day9".into(), img, wrong)])
            .unwrap_err()
            .to_string();
        assert!(e.contains(&format!("tile row {r} col {c}")), "{e}");
    }
}
