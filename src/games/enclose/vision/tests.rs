use super::*;
use crate::games::enclose::overlay::draw;
use image::Rgba;
use std::path::Path;

/// The speed test must not share the two cores with this module's heavy corpus tests.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Read by content: some corpus files named .png are JPEG.
fn load(p: &Path) -> RgbaImage {
    crate::screen::read_picture(p).unwrap()
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

/// Boards taken here from the page that the reader once got wrong or refused: a bottom row
/// of water whose outer line is faint (read a row short before), a counter of "11/11"
/// whose bare strokes matched no template, and one at device scale 1.5 whose counter ran
/// below the strip it was cut from. Each reads exactly, budget included.
#[test]
fn page_captures_taken_here_read_exactly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/enclose");
    for (dir, line) in ["page", "scaled"].into_iter().flat_map(|d| {
        let dir = root.join(d);
        let index = std::fs::read_to_string(dir.join("index.jsonl")).unwrap();
        index
            .lines()
            .map(|l| (dir.clone(), l.to_string()))
            .collect::<Vec<_>>()
    }) {
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        let img = load(&dir.join(v["file"].as_str().unwrap()));
        let r = recognize(&img, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", v["file"]));
        assert_eq!(
            canonical(&r.rows),
            canonical(&rows_of(&v["map_rows"])),
            "{}",
            v["file"]
        );
        assert_eq!(
            r.budget.map(u64::from),
            v["budget"].as_u64(),
            "{}",
            v["file"]
        );
        assert_eq!(r.walls_placed, Some(0), "{}", v["file"]);
    }
}

/// The same boards rescaled (tiles of about 25 to 64 px) and cropped tight to the board
/// read the same, or are refused naming a place: never read differently (the lattice must
/// not lock onto half or double the pitch, nor lose a row of water along an edge).
#[test]
fn page_captures_rescaled_and_cropped_tight_read_the_same_or_are_refused() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/enclose/page");
    let index = std::fs::read_to_string(dir.join("index.jsonl")).unwrap();
    let (mut same, mut refused) = (0, Vec::new());
    for line in index.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let img = load(&dir.join(v["file"].as_str().unwrap()));
        let want = canonical(&rows_of(&v["map_rows"]));
        let opts = ReadOptions {
            budget: v["budget"].as_u64().map(|b| b as u32),
            ..Default::default()
        };
        for scale in [0.8, 1.0, 1.5] {
            let (w, h) = (img.width() as f64 * scale, img.height() as f64 * scale);
            let scaled = image::imageops::resize(
                &img,
                w as u32,
                h as u32,
                image::imageops::FilterType::CatmullRom,
            );
            // Cropped tight around the board the file is known to show.
            let r = recognize(&img, &opts).unwrap();
            let b = r.geometry.board;
            let tight = image::imageops::crop_imm(
                &scaled,
                (b.x * scale).round() as u32,
                (b.y * scale).round() as u32,
                (b.w * scale).round() as u32,
                (b.h * scale).round() as u32,
            )
            .to_image();
            for (what, pic) in [("whole", &scaled), ("tight crop", &tight)] {
                let name = format!("{} at {scale}, {what}", v["file"]);
                match recognize(pic, &opts) {
                    Ok(r) => {
                        assert_eq!(canonical(&r.rows), want, "{name}");
                        same += 1;
                    }
                    Err(Error::Vision { region, message }) => {
                        assert!(region.is_some(), "{name}: a refusal names no place");
                        refused.push(format!("{name}: {message}"));
                    }
                    Err(e) => panic!("{name}: {e}"),
                }
            }
        }
    }
    eprintln!("read the same: {same}; refused: {refused:#?}");
    assert!(same >= 6, "only {same} read");
}

/// The same boards rescaled as a browser zoom or a HiDPI screen would (Lanczos3; tiles of
/// 24 to 62 px) read exactly, budget included: the girl theme's grass tufts, which
/// resampling brightens past the sprite mask's threshold, are no sprites, and the
/// counter's thin strokes, blurred below plain white at 0.75×, are still read.
#[test]
fn page_captures_rescaled_read_exactly() {
    let _serial = serial();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/enclose/page");
    let index = std::fs::read_to_string(dir.join("index.jsonl")).unwrap();
    for line in index.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let img = load(&dir.join(v["file"].as_str().unwrap()));
        for scale in [0.75, 1.25, 1.5, 2.0] {
            let (w, h) = (img.width() as f64 * scale, img.height() as f64 * scale);
            let copy = image::imageops::resize(
                &img,
                w.round() as u32,
                h.round() as u32,
                image::imageops::FilterType::Lanczos3,
            );
            let name = format!("{} at {scale}", v["file"]);
            let r =
                recognize(&copy, &ReadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                canonical(&r.rows),
                canonical(&rows_of(&v["map_rows"])),
                "{name}"
            );
            assert_eq!(r.budget.map(u64::from), v["budget"].as_u64(), "{name}");
            assert_eq!(r.walls_placed, Some(0), "{name}");
        }
    }
}

