//! Whole readings, of the corpus and of copies of it (rescaled, recompressed, framed), which
//! no one step decides.

use super::truth::{corpus, in_frame, own_captures, seen};
use super::*;
use crate::rect::Rect;
use image::Rgba;
use std::path::Path;

#[test]
fn reads_numbers_above_nine_and_infers_the_larger_maximum() {
    let all = own_captures();
    assert_eq!(all.len(), 6);
    for (name, img, truth) in &all {
        let r = recognize(img).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(seen(&r), *truth, "{name}");
        // Ten or more bridges at one island need at least 3 per pair.
        assert_eq!(r.puzzle.max_bridges, 3, "{name}");
    }
}

fn assert_geometry_holds(name: &str, r: &Reading) {
    let Rect {
        x: bx,
        y: by,
        w: bw,
        h: bh,
    } = r.geometry.board;
    for i in &r.puzzle.islands {
        let c = r.geometry.centre(i.at.row, i.at.col);
        assert!(
            c.x > bx && c.y > by && c.x < bx + bw && c.y < by + bh,
            "{name}: island {:?} centre outside the board",
            i.at
        );
    }
}

#[test]
fn reads_a_hidpi_capture_with_the_pitch_doubled() {
    let Some(all) = corpus() else { return };
    use image::imageops::FilterType::{Nearest, Triangle};
    let cases = [
        ("bridges_17_15x10_error_ts64.png", Nearest),
        ("bridges_01_7x7_fresh_ts24.png", Triangle),
        ("bridges_10_15x15_solve_cmd_ts40.png", Triangle),
        ("hashi_E0042_dark_1920x1080_partial.png", Nearest),
        ("hashi_M0140_light_1280x900_partial.png", Triangle),
    ];
    for (name, filter) in cases {
        let (_, img, truth) = all.iter().find(|(n, _, _)| n == name).unwrap();
        let once = recognize(img).unwrap();
        let big = image::imageops::resize(img, img.width() * 2, img.height() * 2, filter);
        let twice = recognize(&big).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(seen(&twice), *truth, "{name}");
        assert!(
            (twice.geometry.pitch() - 2.0 * once.geometry.pitch()).abs() < 0.51,
            "{name}"
        );
    }
}

/// Scaled to three quarters, the menu bar's text blends into the canvas colour along the
/// canvas's top edge and the digits are a few pixels tall: the canvas is still found and
/// the digits, sampled between pixels, still read. Every own capture, and one corpus
/// picture of each look, reads as the untouched picture does.
#[test]
fn a_capture_scaled_to_three_quarters_reads_as_the_original() {
    let mut pictures: Vec<(String, RgbaImage)> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hashi"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "png"))
            .map(|p| (p.display().to_string(), image::open(&p).unwrap().to_rgba8()))
            .collect();
    if let Some(all) = corpus() {
        for name in [
            "bridges_01_7x7_fresh_ts24.png",
            "hashi_H0123_dark_1920x1080_fresh.png",
        ] {
            let (_, img, _) = all.iter().find(|(n, _, _)| n == name).unwrap();
            pictures.push((name.to_string(), img.clone()));
        }
    }
    assert!(pictures.len() >= 4);
    for (name, img) in &pictures {
        let once = recognize(img).unwrap();
        let (w, h) = (img.width() * 3 / 4, img.height() * 3 / 4);
        let small = image::imageops::resize(img, w, h, image::imageops::FilterType::Lanczos3);
        let r = recognize(&small).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(r.puzzle, once.puzzle, "{name}");
        assert_eq!(r.bridges, once.bridges, "{name}");
    }
}

