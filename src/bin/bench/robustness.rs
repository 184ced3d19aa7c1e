//! Robustness of reading: every corpus screenshot (and the project's own captures with known
//! truth) read again after the bench itself rescales, recompresses, recolours or crops it.
//! A variant is **right** when it reads as the same puzzle as the truth (or, where the corpus
//! gives none, as the untouched picture reads) with the same drawn state, **refused** when the
//! reader returns an error, and **wrong** otherwise. The bar is no wrong reading at all.
//!
//! A game joins with one [`Source`] line per folder: where its pictures are, how its index
//! names a picture's truth, and a `read` that reduces its reader's output to a [`Key`].

use super::report::{flow_letters, portal_pairs};
use autoplayer::games::{enclose, flow, hashi, loopgame};
use autoplayer::rect::Rect;
use image::imageops::FilterType;
use image::{Rgba, RgbaImage};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What a reading is compared on: the puzzle's rows (the givens) and everything else the
/// reader saw that play depends on (bridges or paths drawn, walls, counters), as text.
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    pub rows: Vec<String>,
    pub state: String,
    /// The board in image pixels, for the crop variant.
    pub board: Rect<f64>,
    /// Pixels per cell as read, for the sizes a reader reads and refuses.
    pub pitch: f64,
    /// What a reader may see or miss without harm (the score line enclose.horse checks only
    /// after play, and only when read): compared only when both readings have it.
    pub score: Option<String>,
    /// Why `scan` would still refuse the reading, when it would: a variant that loses what
    /// the untouched picture showed is refused, not wrong.
    pub lost: Option<String>,
    /// What a counter on the page says (enclose.horse: the wall budget and the walls placed),
    /// apart from `state` so that the truth index can stand in for one the untouched picture
    /// does not read: a copy that reads the true counter is then right, not "different".
    pub counter: Option<String>,
}

/// What a picture's index line says it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Truth {
    pub rows: Vec<String>,
    /// The counter, in `Key::counter`'s words, where the index gives it.
    pub counter: Option<String>,
}

impl Truth {
    fn rows(rows: Vec<String>) -> Truth {
        Truth {
            rows,
            counter: None,
        }
    }
}

impl Key {
    fn panicked() -> Key {
        Key {
            rows: vec!["the reader panicked".into()],
            state: String::new(),
            board: Rect::new(0.0, 0.0, 0.0, 0.0),
            pitch: 0.0,
            score: None,
            lost: None,
            counter: None,
        }
    }
}

/// A folder of pictures of one game.
#[derive(Clone, Copy)]
pub struct Source {
    pub game: &'static str,
    /// Inside the corpus, or (starting with `fixtures/`) inside the project.
    pub folder: &'static str,
    /// The rows the picture's index line says it shows; `None` where it gives none.
    pub truth: fn(&Value, &Path) -> Option<Truth>,
    pub read: fn(&RgbaImage) -> Result<Key, String>,
}

/// Every folder read: a new game adds its lines here.
pub const SOURCES: &[Source] = &[
    Source {
        game: "hashi",
        folder: "hashi/screenshots",
        truth: hashi_truth,
        read: hashi_read,
    },
    Source {
        game: "hashi",
        folder: "hashi/app-screens",
        truth: hashi_truth,
        read: hashi_read,
    },
    Source {
        game: "hashi",
        folder: "fixtures/hashi",
        truth: no_truth,
        read: hashi_read,
    },
    Source {
        game: "hashi",
        folder: "fixtures/hashi/sizes",
        truth: hashi_truth,
        read: hashi_read,
    },
    Source {
        game: "enclose",
        folder: "enclose/screenshots",
        truth: enclose_truth,
        read: enclose_read,
    },
    Source {
        game: "enclose",
        folder: "enclose/app-screens",
        truth: enclose_truth,
        read: enclose_read,
    },
    Source {
        game: "enclose",
        folder: "fixtures/enclose/page",
        truth: enclose_truth,
        read: enclose_read,
    },
    Source {
        game: "enclose",
        folder: "fixtures/enclose/sizes",
        truth: enclose_truth,
        read: enclose_read,
    },
    Source {
        game: "enclose",
        folder: "fixtures/enclose/scaled",
        truth: enclose_truth,
        read: enclose_read,
    },
    Source {
        game: "loop",
        folder: "loop/screenshots",
        truth: loop_truth,
        read: loop_read,
    },
    Source {
        game: "loop",
        folder: "fixtures/loop/sizes",
        truth: loop_truth,
        read: loop_read,
    },
    Source {
        game: "loop",
        folder: "fixtures/loop/behaviour",
        truth: loop_truth,
        read: loop_read,
    },
    Source {
        game: "flow",
        folder: "flow/screenshots",
        truth: flow_truth,
        read: flow_read,
    },
    Source {
        game: "flow",
        folder: "fixtures/flow/clone",
        truth: flow_truth,
        read: flow_read,
    },
    Source {
        game: "flow",
        folder: "fixtures/flow/sizes",
        truth: flow_truth,
        read: flow_read,
    },
];