/// JPEG quality 20 copies of the same boards read exactly: the lattice does not keep half
/// the pitch across rows its ringing lines, and the text under a board whose last row is
/// water does not pass for another row.
#[test]
fn page_captures_in_jpeg_quality_20_read_exactly() {
    use crate::vision::test_pictures::jpeg_copy;
    let _serial = serial();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/enclose/page");
    let index = std::fs::read_to_string(dir.join("index.jsonl")).unwrap();
    for line in index.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let img = jpeg_copy(&load(&dir.join(v["file"].as_str().unwrap())), 20);
        let r = recognize(&img, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", v["file"]));
        let want = canonical(&rows_of(&v["map_rows"]));
        assert_eq!(canonical(&r.rows), want, "{}", v["file"]);
        assert_eq!(
            r.budget.map(u64::from),
            v["budget"].as_u64(),
            "{}",
            v["file"]
        );
    }
}

/// Lossy copies of the size captures once refused for three causes read exactly: a horse or
/// portal tile whose grass was spread over two colour bins by the copy ("neither grass nor
/// water"), a lattice fitted through ringing beside the lines (its far tiles a third of a tile
/// off), and a chain of ridges at twice the tiles' pitch (every sprite cut in four). None
/// reads short where water rows lost their lines.
#[test]
fn lossy_copies_of_size_captures_read_exactly() {
    use crate::vision::test_pictures::jpeg_copy;
    let _serial = serial();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/enclose/sizes");
    let index = std::fs::read_to_string(dir.join("index.jsonl")).unwrap();
    let truth = |file: &str| -> serde_json::Value {
        index
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .find(|v| v["file"] == file)
            .unwrap()
    };
    // The last: its top five rows, mostly water, lost their lines; the water beyond the
    // lattice it found must not leave it five rows short.
    let cases: [(&str, f64, Option<u8>, bool); 7] = [
        ("2026-02-01_13x13_classic_486x607_dsf1.png", 1.2, None, true),
        (
            "2026-02-01_13x13_classic_486x607_dsf1.png",
            1.0,
            Some(50),
            true,
        ),
        (
            "2026-01-15_23x19_default_752x777_dsf1.png",
            1.0,
            Some(80),
            true,
        ),
        ("2026-01-01_19x19_girl_580x701_dsf1.png", 0.7, None, true),
        (
            "2026-01-01_19x19_girl_580x701_dsf1.png",
            0.8,
            Some(50),
            true,
        ),
        (
            "2026-01-09-padded_25x25_classic_700x821_dsf1.png",
            1.9,
            None,
            true,
        ),
        (
            "2026-01-01_19x19_girl_580x701_dsf1.png",
            0.8,
            Some(20),
            false,
        ),
    ];
    for (file, scale, quality, must_read) in cases {
        let v = truth(file);
        let img = load(&dir.join(file));
        let (w, h) = (img.width() as f64 * scale, img.height() as f64 * scale);
        let mut copy = if scale == 1.0 {
            img
        } else {
            image::imageops::resize(
                &img,
                w.round() as u32,
                h.round() as u32,
                image::imageops::FilterType::Lanczos3,
            )
        };
        if let Some(q) = quality {
            copy = jpeg_copy(&copy, q);
        }
        let name = format!("{file} at {scale}× JPEG {quality:?}");
        let r = match recognize(&copy, &ReadOptions::default()) {
            Ok(r) => r,
            Err(e) if !must_read => {
                eprintln!("{name}: refused: {e}");
                continue;
            }
            Err(e) => panic!("{name}: {e}"),
        };
        assert_eq!(
            canonical(&r.rows),
            canonical(&rows_of(&v["map_rows"])),
            "{name}"
        );
    }
}

/// On the girl theme's purple grass a cherry's green leaves and stem are part of its
/// silhouette, which the cherry template from green grass lacks: it led the portal
/// template by 0.01 only, and a JPEG q20 copy read a cherry as a portal (refused for want
/// of a partner). With the girl theme's own cherry the copy reads as the capture.
#[test]
fn girl_theme_cherries_in_jpeg_quality_20_stay_cherries() {
    use crate::vision::test_pictures::jpeg_copy;
    let Some(p) = crate::corpus::path("enclose/app-screens/enclose_day9_girl_1280x900_fresh.png")
    else {
        return;
    };
    let img = load(&p);
    let want = recognize(&img, &ReadOptions::default()).unwrap();
    assert!(want.rows.iter().any(|r| r.contains('C')));
    let got = recognize(&jpeg_copy(&img, 20), &ReadOptions::default()).unwrap();
    assert_eq!(got.rows, want.rows);
}

