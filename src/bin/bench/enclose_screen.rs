//! enclose.horse screen bars: every capture with a known map read exactly (every tile, and the
//! budget where the page shows its counter), and the time one reading takes.

use super::report::portal_pairs;
use autoplayer::games::enclose::vision::{read_after_play, recognize, ReadOptions, ShownScore};
use autoplayer::vision::geometry::Geometry;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Instant;

struct Known {
    file: PathBuf,
    rows: Vec<String>,
    /// The budget the page's counter should show, for the game's own page captures.
    budget: Option<u64>,
}

fn rows_of(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|r| r.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Captures whose map the corpus names: real screenshots (map in their index, or by level id in
/// `levels.jsonl`) and the game's page run locally.
fn known(corpus: &Path) -> anyhow::Result<(Vec<Known>, usize)> {
    let levels = std::fs::read_to_string(corpus.join("enclose/levels.jsonl"))?;
    let by_id = |id: &str| {
        levels
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|v| v["id"] == id)
            .and_then(|v| {
                v["map"]
                    .as_str()
                    .map(|m| m.lines().map(str::to_string).collect())
            })
    };
    let mut out = Vec::new();
    let mut unknown = 0;
    let shots = corpus.join("enclose/screenshots");
    for line in std::fs::read_to_string(shots.join("index.jsonl"))?.lines() {
        let v: Value = serde_json::from_str(line)?;
        let mut rows = rows_of(&v["map_rows"]);
        if rows.is_empty() {
            rows = v["game_id"].as_str().and_then(by_id).unwrap_or_default();
        }
        if rows.is_empty() {
            unknown += 1;
            continue;
        }
        out.push(Known {
            file: shots.join(v["file"].as_str().unwrap_or_default()),
            rows,
            budget: None,
        });
    }
    let pages = corpus.join("enclose/app-screens");
    for line in std::fs::read_to_string(pages.join("index.jsonl"))?.lines() {
        let v: Value = serde_json::from_str(line)?;
        let mut rows = rows_of(&v["level"]["map_rows"]);
        // Walls placed on the page are part of what must be read.
        if let Some(walls) = v["walls_placed_row_col"].as_array() {
            for w in walls {
                let (r, c) = (
                    w[0].as_u64().unwrap_or(0) as usize,
                    w[1].as_u64().unwrap_or(0) as usize,
                );
                if let Some(row) = rows.get_mut(r) {
                    row.replace_range(c..c + 1, "W");
                }
            }
        }
        out.push(Known {
            file: pages.join(v["file"].as_str().unwrap_or_default()),
            rows,
            budget: v["level"]["budget"].as_u64(),
        });
    }
    Ok((out, unknown))
}

pub fn run(corpus: &Path) -> anyhow::Result<String> {
    let (captures, unknown) = known(corpus)?;
    let mut times = Vec::new();
    let mut wrong = Vec::new();
    for k in &captures {
        let img = image::open(&k.file)?.to_rgba8();
        let mut best = f64::MAX;
        let mut reading = None;
        for _ in 0..5 {
            let t = Instant::now();
            let r = recognize(&img, &ReadOptions::default());
            best = best.min(t.elapsed().as_secs_f64() * 1000.0);
            reading = Some(r);
        }
        times.push(best);
        let name = k.file.file_name().unwrap_or_default().to_string_lossy();
        match reading.expect("read five times") {
            Err(e) => wrong.push(format!("{name}: not read: {e}")),
            Ok(r) => {
                if portal_pairs(&r.rows) != portal_pairs(&k.rows) {
                    wrong.push(format!("{name}: tiles differ"));
                }
                if k.budget.is_some() && r.budget.map(u64::from) != k.budget {
                    wrong.push(format!(
                        "{name}: budget read {:?}, page shows {:?}",
                        r.budget, k.budget
                    ));
                }
            }
        }
    }
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let max = times.last().copied().unwrap_or(0.0);
    let mut s = String::from("## enclose.horse on screen\n\n");
    s.push_str("| what | measured | bar |\n|---|---|---|\n");
    s.push_str(&format!(
        "| captures with a known map read exactly (every tile, portals by their pairs; the budget where the page shows it) | {}/{} | all |\n",
        captures.len() - wrong.len().min(captures.len()),
        captures.len()
    ));
    s.push_str(&format!(
        "| time per reading (best of 5 per capture; 778×777 to 2302×1162 px) | median {median:.1} ms, max {max:.1} ms | ≤ 50 ms |\n"
    ));
    s.push_str(&here()?);
    s.push_str(&format!(
        "\n{unknown} screenshots of hand-made levels without a published map were not scored.\n"
    ));
    for w in &wrong {
        s.push_str(&format!("\n* {w}"));
    }
    print!("{s}");
    Ok(s)
}

fn best_of_5<T>(f: impl Fn() -> T) -> (T, f64) {
    let mut best = f64::MAX;
    let mut out = None;
    for _ in 0..5 {
        let t = Instant::now();
        out = Some(f());
        best = best.min(t.elapsed().as_secs_f64() * 1000.0);
    }
    (out.expect("ran five times"), best)
}

fn lines(path: &Path) -> anyhow::Result<Vec<Value>> {
    std::fs::read_to_string(path)?
        .lines()
        .map(|l| Ok(serde_json::from_str(l)?))
        .collect()
}

/// The project's own captures of the game's page (fixtures): fresh boards, and the page after
/// play in every theme, where the walls and the score are what verification reads.
fn here() -> anyhow::Result<String> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/enclose");
    let (mut ok, mut n, mut worst) = (0, 0, 0.0f64);
    for v in lines(&fixtures.join("page/index.jsonl"))? {
        let img =
            image::open(fixtures.join("page").join(v["file"].as_str().unwrap_or("")))?.to_rgba8();
        let (r, ms) = best_of_5(|| recognize(&img, &ReadOptions::default()));
        n += 1;
        worst = worst.max(ms);
        let want: Vec<String> = rows_of(&v["map_rows"]);
        if r.is_ok_and(|r| {
            portal_pairs(&r.rows) == portal_pairs(&want)
                && r.budget.map(u64::from) == v["budget"].as_u64()
        }) {
            ok += 1;
        }
    }
    let mut s = format!(
        "| fresh boards captured here on the game's page copy (fixtures/enclose/page: a water edge row, an \"11/11\" counter) read exactly, budget included | {ok}/{n}, max {worst:.1} ms | all, ≤ 50 ms |\n"
    );
    let (mut ok, mut n, mut worst) = (0, 0, 0.0f64);
    let mut themes = std::collections::BTreeSet::new();
    for v in lines(&fixtures.join("after_play/index.jsonl"))? {
        let img = image::open(
            fixtures
                .join("after_play")
                .join(v["file"].as_str().unwrap_or("")),
        )?
        .to_rgba8();
        let geometry: Geometry = serde_json::from_value(v["geometry"].clone())?;
        let (rows, cols) = (
            v["rows"].as_u64().unwrap_or(0) as usize,
            v["cols"].as_u64().unwrap_or(0) as usize,
        );
        let (seen, ms) = best_of_5(|| read_after_play(&img, &geometry, rows, cols));
        n += 1;
        worst = worst.max(ms);
        let walls: Vec<[usize; 2]> = seen.walls.iter().copied().collect();
        let want: Vec<[usize; 2]> = v["walls"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|w| [0, 1].map(|k| w[k].as_u64().unwrap_or(0) as usize))
                    .collect()
            })
            .unwrap_or_default();
        let score = v["score"].as_i64().map(|x| ShownScore::Value(x as i32));
        if walls == want && seen.score_shown == score {
            ok += 1;
            themes.insert(v["theme"].as_str().unwrap_or("").to_string());
        }
    }
    s.push_str(&format!(
        "| the page after play, pen drawn, in the themes {} (fixtures/enclose/after_play): every wall and the page's score read | {ok}/{n}, max {worst:.1} ms | all |\n",
        themes.into_iter().collect::<Vec<_>>().join(", ")
    ));
    Ok(s)
}
