use super::truth::{clone_fixtures, corpus_app_screens, corpus_screenshots, differences, Known};
use super::*;
use crate::vision::test_pictures::jpeg_copy;

fn check_all(known: &[Known], transform: impl Fn(RgbaImage) -> RgbaImage) -> Vec<String> {
    let mut failures = Vec::new();
    for k in known {
        let name = k.path.file_name().unwrap().to_string_lossy().to_string();
        if k.rows.is_none() {
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

#[test]
fn clone_fixtures_read_the_same_as_jpeg() {
    let failures = check_all(&clone_fixtures(), |i| jpeg_copy(&i, 90));
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn every_corpus_screenshot_with_a_known_grid_reads_exactly() {
    let known = corpus_screenshots();
    if known.is_empty() {
        eprintln!("SKIPPED: corpus flow/screenshots not found (set AUTOPLAYER_CORPUS)");
        return;
    }
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