fn flow_truth(v: &Value, corpus: &Path) -> Option<Truth> {
    strings(&v["grid"])
        .or_else(|| strings(&v["rows"]))
        .or_else(|| {
            // The hex screenshot's puzzle is a file beside the screenshots.
            let file = corpus.join("flow").join(v["source_puzzle_file"].as_str()?);
            flow::vision::truth::rows_from_file(&file)
        })
        .map(|r| Truth::rows(flow_letters(&r)))
}

fn flow_read(img: &RgbaImage) -> Result<Key, String> {
    let r = flow::vision::read(img).map_err(|e| e.to_string())?;
    let p = &r.puzzle;
    let pipes: Vec<Vec<[usize; 2]>> = r
        .drawn
        .iter()
        .map(|d| {
            d.cells
                .iter()
                .map(|&k| [p.cells[k].row, p.cells[k].col])
                .collect()
        })
        .collect();
    Ok(Key {
        rows: r.rows(),
        state: format!("{pipes:?}"),
        board: r.geometry.board,
        pitch: r.geometry.pitch(),
        score: None,
        lost: None,
        counter: None,
    })
}

pub fn no_truth(_: &Value, _: &Path) -> Option<Truth> {
    None
}

fn strings(v: &Value) -> Option<Vec<String>> {
    let rows: Vec<String> = v
        .as_array()?
        .iter()
        .filter_map(|r| r.as_str().map(str::to_string))
        .collect();
    (!rows.is_empty()).then_some(rows)
}

fn hashi_truth(v: &Value, _: &Path) -> Option<Truth> {
    let id = v["game_id"].as_str().or(v["tr1_code"].as_str())?;
    hashi::format::parse(id, "index")
        .ok()
        .map(|p| Truth::rows(p.rows()))
}

fn hashi_read(img: &RgbaImage) -> Result<Key, String> {
    let r = hashi::vision::recognize(img).map_err(|e| e.to_string())?;
    Ok(Key {
        rows: r.puzzle.rows(),
        state: format!("{:?}", r.bridges),
        board: r.geometry.board,
        pitch: r.geometry.pitch(),
        score: None,
        lost: None,
        counter: None,
    })
}

fn loop_truth(v: &Value, _: &Path) -> Option<Truth> {
    strings(&v["hints"]).map(Truth::rows)
}

fn loop_read(img: &RgbaImage) -> Result<Key, String> {
    let r = loopgame::vision::recognize(img).map_err(|e| e.to_string())?;
    // A picture does not show which end a stroke began at: compare the path either way round.
    let mut path = r.path.clone();
    let mut back = path.clone();
    back.reverse();
    if back < path {
        path = back;
    }
    Ok(Key {
        rows: r.puzzle.rows(),
        state: format!("path {path:?} closed {}", r.closed),
        board: r.geometry.board,
        pitch: r.geometry.pitch(),
        score: None,
        lost: None,
        counter: None,
    })
}

