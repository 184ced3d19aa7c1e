//! What each corpus screenshot shows, from `loop/screenshots/index.jsonl`, and each of the
//! project's own captures, from `fixtures/loop/sizes/index.jsonl` and
//! `fixtures/loop/behaviour/index.jsonl`: the truth several modules' tests read against.

use crate::games::loopgame::model::Cell;
use image::RgbaImage;
use serde_json::Value;
use std::path::Path;

/// One corpus screenshot and what it shows, from `loop/screenshots/index.jsonl`.
pub(in crate::games::loopgame) struct Shot {
    pub(in crate::games::loopgame) file: String,
    pub(in crate::games::loopgame) img: RgbaImage,
    pub(in crate::games::loopgame) state: String,
    pub(in crate::games::loopgame) theme: String,
    pub(in crate::games::loopgame) size: usize,
    pub(in crate::games::loopgame) hints: Vec<String>,
    pub(in crate::games::loopgame) path: Vec<Cell>,
    pub(in crate::games::loopgame) board: [f64; 4],
    /// The app's Behaviour setting: "countdown" (the default, and where the index names
    /// none), "total" or "both".
    pub(in crate::games::loopgame) behaviour: String,
    /// Numbers the drawn path has counted below zero.
    pub(in crate::games::loopgame) below_zero: Vec<Cell>,
}

pub(in crate::games::loopgame) fn shots() -> Option<Vec<Shot>> {
    let index = crate::corpus::path("loop/screenshots/index.jsonl")?;
    // The corpus's index names its files from the game's folder.
    Some(read_index(&index, index.parent()?.parent()?))
}

/// The project's own captures of the app (`fixtures/loop/sizes`), named from their folder.
pub(in crate::games::loopgame) fn fixture_shots() -> Vec<Shot> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/loop/sizes");
    read_index(&dir.join("index.jsonl"), &dir)
}

/// The project's captures of the app's Behaviour settings other than the default
/// (`fixtures/loop/behaviour`).
pub(in crate::games::loopgame) fn behaviour_shots() -> Vec<Shot> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/loop/behaviour");
    read_index(&dir.join("index.jsonl"), &dir)
}

fn cells(v: &Value) -> Vec<Cell> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|c| {
                    [
                        c[0].as_u64().unwrap() as usize,
                        c[1].as_u64().unwrap() as usize,
                    ]
                })
                .collect()
        })
        .unwrap_or_default()
}

fn read_index(index: &Path, dir: &Path) -> Vec<Shot> {
    let mut out = Vec::new();
    for line in std::fs::read_to_string(index).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let file = v["file"].as_str().unwrap().to_string();
        let r = &v["board_css_rect"];
        out.push(Shot {
            img: image::open(dir.join(&file)).unwrap().to_rgba8(),
            file,
            state: v["state"].as_str().unwrap().to_string(),
            theme: v["theme"].as_str().unwrap().to_string(),
            size: v["size"].as_u64().unwrap() as usize,
            hints: v["hints"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect(),
            path: cells(&v["drawn_path"]),
            board: ["x", "y", "w", "h"].map(|k| r[k].as_f64().unwrap()),
            behaviour: v["behaviour"].as_str().unwrap_or("countdown").to_string(),
            below_zero: cells(&v["below_zero"]),
        });
    }
    out
}
