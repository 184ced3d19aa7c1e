use super::truth::{
    clone_fixtures, corpus_app_screens, corpus_screenshots, differences, sizes_fixtures, Known,
};
use super::*;
use crate::vision::test_pictures::{jpeg_copy, resampled_twice};
use image::imageops::FilterType;

fn check_all(known: &[Known], transform: impl Fn(RgbaImage) -> RgbaImage) -> Vec<String> {
    let mut failures = Vec::new();
    for k in known {
        let name = k.path.file_name().unwrap().to_string_lossy().to_string();
        if k.rows.is_none() && k.puzzle_file.is_none() {
            continue;
        }
        let img = transform(crate::screen::read_picture(&k.path).unwrap());
        match read(&img) {
            Ok(r) => {
                let d = differences(&r, k);
                eprintln!(
                    "{name}: conf {:.2} {}",
                    r.confidence,
                    if d.is_empty() { "exact" } else { "DIFFERS" }
                );
                if !d.is_empty() {
                    failures.push(format!("{name}: {}", d.join("; ")));
                }
            }
            Err(e) => {
                eprintln!("{name}: refused: {e}");
                failures.push(format!("{name}: refused: {e}"));
            }
        }
    }
    failures
}

#[test]
fn every_clone_fixture_reads_exactly_with_its_pipes() {
    let known = clone_fixtures();
    assert_eq!(known.len(), 9);
    let failures = check_all(&known, |i| i);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Windows from 360×640 to full screen, boards 6×6 to 14×14, fresh and with pipes drawn
/// (whole flows and ones stopped part way).
#[test]
fn every_capture_at_every_window_size_reads_exactly_with_its_pipes() {
    let known = sizes_fixtures();
    assert_eq!(known.len(), 11);
    assert!(known.iter().filter(|k| !k.drawn.is_empty()).count() >= 5);
    let failures = check_all(&known, |i| i);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn clone_fixtures_read_the_same_as_jpeg() {
    let failures = check_all(&clone_fixtures(), |i| jpeg_copy(&i, 90));
    assert!(failures.is_empty(), "{failures:#?}");
}

/// An enlarged copy (a denser screen) draws lines wider than the reader's reach; it is read on
/// a shrunk copy and must come out the same.
#[test]
fn clone_fixtures_read_the_same_enlarged() {
    for scale in [1.5, 2.0] {
        let failures = check_all(&clone_fixtures(), |i| {
            let (w, h) = (i.width() as f64 * scale, i.height() as f64 * scale);
            image::imageops::resize(&i, w as u32, h as u32, FilterType::Lanczos3)
        });
        assert!(failures.is_empty(), "{scale}×: {failures:#?}");
    }
}

#[test]
fn clone_fixtures_read_the_same_as_low_quality_jpeg() {
    let failures = check_all(&clone_fixtures(), |i| jpeg_copy(&i, 20));
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn every_corpus_screenshot_with_a_known_puzzle_reads_exactly() {
    let known = corpus_screenshots();
    if known.is_empty() {
        eprintln!("SKIPPED: corpus flow/screenshots not found (set AUTOPLAYER_CORPUS)");
        return;
    }
    // The hex one included: its puzzle is a file, compared cell place by cell place.
    assert!(known
        .iter()
        .any(|k| k.rows.is_none() && k.puzzle_file.is_some()));
    let failures = check_all(&known, |i| i);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn every_capture_of_the_other_web_clone_reads_exactly() {
    let known = corpus_app_screens();
    if known.is_empty() {
        eprintln!("SKIPPED: corpus flow/app-screens not found (set AUTOPLAYER_CORPUS)");
        return;
    }
    assert_eq!(known.len(), 7);
    let failures = check_all(&known, |i| i);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_hex_puzzle_file_gives_the_rows_the_hex_screenshot_reads() {
    let Some(hex) = corpus_screenshots()
        .into_iter()
        .find(|k| k.rows.is_none() && k.puzzle_file.is_some())
    else {
        eprintln!("SKIPPED: corpus flow/screenshots not found (set AUTOPLAYER_CORPUS)");
        return;
    };
    let rows = super::truth::rows_from_file(hex.puzzle_file.as_ref().unwrap()).unwrap();
    // The file lowers its odd columns; in the level packs' rows the even ones are lower.
    assert_eq!(rows[4], "#C#E#");
    let reading = read(&crate::screen::read_picture(&hex.path).unwrap()).unwrap();
    let by_rows = Known {
        rows: Some(rows),
        puzzle_file: None,
        ..hex
    };
    assert_eq!(differences(&reading, &by_rows), Vec::<String>::new());
}

/// A 5-wide, 6-high board with two holes and three pairs, `extra` another disc of the first
/// pair's colour.
fn synthetic(extra: Option<(u32, u32)>) -> RgbaImage {
    use imageproc::drawing::draw_filled_circle_mut;
    let mut img = super::board::tests::grid((330, 400), (40, 40), 50, 6, 5, &[(0, 0), (5, 4)]);
    let red = image::Rgba([240, 20, 20, 255]);
    let mut discs = vec![
        ((0, 1), red),
        ((3, 3), red),
        ((1, 1), image::Rgba([20, 40, 250, 255])),
        ((4, 0), image::Rgba([20, 40, 250, 255])),
        ((2, 2), image::Rgba([20, 160, 20, 255])),
        ((5, 3), image::Rgba([20, 160, 20, 255])),
    ];
    if let Some(at) = extra {
        discs.push((at, red));
    }
    for ((r, c), colour) in discs {
        let centre = (40 + 50 * c as i32 + 25, 40 + 50 * r as i32 + 25);
        draw_filled_circle_mut(&mut img, centre, 17, colour);
    }
    img
}

#[test]
fn holes_read_as_holes_and_pairs_by_colour() {
    let r = read(&synthetic(None)).unwrap();
    assert_eq!(
        r.rows(),
        vec!["#A...", ".B...", "..C..", "...A.", "B....", "...C#"]
    );
    assert_eq!(r.puzzle.cells.len(), 28);
    assert!(r.drawn.is_empty());
    assert!(r.confidence >= MIN_CONFIDENCE);
    let c = r.centres[r.puzzle.cell_at(1, 1).unwrap()];
    assert!(
        (c.x - 115.0).abs() < 1.0 && (c.y - 115.0).abs() < 1.0,
        "{c:?}"
    );
}

#[test]
fn a_third_endpoint_of_one_colour_is_refused_naming_a_cell() {
    let err = read(&synthetic(Some((4, 2)))).unwrap_err().to_string();
    assert!(err.contains("endpoint at cell ("), "{err}");
    assert!(err.starts_with("region "), "{err}");
}

/// The five-column hex board of the hex reader's tests with three pairs, and a red pipe from
/// (0, 0) down its column, across its row and up a diagonal to (0, 2).
fn synthetic_hex() -> RgbaImage {
    use imageproc::drawing::draw_filled_circle_mut;
    let mut cells = Vec::new();
    for c in 0..5usize {
        let ks: Vec<i64> = if c % 2 == 1 {
            vec![0, 2, 4, 6, 8]
        } else {
            vec![1, 3, 5, 7]
        };
        cells.extend(ks.into_iter().map(|k| (c, k)));
    }
    let mut img = super::hex::tests::hexes((500, 600), (80.0, 100.0), 40.0, &cells);
    let half = 20.0 * 3.0_f64.sqrt();
    // Rows as the level packs count them: even columns half a row lower.
    let centre = |r: usize, c: usize| {
        let k = 2 * r + usize::from(c.is_multiple_of(2));
        (80.0 + 60.0 * c as f64, 100.0 + half * k as f64)
    };
    let red = image::Rgba([240, 20, 20, 255]);
    let pipe = [(0, 0), (1, 0), (1, 1), (0, 2)];
    for w in pipe.windows(2) {
        let (a, b) = (centre(w[0].0, w[0].1), centre(w[1].0, w[1].1));
        for i in 0..=40 {
            let t = i as f64 / 40.0;
            let p = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            draw_filled_circle_mut(&mut img, (p.0 as i32, p.1 as i32), 9, red);
        }
    }
    let discs = [
        ((0, 0), red),
        ((3, 2), red),
        ((0, 3), image::Rgba([20, 40, 250, 255])),
        ((4, 1), image::Rgba([20, 40, 250, 255])),
        ((1, 4), image::Rgba([20, 160, 20, 255])),
        ((2, 1), image::Rgba([20, 160, 20, 255])),
    ];
    for ((r, c), colour) in discs {
        let (x, y) = centre(r, c);
        draw_filled_circle_mut(&mut img, (x as i32, y as i32), 23, colour);
    }
    img
}

#[test]
fn a_hex_board_reads_its_endpoints_and_a_pipe_along_every_kind_of_link() {
    let r = read(&synthetic_hex()).unwrap();
    assert_eq!(r.puzzle.variant, crate::games::flow::model::Variant::Hex);
    assert_eq!(r.rows(), vec!["A..B.", "....C", ".C...", "..A..", "#B#.#"]);
    let cells: Vec<[usize; 2]> = r.drawn[0]
        .cells
        .iter()
        .map(|&k| [r.puzzle.cells[k].row, r.puzzle.cells[k].col])
        .collect();
    assert_eq!(r.drawn.len(), 1);
    assert_eq!(cells, vec![[0, 0], [1, 0], [1, 1], [0, 2]]);
    assert!(r.confidence >= MIN_CONFIDENCE);
}

/// The clone's 5×5 capture with the red pipe drawn from (0, 0) to its other endpoint at
/// (4, 1); that endpoint painted over with the board's black, so the pipe runs into a cell
/// where no disc is read.
#[test]
fn a_pipe_running_into_a_cell_without_a_disc_is_refused_naming_that_cell() {
    use imageproc::drawing::draw_filled_circle_mut;
    let known = clone_fixtures();
    let k = known
        .iter()
        .find(|k| k.path.ends_with("clone_5x5_partial_700x800.png"))
        .expect("the 5×5 partial capture");
    let mut img = crate::screen::read_picture(&k.path).unwrap();
    let before = read(&img).unwrap();
    let at = before.geometry.centre(4, 1);
    let pitch = before.geometry.pitch();
    assert!(before.rows()[4]
        .chars()
        .nth(1)
        .unwrap()
        .is_ascii_alphabetic());
    draw_filled_circle_mut(
        &mut img,
        (at.x as i32, at.y as i32),
        (0.38 * pitch) as i32,
        image::Rgba([0, 0, 0, 255]),
    );
    let err = read(&img).unwrap_err().to_string();
    assert!(err.contains("cell (4, 1)"), "{err}");
    assert!(err.contains("neither a disc nor a pipe"), "{err}");
    let cell = before.geometry.cell(4, 1);
    let x = err
        .strip_prefix("region x=")
        .and_then(|t| t.split(' ').next())
        .and_then(|t| t.parse::<f64>().ok())
        .expect("the refusal names a region");
    assert!((x - cell.x).abs() <= 2.0, "{err}");
}

/// A blot of a flow's paint at a cell's middle, not round (so no disc) and short of the
/// cell's edges (so no pipe).
#[test]
fn paint_at_a_cell_that_is_neither_disc_nor_pipe_is_refused_naming_it() {
    use imageproc::drawing::draw_filled_rect_mut;
    use imageproc::rect::Rect;
    let mut img = synthetic(None);
    let red = image::Rgba([240, 20, 20, 255]);
    // Cell (2, 4): centre (265, 165); a plus 8 px wide, 30 px long (pitch 50), so the disc
    // ring (12 px out) sees it at 4 of its 16 samples.
    draw_filled_rect_mut(&mut img, Rect::at(250, 161).of_size(30, 8), red);
    draw_filled_rect_mut(&mut img, Rect::at(261, 150).of_size(8, 30), red);
    let err = read(&img).unwrap_err().to_string();
    assert!(err.contains("cell (2, 4): paint"), "{err}");
    assert!(err.contains("neither an endpoint disc nor a pipe"), "{err}");
}

/// The confidence counts the "bare" calls: a cell whose middle is faintly tinted, short of
/// paint, pulls it under 1 while every disc and edge stays plain.
#[test]
fn a_faint_blot_lowers_the_confidence_through_the_bare_call() {
    use imageproc::drawing::draw_filled_rect_mut;
    use imageproc::rect::Rect;
    let plain = read(&synthetic(None)).unwrap();
    let mut img = synthetic(None);
    // 50 off the black background: past the plainly bare 35, short of paint at 70.
    draw_filled_rect_mut(
        &mut img,
        Rect::at(255, 155).of_size(20, 20),
        image::Rgba([50, 0, 0, 255]),
    );
    let faint = read(&img).unwrap();
    assert!(
        faint.confidence < plain.confidence,
        "{} {}",
        faint.confidence,
        plain.confidence
    );
    assert!(faint.confidence < 0.7, "{}", faint.confidence);
}

/// A capture shrunk to 18 px cells and enlarged again (a shared copy of a shared copy) lost
/// its outer column, along which a pipe runs: the 6×6 board was read as 6×5, the pipe ending
/// at the lattice's edge. A pipe's head whose paint runs on where no board cell is read is
/// refused; every such copy reads right or is refused.
#[test]
fn a_pipe_running_on_past_the_board_read_is_refused() {
    let known = sizes_fixtures();
    let k = known
        .iter()
        .find(|k| k.path.ends_with("flow_6x6_partial_400x700.png"))
        .expect("the 6×6 capture is among the fixtures");
    let img = crate::screen::read_picture(&k.path).unwrap();
    let mut refused = 0;
    for grow in [1.05, 1.4, 1.5, 1.8] {
        let copy = resampled_twice(&img, 0.3, grow, FilterType::Triangle);
        match read(&copy) {
            Ok(r) => assert!(differences(&r, k).is_empty(), "0.3× then {grow}×"),
            Err(e) => refused += e.to_string().contains("runs on where no board cell") as usize,
        }
    }
    assert!(refused >= 1, "no copy refused for the pipe running on");
}