/// The map with the walls the page showed, from the index line itself, or by level id from
/// `levels.jsonl`; and the counter where the index gives the budget: the walls placed are the
/// walls on the board (no level here has walls of its own).
fn enclose_truth(v: &Value, corpus: &Path) -> Option<Truth> {
    let mut rows = strings(&v["map_rows"]).or_else(|| strings(&v["level"]["map_rows"]));
    if rows.is_none() {
        let id = v["game_id"].as_str()?;
        let levels = std::fs::read_to_string(corpus.join("enclose/levels.jsonl")).ok()?;
        rows = levels
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|l| l["id"] == id)
            .and_then(|l| {
                l["map"]
                    .as_str()
                    .map(|m| m.lines().map(str::to_string).collect())
            });
    }
    let mut rows = rows?;
    for w in v["walls_placed_row_col"].as_array().into_iter().flatten() {
        let (r, c) = (w[0].as_u64()? as usize, w[1].as_u64()? as usize);
        rows.get_mut(r)?.replace_range(c..c + 1, "W");
    }
    let placed = rows.iter().map(|r| r.matches('W').count() as u32).sum();
    let counter = v["budget"]
        .as_u64()
        .or(v["level"]["budget"].as_u64())
        .map(|b| enclose_counter(b as u32, Some(placed)));
    Some(Truth {
        rows: portal_pairs(&rows),
        counter,
    })
}

fn enclose_counter(budget: u32, placed: Option<u32>) -> String {
    format!("budget {budget} placed {placed:?}")
}

fn enclose_read(img: &RgbaImage) -> Result<Key, String> {
    let r = enclose::vision::recognize(img, &enclose::vision::ReadOptions::default())
        .map_err(|e| e.to_string())?;
    Ok(Key {
        rows: portal_pairs(&r.rows),
        state: format!("pen {}", r.enclosed),
        counter: r.budget.map(|b| enclose_counter(b, r.walls_placed)),
        // `scan enclose` refuses a page whose budget it cannot read (give --budget); a
        // screenshot that never showed the counter is read as it is.
        lost: r
            .budget
            .is_none()
            .then(|| "the wall budget counter is not read".to_string()),
        // The score line is only checked after play, and only when it is read.
        board: r.geometry.board,
        pitch: r.geometry.pitch(),
        score: r.score_shown.map(|s| format!("{s:?}")),
    })
}

/// One way of changing a picture.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Variant {
    Scale(f64),
    Jpeg(u8),
    Hue(f64),
    Crop,
}

const VARIANTS: &[Variant] = &[
    Variant::Scale(0.5),
    Variant::Scale(0.75),
    Variant::Scale(1.25),
    Variant::Scale(1.5),
    Variant::Scale(2.0),
    Variant::Jpeg(20),
    Variant::Hue(30.0),
    Variant::Hue(-30.0),
    Variant::Crop,
];

impl Variant {
    fn name(self) -> String {
        match self {
            Variant::Scale(s) => format!("{s}×"),
            Variant::Jpeg(q) => format!("JPEG q{q}"),
            Variant::Hue(d) => format!("hue {d:+}°"),
            Variant::Crop => "cropped".into(),
        }
    }

    /// Whether the ≥ 95 % bar applies (0.5× is only reported).
    fn has_bar(self) -> bool {
        match self {
            Variant::Scale(s) => s >= 0.75,
            Variant::Jpeg(_) => true,
            _ => false,
        }
    }

    fn apply(self, img: &RgbaImage, board: Rect<f64>) -> anyhow::Result<RgbaImage> {
        Ok(match self {
            Variant::Scale(s) => {
                let w = (img.width() as f64 * s).round() as u32;
                let h = (img.height() as f64 * s).round() as u32;
                image::imageops::resize(img, w, h, FilterType::Lanczos3)
            }
            Variant::Jpeg(q) => jpeg(img, q)?,
            Variant::Hue(d) => hue_rotated(img, d),
            Variant::Crop => cropped(img, board),
        })
    }
}

pub fn jpeg(img: &RgbaImage, quality: u8) -> anyhow::Result<RgbaImage> {
    let rgb = image::DynamicImage::ImageRgba8(img.clone()).to_rgb8();
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality).encode_image(&rgb)?;
    Ok(image::load_from_memory(&bytes)?.to_rgba8())
}