/// Each corpus capture shown in a full-screen frame reads as its truth. Its time per reading
/// is `bench hashi-screen`'s (a timing bar is measured at rest, never asserted in a test).
#[test]
fn a_full_screen_frame_reads_every_capture_exactly() {
    let Some(all) = corpus() else { return };
    let mut framed = 0;
    for (name, img, truth) in &all {
        let frame = if img.dimensions() == (1920, 1080) {
            img.clone()
        } else if img.width() <= 1920 && img.height() <= 1080 {
            in_frame(img, ((1920 - img.width()) / 2, (1080 - img.height()) / 2))
        } else {
            continue;
        };
        let got = recognize(&frame).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(seen(&got), *truth, "{name}");
        framed += 1;
    }
    assert!(framed > 0, "no corpus capture fits a 1920×1080 frame");
}

#[test]
fn reads_every_corpus_picture_exactly() {
    let Some(all) = corpus() else { return };
    let mut failures = Vec::new();
    for (name, img, truth) in &all {
        match recognize(img) {
            Ok(r) => {
                assert_geometry_holds(name, &r);
                assert!(r.confidence >= MIN_CONFIDENCE);
                let style = if name.starts_with("hashi_") {
                    Style::Web
                } else {
                    Style::Sgt
                };
                if r.style != style || seen(&r) != *truth {
                    failures.push(format!(
                        "{name}: read {:?}\nwant {truth:?}\ngot  {:?}",
                        r.style,
                        seen(&r)
                    ));
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} wrong:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

/// A JPEG copy (quality 90) of every corpus picture and own capture reads as the PNG does:
/// the same puzzle, the same bridges, and the lattice within a pixel.
#[test]
fn a_jpeg_copy_of_every_corpus_picture_reads_as_the_png_does() {
    use crate::vision::test_pictures::jpeg_copy;
    let Some(all) = corpus() else { return };
    let mut failures = Vec::new();
    for (name, img, _) in all.iter().chain(&own_captures()) {
        match (recognize(img), recognize(&jpeg_copy(img, 90))) {
            (Ok(a), Ok(b)) => {
                let (ga, gb) = (&a.geometry, &b.geometry);
                let off = (ga.origin.x - gb.origin.x)
                    .abs()
                    .max((ga.origin.y - gb.origin.y).abs())
                    .max((ga.pitch() - gb.pitch()).abs() * a.puzzle.cols.max(a.puzzle.rows) as f64);
                if (a.style, seen(&a)) != (b.style, seen(&b)) || off > 1.0 {
                    failures.push(format!(
                        "{name}: png {:?} {:?} {ga:?}\njpeg {:?} {:?} {gb:?}",
                        a.style,
                        seen(&a),
                        b.style,
                        seen(&b)
                    ));
                }
            }
            (a, b) => failures.push(format!(
                "{name}: png {:?}\njpeg {:?}",
                a.map(|r| seen(&r)),
                b.map(|r| seen(&r))
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The solved fixture, read, and the first island with a bridge: the base of the tests that
/// take an island away.
fn solved_fixture() -> (RgbaImage, Reading, Cell) {
    let p =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hashi/bridges_10x10_solved_ts48.png");
    let img = image::open(&p).unwrap().to_rgba8();
    let r = recognize(&img).unwrap();
    let at = r.bridges[0].a;
    (img, r, at)
}

/// Every pixel within `radius` of a lattice point, its darkness below the canvas scaled.
fn fade_around(img: &mut RgbaImage, r: &Reading, at: Cell, radius: f64, keep: f64) {
    let c = r.geometry.centre(at.row, at.col);
    for y in (c.y - radius) as u32..=(c.y + radius) as u32 {
        for x in (c.x - radius) as u32..=(c.x + radius) as u32 {
            if (x as f64 - c.x).hypot(y as f64 - c.y) <= radius {
                let p = img.get_pixel_mut(x, y);
                for ch in &mut p.0[..3] {
                    *ch = (213.0 - (213.0 - *ch as f64) * keep)
                        .round()
                        .clamp(0.0, 255.0) as u8;
                }
            }
        }
    }
}

fn assert_refused_at(result: Result<Reading>, r: &Reading, at: Cell, what: &str) {
    let c = r.geometry.centre(at.row, at.col);
    match result {
        Err(Error::Vision {
            region: Some(reg),
            message,
        }) => {
            assert!(
                message.contains(&format!("row {} col {}", at.row, at.col)),
                "{what}: {message}"
            );
            assert!(
                reg.x as f64 <= c.x && c.x <= (reg.x + reg.w) as f64,
                "{what}"
            );
            assert!(
                reg.y as f64 <= c.y && c.y <= (reg.y + reg.h) as f64,
                "{what}"
            );
        }
        other => panic!("{what}: expected a refusal at {at:?}, got {other:?}"),
    }
}

/// An island whose ring is too faint for the island test (as a blurred copy can leave it) is
/// not read as an empty cell: the reading is refused, naming the cell.
#[test]
fn an_island_too_faint_to_find_refuses_the_reading_naming_its_cell() {
    let (mut img, r, at) = solved_fixture();
    let ts = r.geometry.pitch();
    // Ink at 0 comes out at 117: past the island test's ink level of 110, still a grey ring.
    fade_around(&mut img, &r, at, 0.62 * ts, 0.45);
    assert_refused_at(recognize(&img), &r, at, "faint ring");
}

/// An island wiped out altogether leaves its bridges ending at an empty cell: refused, not
/// read as a board without that island. The cell named is the island's or a neighbour's
/// whose arm towards it meets the bridge first.
#[test]
fn bridges_ending_at_an_empty_cell_refuse_the_reading_near_it() {
    let (mut img, r, at) = solved_fixture();
    let ts = r.geometry.pitch();
    fade_around(&mut img, &r, at, 0.62 * ts, 0.0);
    let c = r.geometry.centre(at.row, at.col);
    match recognize(&img) {
        Err(Error::Vision {
            region: Some(reg),
            message,
        }) => {
            assert!(message.contains("a drawn bridge ends there"), "{message}");
            let (mx, my) = (
                reg.x as f64 + reg.w as f64 / 2.0,
                reg.y as f64 + reg.h as f64 / 2.0,
            );
            assert!((mx - c.x).abs() + (my - c.y).abs() <= 1.2 * ts, "{message}");
        }
        other => panic!("expected a refusal near {at:?}, got {other:?}"),
    }
}

#[test]
fn a_canvas_reaching_past_the_picture_is_searched_inside_it() {
    // A canvas found one pixel above a picture's top edge once indexed row -1 and panicked.
    let mut img = RgbaImage::from_pixel(40, 40, Rgba([255, 255, 255, 255]));
    for x in 15..25 {
        img.put_pixel(x, 3, Rgba([0, 0, 0, 255]));
    }
    let found = super::sgt_lattice::sgt_top_ring(&img, (-2, -1, 50, 50));
    assert_eq!(found, Some(((19.5, 3.0), 1.0)));
}

/// A web page (the light theme's fresh 10×10), read, and an empty lattice point whose four
/// neighbours are empty too, away from the board's edge.
fn web_page_and_empty_point() -> Option<(RgbaImage, Reading, Cell)> {
    let all = corpus()?;
    let (_, img, _) = all
        .iter()
        .find(|(n, _, _)| n == "hashi_E0001_light_1280x900_fresh.png")?;
    let r = recognize(img).unwrap();
    let island =
        |row: usize, col: usize| r.puzzle.islands.iter().any(|i| i.at == Cell { row, col });
    let at = (1..r.puzzle.rows - 1)
        .flat_map(|row| (1..r.puzzle.cols - 1).map(move |col| Cell { row, col }))
        .find(|c| {
            !island(c.row, c.col)
                && !island(c.row - 1, c.col)
                && !island(c.row + 1, c.col)
                && !island(c.row, c.col - 1)
                && !island(c.row, c.col + 1)
        })
        .unwrap();
    Some((img.clone(), r, at))
}

/// Paints every pixel whose offset from a lattice point passes `inside` in `colour`.
fn paint_at(
    img: &mut RgbaImage,
    r: &Reading,
    at: Cell,
    colour: [u8; 3],
    inside: impl Fn(f64, f64) -> bool,
) {
    let c = r.geometry.centre(at.row, at.col);
    let reach = r.geometry.pitch();
    for y in (c.y - reach) as u32..=(c.y + reach) as u32 {
        for x in (c.x - reach) as u32..=(c.x + reach) as u32 {
            if inside(x as f64 - c.x, y as f64 - c.y) {
                img.put_pixel(x, y, Rgba([colour[0], colour[1], colour[2], 255]));
            }
        }
    }
}

/// An island whose white fill the island test misses (here: none at all, only its rim) is not
/// read as an empty cell: the web reading is refused, naming the cell.
#[test]
fn a_web_island_ring_the_island_test_misses_refuses_the_reading_naming_its_cell() {
    let Some((mut img, r, at)) = web_page_and_empty_point() else {
        return;
    };
    let ts = r.geometry.pitch();
    paint_at(&mut img, &r, at, [0xf5, 0x9e, 0x0b], |dx, dy| {
        (dx.hypot(dy) - 0.31 * ts).abs() <= 0.025 * ts
    });
    assert_refused_at(recognize(&img), &r, at, "web ring without fill");
}

/// A web bridge drawn from an empty point towards its empty neighbour (an island lost under
/// it) refuses the reading, naming the point.
#[test]
fn a_web_bridge_ending_at_an_empty_point_refuses_the_reading_naming_it() {
    let Some((mut img, r, at)) = web_page_and_empty_point() else {
        return;
    };
    let ts = r.geometry.pitch();
    paint_at(&mut img, &r, at, [0x0f, 0x17, 0x2a], |dx, dy| {
        (0.0..=0.45 * ts).contains(&dx) && dy.abs() <= 0.06 * ts
    });
    match recognize(&img) {
        Err(Error::Vision { message, .. }) => {
            assert!(message.contains("a drawn bridge ends there"), "{message}");
            assert!(
                message.contains(&format!("row {} col {}", at.row, at.col))
                    || message.contains(&format!("row {} col {}", at.row, at.col + 1)),
                "{message}"
            );
        }
        other => panic!("expected a refusal at {at:?}, got {other:?}"),
    }
}

/// The board reaches as far as its grid lines run: lines drawn on across a cell past the left
/// edge (onto the page's grey panel) make the board a column wider, and that column, the
/// panel's colour, is refused as ink at a lattice point rather than read as an empty column.
#[test]
fn web_grid_lines_drawn_on_past_the_board_move_its_edge_and_are_refused() {
    let Some((mut img, r, _)) = web_page_and_empty_point() else {
        return;
    };
    let g = r.geometry;
    let ts = g.pitch();
    let grid = super::web_theme::WEB_LIGHT.grid;
    for row in 1..r.puzzle.rows {
        let y = (g.board.y + row as f64 * ts).round() as u32;
        for x in (g.board.x - ts).round() as u32..g.board.x.round() as u32 {
            img.put_pixel(x, y, Rgba([grid[0], grid[1], grid[2], 255]));
        }
    }
    match recognize(&img) {
        Err(Error::Vision {
            region: Some(reg),
            message,
        }) => {
            assert!(message.contains("col 0"), "{message}");
            assert!(
                (reg.x as f64 + reg.w as f64 / 2.0) < g.board.x,
                "{message}: {reg:?}"
            );
        }
        other => panic!("expected a refusal in the column past the board, got {other:?}"),
    }
}

/// A project capture of a 10×10 Bridges board, partly solved, at 40 px tiles.
fn bridges_fixture() -> RgbaImage {
    let p =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hashi/bridges_10x10_partial_ts40.png");
    image::open(p).unwrap().to_rgba8()
}

/// Rescaled by Lanczos, a ring line spreads over partly dark pixels on both sides (at 1.35× a
/// 4 px line crossed seven pixels past the ink test) and the first row of the ring's top can
/// hold a lone pixel just past the test, off its centre. The ring's top and width, as the
/// lattice search starts from them, still hold at every size: the top within a pixel of the
/// island's centre, and the tile sizes the width allows around the copy's tile size.
#[test]
fn a_rescaled_ring_top_is_centred_and_its_width_allows_the_tile_size() {
    use super::sgt_lattice::{sgt_top_ring, tile_sizes};
    let img = bridges_fixture();
    let r = recognize(&img).unwrap();
    let b = r.geometry.board;
    // Row-major: the first island is the leftmost of the top row, whose ring is the top ink.
    let top = r.puzzle.islands[0].at;
    let centre = r.geometry.centre(top.row, top.col);
    for percent in (105..=200).step_by(5) {
        let s = percent as f64 / 100.0;
        let size = |v: u32| (v as f64 * s).round() as u32;
        let big = image::imageops::resize(
            &img,
            size(img.width()),
            size(img.height()),
            image::imageops::FilterType::Lanczos3,
        );
        // A picture point's place in the copy (pixel centres line up).
        let to = |v: f64| (v + 0.5) * s - 0.5;
        let canvas = (
            to(b.x).round() as i64,
            to(b.y).round() as i64,
            (b.w * s).round() as i64,
            (b.h * s).round() as i64,
        );
        let ((x, _), thick) = sgt_top_ring(&big, canvas).unwrap();
        assert!((x - to(centre.x)).abs() <= 1.0, "{percent}%: top at {x}");
        let ts = r.geometry.pitch() * s;
        assert!(tile_sizes(thick).contains(&ts), "{percent}%: width {thick}");
    }
}

/// A canvas-only thumbnail (a website's picture of the game, 11–14 px tiles and no window
/// around) saved as JPEG: the codec rings a few levels either way all through the border
/// band, which at this size is narrower than one of its blocks. Every copy is read right or
/// refused: the blended area can stop inside the canvas, and a board snapped to it once read
/// as 8×7 of the 10×10 with every outer line holding an island (31 % at q80), so rings on the
/// lattice beyond the board refuse it. Some copies read only on the 3×3 block means.
#[test]
fn a_canvas_only_thumbnail_saved_as_jpeg_reads_right_or_is_refused() {
    use super::sgt_snapped::locate_sgt_snapped;
    use crate::vision::test_pictures::jpeg_copy;
    use image::imageops::FilterType::{Lanczos3, Triangle};
    let (canvas, r) = fixture_canvas();
    let (mut read, mut only_smoothed) = (0, 0);
    for percent in 30..=40 {
        for filter in [Lanczos3, Triangle] {
            let (w, h) = (
                canvas.width() * percent / 100,
                canvas.height() * percent / 100,
            );
            let thumb = image::imageops::resize(&canvas, w, h, filter);
            for q in [20, 50, 80] {
                let copy = jpeg_copy(&thumb, q);
                if let Ok(got) = recognize(&copy) {
                    assert_eq!(seen(&got), seen(&r), "{percent}% {filter:?} q{q}");
                    read += 1;
                    only_smoothed += usize::from(locate_sgt_snapped(&copy).is_none());
                }
            }
        }
    }
    assert!(
        read >= 50 && only_smoothed >= 3,
        "{read} read, {only_smoothed} smoothed"
    );
}

/// The fixture's canvas alone, cropped from the capture, and the capture's reading.
fn fixture_canvas() -> (RgbaImage, Reading) {
    let img = bridges_fixture();
    let r = recognize(&img).unwrap();
    let b = r.geometry.board;
    let canvas = image::imageops::crop_imm(
        &img,
        b.x.round() as u32,
        b.y.round() as u32,
        b.w.round() as u32,
        b.h.round() as u32,
    )
    .to_image();
    (canvas, r)
}

/// The fixture's canvas alone, shrunk by Lanczos to `percent` %: a website's thumbnail of
/// the game (35 % gives 14 px tiles and digits 7 px tall).
fn thumbnail(percent: u32) -> (RgbaImage, Reading) {
    let (canvas, r) = fixture_canvas();
    let (w, h) = (
        canvas.width() * percent / 100,
        canvas.height() * percent / 100,
    );
    let thumb = image::imageops::resize(&canvas, w, h, image::imageops::FilterType::Lanczos3);
    (thumb, r)
}

/// Doubling every pixel doubles the ring's anti-aliased inner edge too. Frames of a Bridges
/// demo at 32 px tiles draw the ring about a pixel further in than the app; at a fixed 1.5 px
/// from the ring, their copies doubled by box averaging cut its edge into slivers beside the
/// digit ("12 glyphs where a number should be"). An island with no number drawn, at 32 px
/// tiles and doubled, has no glyph in its digit disc.
#[test]
fn a_doubled_ring_leaves_no_ink_in_its_digit_disc() {
    use super::digits::glyphs_in_disc;
    use super::sgt_canvas::{sgt_ink, SGT_LINE, SGT_RING_OUTER};
    use super::sgt_lattice::digit_radius;
    let ts = 32.0;
    let (outer, inner) = (SGT_RING_OUTER * ts, (SGT_RING_OUTER - SGT_LINE) * ts - 1.0);
    let c = 1.5 * ts;
    // Each pixel's ink share, from 4×4 samples.
    let island = RgbaImage::from_fn(3 * ts as u32, 3 * ts as u32, |x, y| {
        let inked = (0..16)
            .filter(|k| {
                let sx = x as f64 + (k % 4) as f64 / 4.0 + 0.125 - c;
                let sy = y as f64 + (k / 4) as f64 / 4.0 + 0.125 - c;
                (inner..=outer).contains(&sx.hypot(sy))
            })
            .count() as f64
            / 16.0;
        let inside = (x as f64 + 0.5 - c).hypot(y as f64 + 0.5 - c) < inner;
        let paper = if inside { 255.0 } else { 213.0 };
        let v = (paper * (1.0 - inked)).round() as u8;
        Rgba([v, v, v, 255])
    });
    let doubled = image::imageops::resize(
        &island,
        2 * island.width(),
        2 * island.height(),
        image::imageops::FilterType::Nearest,
    );
    let centre = 2.0 * c - 0.5;
    assert!(glyphs_in_disc(&island, (c - 0.5, c - 0.5), digit_radius(ts), sgt_ink).is_empty());
    let cuts = glyphs_in_disc(&doubled, (centre, centre), digit_radius(2.0 * ts), sgt_ink);
    assert!(cuts.is_empty(), "{} glyphs", cuts.len());
}

/// An enlarged copy of a thumbnail spreads its 7 px digits over more pixels without adding
/// detail: scored as digits of the copy's height, the right ones fell under "no confidence".
/// The rings' edges tell the enlargement (about 1 on the thumbnail, close to the factor on
/// bilinear copies), and the digits are scored at the height they were drawn at, not under
/// 8 px. Every copy reads right or is refused, and most read.
#[test]
fn an_enlarged_thumbnail_reads_as_the_thumbnail_or_is_refused() {
    use super::sgt_blur::enlargement;
    use image::imageops::FilterType::Triangle;
    let (thumb, r) = thumbnail(35);
    let rings = |img: &RgbaImage| {
        let l = locate(img).unwrap();
        let centres: Vec<(f64, f64)> = l
            .islands
            .iter()
            .map(|f| {
                let c = l.geometry.centre(f.at.row, f.at.col);
                (c.x, c.y)
            })
            .collect();
        enlargement(img, &centres, l.geometry.pitch())
    };
    assert_eq!(rings(&thumb), 1.0);
    assert_eq!(seen(&recognize(&thumb).unwrap()), seen(&r));
    let mut read = 0;
    for percent in (150..=200).step_by(10) {
        let size = |v: u32| v * percent / 100;
        let big =
            image::imageops::resize(&thumb, size(thumb.width()), size(thumb.height()), Triangle);
        let e = rings(&big);
        assert!(
            e > 1.0 && e <= percent as f64 / 100.0 + 0.1,
            "{percent}%: enlargement {e}"
        );
        if let Ok(got) = recognize(&big) {
            assert_eq!(seen(&got), seen(&r), "{percent}%");
            read += 1;
        }
    }
    assert!(read >= 4, "{read} of 6 read");
}

/// A copy shrunk and then enlarged again (a shared copy of a shared copy) blurs a 3 into its
/// spine, which reads as a 1, and a double bridge into one wide line: each is read right or
/// refused naming why, never read as another board.
#[test]
fn a_copy_resampled_twice_reads_right_or_is_refused() {
    use crate::vision::test_pictures::resampled_twice as twice;
    use image::imageops::FilterType::{CatmullRom, Lanczos3, Triangle};
    let right_or_refused = |img: &RgbaImage, name: &str, copy: RgbaImage, why: &str| {
        let truth = seen(&recognize(img).unwrap());
        match recognize(&copy) {
            Ok(r) => assert_eq!(seen(&r), truth, "{name}"),
            Err(e) => assert!(e.to_string().contains(why), "{name}: {e}"),
        }
    };
    // The project's own 25×25 capture at 20 px tiles, through 10 px tiles: its double
    // bridges were read as single ones, the lines' gap blurred shut where it was looked at.
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/hashi/sizes/bridges_25x25_solved_ts20.png");
    let solved = image::open(&path).unwrap().to_rgba8();
    for (grow, filter) in [(1.5, Triangle), (1.4, CatmullRom), (1.1, Lanczos3)] {
        right_or_refused(
            &solved,
            &format!("25x25 solved, 0.5× then {grow}× {filter:?}"),
            twice(&solved, 0.5, grow, filter),
            "too wide for one bridge",
        );
    }
    // Numbers whose thin strokes faded under the ink test, so a 3 read as a 1.
    let Some(all) = corpus() else { return };
    for (name, shrink, grow, filter) in [
        ("bridges_01_7x7_fresh_ts24.png", 0.4, 1.25, Triangle),
        ("hashi_E0001_light_1280x900_fresh.png", 0.4, 1.3, Lanczos3),
        ("hashi_H0123_dark_1920x1080_fresh.png", 0.4, 1.55, Lanczos3),
    ] {
        let (_, img, _) = all.iter().find(|(n, _, _)| n == name).unwrap();
        right_or_refused(
            img,
            name,
            twice(img, shrink, grow, filter),
            "at a fainter ink level",
        );
    }
}

/// At 16 px tiles the Bridges app draws a "10" in its smaller face, its 0 three pixels wide and
/// as like a 6, 8 or 9: of the numbers it may be (10, 16; 18 and 19 no island can take), only
/// 10 makes a puzzle with a solution, so the board reads exactly (it was refused as
/// uncertain).
#[test]
fn a_two_digit_number_too_small_to_tell_is_settled_by_the_puzzle() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hashi/sizes");
    let img = image::open(dir.join("bridges_20x15m3_fresh_ts16.png"))
        .unwrap()
        .to_rgba8();
    let id = "20x15m3:a3a6f5h44g5b4d2f5m5y9d5d2ze3f3b2u3h3b5i7e4d3c4y7b8jAd7u1a5a6b6c6a7c1a5r3";
    let truth = crate::games::hashi::format::parse(id, "test").unwrap();
    let read = recognize(&img).unwrap();
    assert_eq!(read.puzzle.rows(), truth.rows());
    assert_eq!(read.puzzle.max_bridges, 3);
}