#[test]
fn an_axis_at_half_pitch_offers_the_stronger_lines_first() {
    // Grid lines every 40 px from 15, weak ridges halfway between.
    let mut profile = vec![0u32; 400];
    for k in 0..9 {
        profile[15 + 40 * k] = 300;
        profile[35 + 40 * k] = 60;
    }
    let half = Axis {
        start: 15.0,
        pitch: 20.0,
        cells: 16,
    };
    let at = |a: &Axis| (a.start, a.pitch, a.cells);
    let both = every_other_line(half, &profile);
    assert_eq!(at(&both[0]), (15.0, 40.0, 8));
    assert_eq!(at(&both[1]), (35.0, 40.0, 7));
    // Found from the weak ridge before the first line: the other phase comes first.
    let shifted = Axis {
        start: -5.0,
        pitch: 20.0,
        cells: 17,
    };
    assert_eq!(at(&every_other_line(shifted, &profile)[0]), (15.0, 40.0, 8));
}

/// A golden apple, drawn here as 16×16 pixel art in the game's manner (no capture of one
/// exists, and the embedded templates have none), on a grass tile of a page capture.
fn with_golden_apple(img: &RgbaImage, tile: Region) -> RgbaImage {
    const ART: [&str; 16] = [
        "................",
        ".......s.ll.....",
        ".......sll......",
        "....ooosooo.....",
        "...oyyyyyyyo....",
        "..oyywyyyyyyo...",
        "..oywyyyyyyyo...",
        "..oyyyyyyyyyo...",
        "..oyyyyyyyyyo...",
        "..oyyyyyyyyyo...",
        "..oyyyyyyyyyo...",
        "...oyyyyyyyo....",
        "....oyyyyyo.....",
        ".....ooooo......",
        "................",
        "................",
    ];
    let mut out = img.clone();
    for y in 0..tile.h {
        for x in 0..tile.w {
            let (i, j) = ((x * 16 / tile.w) as usize, (y * 16 / tile.h) as usize);
            let colour = match ART[j].as_bytes()[i] {
                b'y' => [241, 196, 15],
                b'o' => [184, 134, 11],
                b'w' => [255, 250, 220],
                b's' => [107, 62, 31],
                b'l' => [63, 174, 63],
                _ => continue,
            };
            out.put_pixel(
                (tile.x + x) as u32,
                (tile.y + y) as u32,
                Rgba([colour[0], colour[1], colour[2], 255]),
            );
        }
    }
    out
}

/// A sprite the reader has no template for (a golden apple) is refused at every size from
/// 0.7× to 2×, naming its tile: never read as grass, wheat or another sprite.
#[test]
fn an_unknown_sprite_is_refused_naming_its_tile_at_every_size() {
    let _serial = serial();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/enclose/page");
    let index = std::fs::read_to_string(dir.join("index.jsonl")).unwrap();
    let mut tried = 0;
    for line in index.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let img = load(&dir.join(v["file"].as_str().unwrap()));
        let r = recognize(&img, &ReadOptions::default()).unwrap();
        // A grass tile with grass on every side, away from the board's edge.
        let rows: Vec<Vec<char>> = r.rows.iter().map(|r| r.chars().collect()).collect();
        let (row, col) = (2..rows.len() - 2)
            .flat_map(|i| (2..rows[0].len() - 2).map(move |j| (i, j)))
            .find(|&(i, j)| (i - 1..=i + 1).all(|a| (j - 1..=j + 1).all(|b| rows[a][b] == '.')))
            .unwrap();
        let g = r.geometry;
        let tile = Region {
            x: (g.board.x + col as f64 * g.pitch_x).round() as i32,
            y: (g.board.y + row as f64 * g.pitch_y).round() as i32,
            w: g.pitch_x.round() as i32,
            h: g.pitch_y.round() as i32,
        };
        let apple = with_golden_apple(&img, tile);
        for step in 0..=26 {
            let scale = 0.7 + 0.05 * step as f64;
            let copy = image::imageops::resize(
                &apple,
                (apple.width() as f64 * scale).round() as u32,
                (apple.height() as f64 * scale).round() as u32,
                image::imageops::FilterType::Triangle,
            );
            let name = format!("{} at {scale:.2}", v["file"]);
            match recognize(&copy, &ReadOptions::default()) {
                Ok(r) => panic!("{name}: read {:?}", r.rows),
                Err(Error::Vision { region, message }) => {
                    let at = region.unwrap_or_else(|| panic!("{name}: {message}"));
                    let (cx, cy) = (
                        (tile.x as f64 + tile.w as f64 / 2.0) * scale,
                        (tile.y as f64 + tile.h as f64 / 2.0) * scale,
                    );
                    assert!(
                        message.contains(&format!("row {row} col {col}"))
                            && (at.x as f64) < cx
                            && cx < (at.x + at.w) as f64
                            && (at.y as f64) < cy
                            && cy < (at.y + at.h) as f64,
                        "{name}: refused at {at:?}: {message}"
                    );
                    tried += 1;
                }
                Err(e) => panic!("{name}: {e}"),
            }
        }
    }
    assert_eq!(tried, 54);
}