/// Every pixel's hue turned by `degrees`, keeping its value and saturation.
fn hue_rotated(img: &RgbaImage, degrees: f64) -> RgbaImage {
    let mut out = img.clone();
    for p in out.pixels_mut() {
        let [r, g, b, a] = p.0.map(|c| c as f64 / 255.0);
        let max = r.max(g).max(b);
        let min = r.min(g).min(b);
        let chroma = max - min;
        if chroma == 0.0 {
            continue;
        }
        let sector = if max == r {
            ((g - b) / chroma).rem_euclid(6.0)
        } else if max == g {
            (b - r) / chroma + 2.0
        } else {
            (r - g) / chroma + 4.0
        };
        let h = (sector * 60.0 + degrees).rem_euclid(360.0) / 60.0;
        let x = chroma * (1.0 - (h % 2.0 - 1.0).abs());
        let (r1, g1, b1) = match h as u32 {
            0 => (chroma, x, 0.0),
            1 => (x, chroma, 0.0),
            2 => (0.0, chroma, x),
            3 => (0.0, x, chroma),
            4 => (x, 0.0, chroma),
            _ => (chroma, 0.0, x),
        };
        let m = max - chroma;
        let c = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
        *p = Rgba([c(r1), c(g1), c(b1), (a * 255.0).round() as u8]);
    }
    out
}

/// Half of the margin around the board trimmed off every side: the board stays whole, the
/// page or window around it is cut short.
fn cropped(img: &RgbaImage, board: Rect<f64>) -> RgbaImage {
    let (w, h) = (img.width() as f64, img.height() as f64);
    let left = (board.x.max(0.0) / 2.0).floor();
    let top = (board.y.max(0.0) / 2.0).floor();
    let right = ((w - board.x - board.w).max(0.0) / 2.0).floor();
    let bottom = ((h - board.y - board.h).max(0.0) / 2.0).floor();
    image::imageops::crop_imm(
        img,
        left as u32,
        top as u32,
        (w - left - right) as u32,
        (h - top - bottom) as u32,
    )
    .to_image()
}

#[derive(Default)]
struct Cell {
    right: usize,
    refused: usize,
    wrong: usize,
    times: Vec<f64>,
}

/// The pictures of a source with the truth its index gives each.
pub fn pictures(src: &Source, corpus: &Path) -> anyhow::Result<Vec<(PathBuf, Option<Truth>)>> {
    let dir = if src.folder.starts_with("fixtures/") {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(src.folder)
    } else {
        corpus.join(src.folder)
    };
    // A missing folder fails the run rather than scoring nothing.
    if !dir.is_dir() {
        anyhow::bail!("{}: no such folder (set AUTOPLAYER_CORPUS)", dir.display());
    }
    let mut truth = BTreeMap::new();
    if let Ok(index) = std::fs::read_to_string(dir.join("index.jsonl")) {
        for v in index
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        {
            let file = v["file"].as_str().unwrap_or_default();
            // Loop's index names files from the game folder.
            let name = Path::new(file).file_name().unwrap_or_default().to_owned();
            truth.insert(name, (src.truth)(&v, corpus));
        }
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| {
        p.extension()
            .is_some_and(|x| x == "png" || x == "jpg" || x == "webp")
    });
    files.sort();
    Ok(files
        .into_iter()
        .map(|p| {
            let t = p.file_name().and_then(|n| truth.get(n).cloned()).flatten();
            (p, t)
        })
        .collect())
}

pub fn timed(
    read: fn(&RgbaImage) -> Result<Key, String>,
    img: &RgbaImage,
) -> (Result<Key, String>, f64) {
    let t = Instant::now();
    // A reader that panics is a crash of `scan`: it is counted wrong, and the run goes on.
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read(img)))
        .unwrap_or_else(|_| Ok(Key::panicked()));
    (r, t.elapsed().as_secs_f64() * 1000.0)
}

