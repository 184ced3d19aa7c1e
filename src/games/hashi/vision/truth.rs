//! What each corpus picture and each capture kept with the calibration shows, from their
//! recorded answers: the truth several modules' tests read against.

use super::Reading;
use crate::games::hashi::model::{Bridge, Bridges, Cell, Island};
use image::{Rgba, RgbaImage};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The islands and bridges a corpus picture shows, from its recorded answers.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Truth {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) islands: Vec<Island>,
    pub(super) bridges: Bridges,
}

/// Islands from a row-major run-length description: a digit (or `A`.. above 9) is an
/// island, a lower-case letter skips 1..26 cells. Bridges' IDs and the web `TR1:` codes share it.
fn islands_from_rle(desc: &str, width: usize) -> Vec<Island> {
    let mut pos = 0;
    let mut out = Vec::new();
    for ch in desc.chars() {
        match ch {
            'a'..='z' => pos += ch as usize - 'a' as usize + 1,
            _ => {
                let target = match ch {
                    '0'..='9' => ch as u8 - b'0',
                    'A'..='Z' => ch as u8 - b'A' + 10,
                    _ => panic!("bad description character {ch:?}"),
                };
                out.push(Island {
                    at: Cell {
                        row: pos / width,
                        col: pos % width,
                    },
                    target,
                });
                pos += 1;
            }
        }
    }
    out
}

/// `WxHm<max>[L]:<desc>`.
fn sgt_game(id: &str) -> (usize, usize, Vec<Island>) {
    let (params, desc) = id.split_once(':').unwrap();
    let (w, rest) = params.split_once('x').unwrap();
    let h: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let w: usize = w.parse().unwrap();
    (w, h.parse().unwrap(), islands_from_rle(desc, w))
}

/// `TR1:<w>x<h>:<rle>`, dimensions in base 36.
fn web_game(code: &str) -> (usize, usize, Vec<Island>) {
    let mut parts = code.split(':');
    assert_eq!(parts.next(), Some("TR1"));
    let (w, h) = parts.next().unwrap().split_once('x').unwrap();
    let w = usize::from_str_radix(w, 36).unwrap();
    let h = usize::from_str_radix(h, 36).unwrap();
    (w, h, islands_from_rle(parts.next().unwrap(), w))
}

fn cell(x: usize, y: usize) -> Cell {
    Cell { row: y, col: x }
}

/// The bridges a save file shows: its `L x1,y1,x2,y2,n` moves (plain MOVE entries and
/// the entries of a SOLVE), applied in order.
fn sav_bridges(sav: &str) -> Bridges {
    let mut set: BTreeMap<(Cell, Cell), u8> = BTreeMap::new();
    for line in sav.lines() {
        let Some((key, rest)) = line.split_once(':') else {
            continue;
        };
        let key = key.trim();
        if key != "MOVE" && key != "SOLVE" {
            continue;
        }
        let body = rest.split_once(':').unwrap().1;
        for entry in body.split(';') {
            let Some(l) = entry.strip_prefix('L') else {
                continue;
            };
            let v: Vec<usize> = l.split(',').map(|s| s.parse().unwrap()).collect();
            let b = Bridge::new(cell(v[0], v[1]), cell(v[2], v[3]), 0);
            set.insert((b.a, b.b), v[4] as u8);
        }
    }
    set.into_iter()
        .filter(|&(_, n)| n > 0)
        .map(|((a, b), n)| Bridge { a, b, count: n })
        .collect()
}

pub(super) fn index(rel: &str) -> Option<(PathBuf, Vec<Value>)> {
    let path = crate::corpus::path(rel)?;
    let lines = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    Some((path.parent().unwrap().to_path_buf(), lines))
}

pub(super) fn load(dir: &Path, file: &str) -> RgbaImage {
    image::open(dir.join(file)).unwrap().to_rgba8()
}

/// Every corpus picture with the truth it shows.
pub(super) fn corpus() -> Option<Vec<(String, RgbaImage, Truth)>> {
    let mut out = Vec::new();
    let (dir, shots) = index("hashi/screenshots/index.jsonl")?;
    for s in shots {
        let file = s["file"].as_str().unwrap();
        let (width, height, islands) = sgt_game(s["game_id"].as_str().unwrap());
        let sav = std::fs::read_to_string(dir.join(s["save_file"].as_str().unwrap())).unwrap();
        let truth = Truth {
            width,
            height,
            islands,
            bridges: sav_bridges(&sav),
        };
        out.push((file.to_string(), load(&dir, file), truth));
    }
    let (dir, screens) = index("hashi/app-screens/index.jsonl")?;
    for s in screens {
        let file = s["file"].as_str().unwrap();
        let mut counts: BTreeMap<(Cell, Cell), u8> = BTreeMap::new();
        let (width, height, islands) = if let Some(id) = s["game_id"].as_str() {
            // Each drag between two islands adds one bridge.
            for d in s["mouse_drags_row_col"].as_array().unwrap() {
                let p = |k: usize| Cell {
                    row: d[k][0].as_u64().unwrap() as usize,
                    col: d[k][1].as_u64().unwrap() as usize,
                };
                let b = Bridge::new(p(0), p(1), 0);
                *counts.entry((b.a, b.b)).or_default() += 1;
            }
            sgt_game(id)
        } else {
            let (w, h, islands) = web_game(s["tr1_code"].as_str().unwrap());
            // Ids are the islands in page order (row-major); a click pair cycles 0→1→2→0.
            for pair in s["bridge_clicks_island_ids"].as_array().unwrap() {
                let id = |k: usize| islands[pair[k].as_u64().unwrap() as usize].at;
                let b = Bridge::new(id(0), id(1), 0);
                let n = counts.entry((b.a, b.b)).or_default();
                *n = (*n + 1) % 3;
            }
            (w, h, islands)
        };
        let bridges = counts
            .into_iter()
            .filter(|&(_, n)| n > 0)
            .map(|((a, b), count)| Bridge { a, b, count })
            .collect();
        let truth = Truth {
            width,
            height,
            islands,
            bridges,
        };
        out.push((file.to_string(), load(&dir, file), truth));
    }
    Some(out)
}

/// Bridges captures kept with the calibration (islands above 9, which the shared corpus
/// lacks), named `bridges_<W>x<H>m<max>_<desc>_ts<size>.png`; no bridges drawn.
pub(super) fn own_captures() -> Vec<(String, RgbaImage, Truth)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration/hashi/captures");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let parts: Vec<&str> = name.split('_').collect();
        let (width, height, islands) = sgt_game(&format!("{}:{}", parts[1], parts[2]));
        let truth = Truth {
            width,
            height,
            islands,
            bridges: Vec::new(),
        };
        out.push((name, image::open(&path).unwrap().to_rgba8(), truth));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

pub(super) fn seen(r: &Reading) -> Truth {
    Truth {
        width: r.puzzle.cols,
        height: r.puzzle.rows,
        islands: r.puzzle.islands.clone(),
        bridges: r.bridges.clone(),
    }
}

/// A window capture pasted into a full-screen frame at an offset.
pub(super) fn in_frame(window: &RgbaImage, at: (u32, u32)) -> RgbaImage {
    let mut frame = RgbaImage::from_pixel(1920, 1080, Rgba([46, 52, 64, 255]));
    image::imageops::replace(&mut frame, window, at.0 as i64, at.1 as i64);
    frame
}