/// The counter of a shrunk (0.75×) or recompressed (JPEG quality 20) copy of every app
/// capture reads as the capture's own, or not at all: blurred strokes are told by their
/// brightness against the page, "Walls:" is kept apart by its word space even when its
/// colon is lost, and a slash broken in pieces is not read.
#[test]
fn counters_of_shrunk_and_recompressed_copies_read_the_same_or_not_at_all() {
    use crate::vision::test_pictures::jpeg_copy;
    let _serial = serial();
    let Some(cases) = known_cases() else { return };
    let mut read = [0; 2];
    for case in cases.iter().filter(|c| c.budget.is_some()) {
        let img = load(&case.file);
        let shrunk = image::imageops::resize(
            &img,
            (img.width() as f64 * 0.75).round() as u32,
            (img.height() as f64 * 0.75).round() as u32,
            image::imageops::FilterType::Lanczos3,
        );
        for (k, copy) in [shrunk, jpeg_copy(&img, 20)].iter().enumerate() {
            let name = format!("{} copy {k}", case.file.display());
            let Ok(r) = recognize(copy, &ReadOptions::default()) else {
                continue;
            };
            if r.budget.is_some() {
                assert_eq!(
                    (r.budget, r.walls_placed),
                    (case.budget, case.walls_placed),
                    "{name}"
                );
                read[k] += 1;
            }
        }
    }
    // Of the 8 app captures: all shrunk ones but the classic 1920×1080 one (whose counter
    // the layout checks leave unread at 0.75×), and 5 of the recompressed ones (the
    // classic and girl 1280×900 and the partial default one are unread in JPEG q20).
    assert!(read[0] >= 7, "shrunk copies' counters read: {}", read[0]);
    assert!(
        read[1] >= 5,
        "recompressed copies' counters read: {}",
        read[1]
    );
}

/// One capture of `fixtures/enclose/after_play`: its picture, the lattice read before play,
/// the board's size, the walls placed and the page's score.
struct AfterPlayCase {
    file: String,
    theme: String,
    img: RgbaImage,
    geometry: Geometry,
    rows: usize,
    cols: usize,
    walls: BTreeSet<[usize; 2]>,
    score: i32,
}

fn after_play_cases() -> Vec<AfterPlayCase> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/enclose/after_play");
    let index = std::fs::read_to_string(dir.join("index.jsonl")).unwrap();
    index
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let n = |key: &str| v[key].as_u64().unwrap() as usize;
            AfterPlayCase {
                file: v["file"].as_str().unwrap().to_string(),
                theme: v["theme"].as_str().unwrap().to_string(),
                img: load(&dir.join(v["file"].as_str().unwrap())),
                geometry: serde_json::from_value(v["geometry"].clone()).unwrap(),
                rows: n("rows"),
                cols: n("cols"),
                walls: cells_of(&v["walls"]).into_iter().collect(),
                score: v["score"].as_i64().unwrap() as i32,
            }
        })
        .collect()
}

/// After play the page draws the pen in its theme's own look with the horse inside: the
/// walls (top row and stacked ones included) and the score are still read, in every theme.
#[test]
fn the_page_after_play_shows_the_walls_placed_in_every_theme() {
    let mut themes = std::collections::BTreeSet::new();
    for case in after_play_cases() {
        let seen = read_after_play(&case.img, &case.geometry, case.rows, case.cols);
        assert_eq!(seen.walls, case.walls, "{}", case.file);
        assert_eq!(
            seen.score_shown,
            Some(ShownScore::Value(case.score)),
            "{}",
            case.file
        );
        themes.insert(case.theme);
    }
    assert_eq!(themes.len(), 4, "every theme: {themes:?}");
}