/// What one changed copy's reading came to, against the untouched picture's.
pub enum Verdict {
    Right,
    /// The reader's error, or what it lost that the untouched picture showed.
    Refused(String),
    /// What differs, and both readings.
    Wrong {
        what: &'static str,
        readings: String,
    },
}

/// The key a picture's copies are judged against: the untouched picture's reading, which
/// must show the rows (and the counter, where the index gives them) the index gives; a
/// counter it does not read is taken from the index. The one place both benches judge by.
pub fn reference(original: Result<Key, String>, truth: Option<&Truth>) -> Result<Key, String> {
    let mut k = original.map_err(|e| format!("the picture itself is refused ({e})"))?;
    if let Some(t) = truth {
        let counter_wrong = k.counter.is_some() && t.counter.is_some() && k.counter != t.counter;
        if k.rows != t.rows || counter_wrong {
            return Err("the picture itself reads wrong".into());
        }
        if k.counter.is_none() {
            k.counter = t.counter.clone();
        }
    }
    Ok(k)
}

pub fn judge(reference: &Key, read: Result<Key, String>) -> Verdict {
    match read {
        Err(e) => Verdict::Refused(e),
        Ok(Key { lost: Some(e), .. }) if reference.lost.is_none() => Verdict::Refused(e),
        Ok(r)
            if r.rows == reference.rows
                && r.state == reference.state
                // A counter the copy does not read is lost, as the untouched picture's was.
                && (r.counter.is_none() || r.counter == reference.counter)
                && (r.score.is_none()
                    || reference.score.is_none()
                    || r.score == reference.score) =>
        {
            Verdict::Right
        }
        Ok(r) => {
            let what = if r.rows != reference.rows {
                "the givens differ"
            } else if r.state != reference.state {
                "the drawn state differs"
            } else if r.counter.is_some() && r.counter != reference.counter {
                "the counter differs"
            } else {
                "the score shown differs"
            };
            Verdict::Wrong {
                what,
                readings: format!(
                    "read {:?} / {} / {:?}, want {:?} / {} / {:?}",
                    r.rows, r.state, r.counter, reference.rows, reference.state, reference.counter
                ),
            }
        }
    }
}