/// The lattice read before play is right to a fraction of a pixel only: in the 420×800 window
/// play read the rows 21.19 px apart, 0.06 px more than the columns, so half a pixel off by
/// row 8. A wall with another wall below it shows its front face two or three pixel rows high
/// at 21 px tiles, and there a wall placed was read as missing. The walls read after play must
/// be the same wherever within a pixel the lattice falls.
#[test]
fn the_walls_read_after_play_do_not_hang_on_the_lattice_falling_within_a_pixel() {
    let mut wrong = Vec::new();
    for case in after_play_cases() {
        for step in -3..=3 {
            let dy = step as f64 * 0.25;
            let mut g = case.geometry;
            g.origin.y += dy;
            g.board.y += dy;
            let seen = read_after_play(&case.img, &g, case.rows, case.cols);
            if seen.walls != case.walls {
                let lost: Vec<_> = case.walls.difference(&seen.walls).collect();
                let more: Vec<_> = seen.walls.difference(&case.walls).collect();
                wrong.push(format!(
                    "{} moved {dy} px down: lost {lost:?}, more {more:?}",
                    case.file
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
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

/// An index's `[[row, col], ...]` list.
fn cells_of(v: &serde_json::Value) -> Vec<[usize; 2]> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|w| {
            [
                w[0].as_u64().unwrap() as usize,
                w[1].as_u64().unwrap() as usize,
            ]
        })
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
        let walls = cells_of(&a["walls_placed_row_col"]);
        for &[r, c] in &walls {
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
fn a_jpeg_copy_of_every_known_capture_reads_as_the_png_does() {
    use crate::vision::test_pictures::jpeg_copy;
    let _serial = serial();
    let Some(cases) = known_cases() else { return };
    let summary = |r: Reading| {
        (
            r.rows,
            r.budget,
            r.walls_placed,
            r.theme,
            r.enclosed,
            r.score_shown,
        )
    };
    let mut failures = Vec::new();
    for case in &cases {
        let img = load(&case.file);
        let png = recognize(&img, &ReadOptions::default()).map(summary);
        let jpeg = recognize(&jpeg_copy(&img, 90), &ReadOptions::default()).map(summary);
        match (png, jpeg) {
            (Ok(a), Ok(b)) if a == b => {}
            (a, b) => failures.push(format!("{}: png {a:?}\njpeg {b:?}", case.file.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
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
                if r.confidence < MIN_CONFIDENCE {
                    failures.push(format!("{name}: confidence {:.2}", r.confidence));
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
                    r.theme, r.geometry.pitch(), r.enclosed, r.confidence
                );
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// An edge row or column of a board cropped tight whose grid lines a lossy copy lost
/// (painted here as flat grass, lines and all) is read as grass or the picture is refused: the
/// board is never read a row or column short, which would be another puzzle. (On a page the
/// grass around the board has no lines either, and a row painted so is the page's.)
#[test]
fn an_edge_row_without_grid_lines_is_never_dropped() {
    let _serial = serial();
    let Some(cases) = known_cases() else { return };
    let mut failures = Vec::new();
    for case in &cases {
        let img = load(&case.file);
        let Ok(r) = recognize(&img, &ReadOptions::default()) else {
            continue;
        };
        let (rows, cols) = (r.rows.len(), r.cols());
        let Some(grass_at) =
            (0..rows * cols).find(|&k| r.rows[k / cols].as_bytes()[k % cols] == b'.')
        else {
            continue;
        };
        let grass = *img.get_pixel(
            r.geometry.centre(grass_at / cols, grass_at % cols).x as u32,
            r.geometry.centre(grass_at / cols, grass_at % cols).y as u32,
        );
        let edges: [(&str, Vec<(usize, usize)>); 4] = [
            ("top", (0..cols).map(|c| (0, c)).collect()),
            ("bottom", (0..cols).map(|c| (rows - 1, c)).collect()),
            ("left", (0..rows).map(|row| (row, 0)).collect()),
            ("right", (0..rows).map(|row| (row, cols - 1)).collect()),
        ];
        let b = r.geometry.board;
        let slack = 0.1 * r.geometry.pitch();
        let at_picture_edge = |name: &str| match name {
            "top" => b.y <= slack,
            "bottom" => b.y + b.h >= img.height() as f64 - slack,
            "left" => b.x <= slack,
            _ => b.x + b.w >= img.width() as f64 - slack,
        };
        for (name, tiles) in edges {
            if !at_picture_edge(name) {
                continue;
            }
            let mut painted = img.clone();
            let mut want: Vec<Vec<u8>> = r.rows.iter().map(|l| l.as_bytes().to_vec()).collect();
            for &(row, col) in &tiles {
                // The whole tile and a little past it: its grid lines go too.
                paint(&mut painted, &r, row, col, grass, 1.12);
                want[row][col] = b'.';
            }
            let want: Vec<String> = want
                .into_iter()
                .map(|l| String::from_utf8(l).unwrap())
                .collect();
            if let Ok(got) = recognize(&painted, &ReadOptions::default()) {
                if got.rows != canonical(&want) {
                    failures.push(format!(
                        "{} with its {name} edge painted: read {}x{} {:?}",
                        case.file.display(),
                        got.rows.len(),
                        got.cols(),
                        got.rows
                    ));
                }
            }
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
            crate::games::enclose::model::Variant::Main,
        )
        .unwrap();
        let walls = cells_of(&a["walls_placed_row_col"]);
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
    let b = r.geometry.board;
    let (bx, by, bw, bh) = (b.x, b.y, b.w, b.h);
    let gold: Vec<(u32, u32)> = (by as u32 + bh as u32..img.height())
        .flat_map(|y| ((bx + bw / 2.0) as u32..(bx + bw) as u32 + 10).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let Rgba([r, g, b, _]) = *img.get_pixel(x, y);
            is_gold([r, g, b])
        })
        .take_while(|&(_, y)| y < (by + bh + r.geometry.pitch()) as u32)
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
        let (bx, bw) = (r.geometry.board.x, r.geometry.board.w);
        // The canvas has a thin border; the grid sits within a few pixels of its rectangle.
        assert!(
            (bx - x).abs() < 4.0 && (bw - w).abs() < 6.0,
            "{a}: {:?}",
            r.geometry
        );
        assert!((r.geometry.pitch() - w / 12.0).abs() < 0.6);
        let c = r.geometry.centre(13, 11);
        assert!((c.x - (x + w * 23.0 / 24.0)).abs() < 4.0);
    }
}

#[test]
fn budget_option_overrides_and_fills() {
    let Some(p) = crate::corpus::path("enclose/screenshots/dt_2_2025-12-31.png") else {
        return;
    };
    let r = recognize(
        &load(&p),
        &ReadOptions {
            budget: Some(14),
            ..Default::default()
        },
    )
    .unwrap();
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
    assert!((two.geometry.pitch() - 2.0 * one.geometry.pitch()).abs() < 0.5);
}

/// Paints a filled square of `colour` over the middle of a tile.
fn paint(img: &mut RgbaImage, r: &Reading, row: usize, col: usize, colour: Rgba<u8>, frac: f64) {
    let c = r.geometry.centre(row, col);
    let half = r.geometry.pitch() * frac / 2.0;
    let (w, h) = (img.width(), img.height());
    for y in (c.y - half).max(0.0) as u32..((c.y + half) as u32).min(h) {
        for x in (c.x - half).max(0.0) as u32..((c.x + half) as u32).min(w) {
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
            let c = r.geometry.centre(3, 2);
            assert!((reg.x as f64) < c.x && c.x < (reg.x + reg.w) as f64);
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
    let grass = *img.get_pixel(
        r.geometry.centre(4, 2).x as u32,
        r.geometry.centre(4, 2).y as u32,
    );
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
    draw(&mut img, &r);
    let c = r.geometry.centre(0, 2);
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
            assert!((r.geometry.pitch() / base.geometry.pitch() - scale).abs() < 0.02 * scale);
        }
    }
}

/// Copies that were once read with rows or columns missing (a sprite edge bent the
/// lattice's pitch; a JPEG copy lost the lines around the last row): each now reads the
/// untouched capture's map, or is refused; never a different map.
#[test]
fn copies_once_read_short_read_whole_or_are_refused() {
    let _serial = serial();
    use image::imageops::FilterType::Lanczos3;
    let Some(dir) = crate::corpus::path("enclose/screenshots") else {
        return;
    };
    let jpeg = |img: &RgbaImage| {
        let rgb = image::DynamicImage::ImageRgba8(img.clone()).to_rgb8();
        let mut bytes = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 20)
            .encode_image(&rgb)
            .unwrap();
        image::load_from_memory(&bytes).unwrap().to_rgba8()
    };
    let mut read = 0;
    for (f, scale) in [
        ("djk_2026.01.23.png", 0.75),
        ("djk_2026.01.23.png", 1.5),
        ("djk_2026.01.23.png", 2.0),
        ("dyig_p3_2026-01-06.png", 0.75),
        ("djk_example.png", 1.0),
        ("djk_rect.png", 1.0),
        ("dyig_portal.png", 1.0),
    ] {
        let img = load(&dir.join(f));
        let base = recognize(&img, &ReadOptions::default()).unwrap();
        let copy = if scale == 1.0 {
            jpeg(&img)
        } else {
            let (w, h) = (img.width() as f64 * scale, img.height() as f64 * scale);
            image::imageops::resize(&img, w as u32, h as u32, Lanczos3)
        };
        if let Ok(r) = recognize(&copy, &ReadOptions::default()) {
            assert_eq!(r.rows, base.rows, "{f} ×{scale}");
            read += 1;
        }
    }
    // The rescaled ones read since the lattice takes the nearest ridge.
    assert!(read >= 4, "only {read} read");
}

/// Copies resampled twice (shrunk by Lanczos, then enlarged) that were read with a column too
/// many or too few: a lattice at twice the pitch counted in a tile that was half the page
/// past the picture's edge; a water column the crop cut into was not looked at; a board more
/// water than grass took the water for grass and the page's grass for water; a tuft a pitch
/// from the board's outer line took two page columns in. Each now reads the capture's map.
/// Where a column with water in it lost its lines (the last columns' lines faded out, or a
/// grass column with water at its foot), the copy is refused.
#[test]
fn copies_resampled_twice_read_whole_or_are_refused() {
    use crate::vision::test_pictures::resampled_twice;
    use image::imageops::FilterType::{CatmullRom, Triangle};
    let _serial = serial();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/enclose/sizes");
    let corpus = jsonl("enclose/screenshots/index.jsonl");
    if corpus.is_none() {
        eprintln!("SKIPPED in part: no corpus (enclose/screenshots); the fixtures' cases run");
    }
    let truth = |dir: &Path, file: &str| -> Vec<String> {
        let index = std::fs::read_to_string(dir.join("index.jsonl")).unwrap();
        let v = index
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .find(|v| v["file"] == file)
            .unwrap();
        rows_of(&v["map_rows"])
    };
    // (folder, file, shrink, grow, filter, refusal expected: its words)
    let cases = [
        (None, "djk_example.png", 0.3, 1.25, Triangle, None),
        (None, "dyig_p3_2026-01-06.png", 0.3, 1.5, CatmullRom, None),
        (
            Some(&fixtures),
            "2026-01-15_23x19_hot_1488x1385_dsf1.5.png",
            0.4,
            1.9,
            Triangle,
            None,
        ),
        (
            Some(&fixtures),
            "2026-01-09-padded_25x25_classic_700x821_dsf1.png",
            0.5,
            1.95,
            Triangle,
            None,
        ),
        (
            None,
            "dt_1_2025-12-30.png",
            0.3,
            1.65,
            Triangle,
            Some("water goes on"),
        ),
        (
            Some(&fixtures),
            "2026-01-09-padded_25x25_classic_700x821_dsf1.png",
            0.3,
            1.8,
            Triangle,
            Some("water goes on"),
        ),
    ];
    for (dir, file, shrink, grow, filter, refusal) in cases {
        let dir = match (dir, &corpus) {
            (Some(d), _) => d.clone(),
            (None, Some((d, _))) => d.clone(),
            (None, None) => continue,
        };
        let copy = resampled_twice(&load(&dir.join(file)), shrink, grow, filter);
        let name = format!("{file} {shrink}× then {grow}× {filter:?}");
        match (recognize(&copy, &ReadOptions::default()), refusal) {
            (Ok(r), None) => {
                assert_eq!(canonical(&r.rows), canonical(&truth(&dir, file)), "{name}")
            }
            (Err(e), Some(words)) => assert!(e.to_string().contains(words), "{name}: {e}"),
            (Ok(r), Some(_)) => panic!("{name}: read {:?}, not refused", r.rows),
            (Err(e), None) => panic!("{name}: {e}"),
        }
    }
}

/// A copy resampled twice can blur the gold of the score's "N/A" under the ink test and leave
/// specks of it; the tallest speck read as an 8 (and "N/A" as 8, 88 or 18). The score line
/// is read only where every gold mark on it stands the text's height (and an 8 only where
/// its ink closes its loops).
#[test]
fn specks_of_a_blurred_score_line_are_not_read_as_a_number() {
    use crate::vision::test_pictures::resampled_twice;
    use image::imageops::FilterType::Lanczos3;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/enclose/sizes");
    let img = load(&dir.join("2026-01-01_19x19_default_1302x1423_dsf1.png"));
    assert_eq!(
        recognize(&img, &ReadOptions::default())
            .unwrap()
            .score_shown,
        Some(ShownScore::NotEnclosed)
    );
    for grow in [1.85, 1.9] {
        let copy = resampled_twice(&img, 0.4, grow, Lanczos3);
        let shown = recognize(&copy, &ReadOptions::default()).map(|r| r.score_shown);
        assert!(
            matches!(shown, Ok(None | Some(ShownScore::NotEnclosed)) | Err(_)),
            "0.4× then {grow}×: {shown:?}"
        );
    }
}

/// Two 1s of the walls counter blurred into one blob by a copy shrunk and enlarged again
/// matched the 8 ("11/11" read as 18/18, a budget the level does not have); a digit drawn
/// with a loop is read only where its ink closes the loop.
#[test]
fn two_1s_blurred_together_are_not_read_as_an_8() {
    use crate::vision::test_pictures::resampled_twice;
    use image::imageops::FilterType::{Lanczos3, Triangle};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/enclose/sizes");
    let img = load(&dir.join("2026-01-01_19x19_girl_580x701_dsf1.png"));
    assert_eq!(
        recognize(&img, &ReadOptions::default()).unwrap().budget,
        Some(11)
    );
    for (shrink, grow, filter) in [
        (0.4, 1.6, Lanczos3),
        (0.5, 1.1, Lanczos3),
        (0.6, 1.05, Triangle),
    ] {
        let copy = resampled_twice(&img, shrink, grow, filter);
        let budget = recognize(&copy, &ReadOptions::default()).map(|r| r.budget);
        assert!(
            matches!(budget, Ok(None | Some(11)) | Err(_)),
            "{shrink}× then {grow}× {filter:?}: {budget:?}"
        );
    }
}

/// A board whose grid lines go on past an edge, through the next row too, is not taken to end
/// there; the page's grass beyond the whole board shows no such lines.
#[test]
fn a_board_whose_lines_go_on_past_its_edge_is_refused() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/enclose/page");
    let img = load(&dir.join("2026-01-16_classic_1600x1000_fresh.png"));
    let whole = grown(&img, find_board(&img).unwrap());
    assert!(edges_certain(&img, &whole).is_ok());
    for edge in Edge::ALL {
        let mut short = Board {
            x: whole.x,
            y: whole.y,
        };
        short.shrink(edge);
        short.shrink(edge);
        let e = edges_certain(&img, &short).unwrap_err().to_string();
        assert!(
            e.contains(&format!(
                "faint grid lines go on past the board's {}",
                edge.name()
            )),
            "{e}"
        );
    }
}

/// Rebuilds `calibration/enclose/glyphs.json` from the font pictures; see its README (the
/// sprites are learned by `autoplayer calibrate enclose`, run by `calibration/make.sh`).
#[test]
#[ignore]
fn regenerate_counter_glyphs() {
    use crate::vision::glyph::{Template, TemplateSet};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration/enclose");
    let mut glyphs = Vec::new();
    for f in ["font_schoolbell_28.png", "font_schoolbell_40.png"] {
        let img = load(&root.join(f));
        let gs: Vec<_> = text::tall_glyph_boxes(
            &img,
            crate::rect::Rect::new(0, 0, img.width(), img.height()),
            &is_white,
        )
        .into_iter()
        .map(|g| g.glyph)
        .collect();
        let text = "0123456789/";
        assert_eq!(gs.len(), text.len(), "{f}");
        for (ch, g) in text.chars().zip(&gs) {
            let mut t = Template::from_glyph(&ch.to_string(), 1, g);
            t.aspect = g.aspect.map(|a| (a * 1000.0).round() / 1000.0);
            t.source = Some(f.to_string());
            glyphs.push(t);
        }
    }
    let (width, height) = (text::GW, text::GH);
    let set = TemplateSet {
        width,
        height,
        templates: glyphs,
    };
    std::fs::write(root.join("glyphs.json"), set.to_json()).unwrap();
}

/// Shrunk to three quarters, Schoolbell's 0 in "10/10" thins to a one-pixel stroke the
/// resampling breaks in places; the counter still reads, as it does unshrunk.
#[test]
fn a_0_thinned_and_broken_by_shrinking_still_reads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/enclose/sizes");
    let img = load(&dir.join("2026-01-11_15x14_default_1250x1301_dsf1.png"));
    let whole = recognize(&img, &ReadOptions::default()).unwrap();
    assert_eq!(whole.budget, Some(10));
    for percent in [75u32, 80] {
        let size = |v: u32| (v as f64 * percent as f64 / 100.0).round() as u32;
        let copy = image::imageops::resize(
            &img,
            size(img.width()),
            size(img.height()),
            image::imageops::FilterType::Lanczos3,
        );
        let read = recognize(&copy, &ReadOptions::default()).unwrap();
        assert_eq!(read.budget, whole.budget, "{percent} %");
        assert_eq!(read.rows, whole.rows, "{percent} %");
        assert_eq!(read.walls_placed, whole.walls_placed, "{percent} %");
    }
}