pub fn run(corpus: &Path) -> anyhow::Result<String> {
    let only = std::env::var("ROBUSTNESS_ONLY").ok();
    let mut table: BTreeMap<(&str, usize), Cell> = BTreeMap::new();
    let mut games: Vec<&str> = Vec::new();
    let mut wrong = Vec::new();
    let mut left_out = Vec::new();
    let mut refusals: BTreeMap<(&str, usize), Vec<String>> = BTreeMap::new();
    for src in SOURCES {
        if only.as_deref().is_some_and(|g| g != src.game) {
            continue;
        }
        if !games.contains(&src.game) {
            games.push(src.game);
        }
        for (path, truth) in pictures(src, corpus)? {
            let name = format!(
                "{}/{}",
                src.folder,
                path.file_name().unwrap_or_default().to_string_lossy()
            );
            let img = autoplayer::screen::read_picture(&path)?;
            let (original, ms) = timed(src.read, &img);
            let reference = match reference(original, truth.as_ref()) {
                Ok(k) => k,
                Err(why) => {
                    left_out.push(format!("{name}: {why}"));
                    continue;
                }
            };
            let cell = table.entry((src.game, usize::MAX)).or_default();
            cell.right += 1;
            cell.times.push(ms);
            for (k, v) in VARIANTS.iter().enumerate() {
                let changed = v.apply(&img, reference.board)?;
                let (read, ms) = timed(src.read, &changed);
                let cell = table.entry((src.game, k)).or_default();
                cell.times.push(ms);
                match judge(&reference, read) {
                    Verdict::Right => cell.right += 1,
                    Verdict::Refused(e) => {
                        cell.refused += 1;
                        refusals
                            .entry((src.game, k))
                            .or_default()
                            .push(format!("{name}: {e}"));
                    }
                    Verdict::Wrong { what, readings } => {
                        cell.wrong += 1;
                        wrong.push(format!("{name}, {}: {what}", v.name()));
                        eprintln!("WRONG {name} {}: {readings}", v.name());
                    }
                }
            }
        }
    }
    let (machine, load) = crate::report::machine_and_load();
    let mut s = String::from("## Robustness of reading\n\n");
    s.push_str(&format!(
        "Machine: {machine}, load average {load} at the start; release build. Each picture \
         that reads right as it is (the corpus screenshots of each game, and the project's own \
         captures) is changed in memory and read again once: rescaled (Lanczos3), saved as JPEG, \
         its hue turned, or half the margin around the board trimmed. **right**: the same \
         givens as the truth (or the untouched picture's reading where the index gives none) \
         and the same drawn state; **refused**: an error; **wrong**: anything else. Bar: no \
         wrong reading; at least 95 % right at 0.75×–2× and JPEG q20 (0.5× only reported).\n\n"
    ));
    s.push_str("| game | variant | right | refused | wrong | right share | median ms | max ms | bar met |\n|---|---|---|---|---|---|---|---|---|\n");
    let mut variant_rows: Vec<(usize, String, bool)> =
        vec![(usize::MAX, "as captured".into(), false)];
    variant_rows.extend(
        VARIANTS
            .iter()
            .enumerate()
            .map(|(k, v)| (k, v.name(), v.has_bar())),
    );
    for game in &games {
        for (k, label, bar) in &variant_rows {
            let Some(c) = table.get(&(*game, *k)) else {
                continue;
            };
            let n = c.right + c.refused + c.wrong;
            let share = 100.0 * c.right as f64 / n.max(1) as f64;
            let t = crate::report::stats(&c.times);
            let met = if c.wrong > 0 {
                "no"
            } else if *bar {
                crate::report::met(share >= 95.0)
            } else {
                ""
            };
            s.push_str(&format!(
                "| {game} | {label} | {} | {} | {} | {share:.0} % | {:.1} | {:.1} | {met} |\n",
                c.right, c.refused, c.wrong, t.median, t.max
            ));
        }
    }
    s.push_str("\nWrong readings:\n");
    if wrong.is_empty() {
        s.push_str("\n* none\n");
    }
    for w in &wrong {
        s.push_str(&format!("\n* {w}"));
    }
    if !left_out.is_empty() {
        s.push_str("\n\nLeft out (the untouched picture does not read right, so its variants have no reference):\n");
        for l in &left_out {
            s.push_str(&format!("\n* {l}"));
        }
    }
    s.push('\n');
    if std::env::var_os("ROBUSTNESS_REFUSALS").is_some() {
        for ((game, k), list) in &refusals {
            eprintln!("== {game} {}", VARIANTS[*k].name());
            for l in list {
                eprintln!("  {l}");
            }
        }
    }
    print!("{s}");
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_turn_of_hue_gives_the_picture_back() {
        let img = RgbaImage::from_fn(16, 16, |x, y| {
            Rgba([(x * 16) as u8, (y * 16) as u8, 200, 255])
        });
        let there = hue_rotated(&img, 120.0);
        assert_ne!(there, img);
        let back = hue_rotated(&hue_rotated(&there, 120.0), 120.0);
        for (a, b) in back.pixels().zip(img.pixels()) {
            for k in 0..3 {
                assert!((a[k] as i32 - b[k] as i32).abs() <= 1, "{a:?} {b:?}");
            }
        }
        // Pure red turned a third of the way is pure green.
        let red = RgbaImage::from_pixel(1, 1, Rgba([255, 0, 0, 255]));
        assert_eq!(hue_rotated(&red, 120.0).get_pixel(0, 0).0, [0, 255, 0, 255]);
    }

    #[test]
    fn the_crop_keeps_the_board_and_halves_each_margin() {
        let img = RgbaImage::new(100, 80);
        let out = cropped(&img, Rect::new(20.0, 10.0, 50.0, 40.0));
        // Margins 20, 10, 30, 30 become 10, 5, 15, 15.
        assert_eq!((out.width(), out.height()), (100 - 10 - 15, 80 - 5 - 15));
    }
}
