//! `auto` as the game: the picture says which game it shows, or that it shows none.

use crate::support::command::{play_refuses, run_expecting as run, TestCommand};
use image::{Rgba, RgbaImage};

/// Every picture of a corpus folder: the one game whose reader takes it is named, and a picture
/// its own game refuses is never taken for another game.
#[test]
fn every_corpus_screenshot_is_named_as_its_game() {
    let mut named = 0;
    for (game, folder) in [
        ("hashi", "hashi/app-screens"),
        ("hashi", "hashi/screenshots"),
        ("enclose", "enclose/screenshots"),
        ("enclose", "enclose/app-screens"),
        ("loop", "loop/screenshots"),
        ("flow", "flow/screenshots"),
        ("flow", "flow/app-screens"),
    ] {
        let Some(dir) = autoplayer::corpus::path(folder) else {
            return;
        };
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.extension()
                    .is_some_and(|e| e == "png" || e == "jpg" || e == "webp")
            })
            .collect();
        files.sort();
        for f in files {
            let file = f.to_str().unwrap();
            let own = TestCommand::autoplayer()
                .args(["scan", game, file, "--json"])
                .run();
            let auto = TestCommand::autoplayer()
                .args(["scan", "auto", file, "--json"])
                .run();
            match auto.code {
                Some(0) => {
                    let v: serde_json::Value = serde_json::from_str(&auto.stdout).unwrap();
                    assert_eq!(v["game"], game, "{file}");
                    named += 1;
                }
                Some(2) => assert_ne!(
                    own.code,
                    Some(0),
                    "{file}: {game} reads it but auto refused: {}",
                    auto.stderr
                ),
                other => panic!("{file}: exit {other:?}: {}", auto.stderr),
            }
        }
    }
    assert!(named >= 60, "only {named} named");
}

/// Pictures of no game (flat, gradient, noise, stripes, a checkerboard) are refused, exit 2.
#[test]
fn pictures_of_no_game_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut seed = 7u32;
    let mut noise = move || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 24) as u8
    };
    let pictures: Vec<(&str, RgbaImage)> = vec![
        (
            "flat",
            RgbaImage::from_pixel(800, 600, Rgba([40, 90, 160, 255])),
        ),
        (
            "gradient",
            RgbaImage::from_fn(800, 600, |x, y| {
                Rgba([(x / 4) as u8, (y / 3) as u8, 128, 255])
            }),
        ),
        (
            "noise",
            RgbaImage::from_fn(640, 480, |_, _| Rgba([noise(), noise(), noise(), 255])),
        ),
        (
            "stripes",
            RgbaImage::from_fn(800, 600, |x, _| {
                if x % 40 < 2 {
                    Rgba([200, 200, 200, 255])
                } else {
                    Rgba([30, 30, 30, 255])
                }
            }),
        ),
        (
            "checkerboard",
            RgbaImage::from_fn(800, 800, |x, y| {
                if (x / 50 + y / 50) % 2 == 0 {
                    Rgba([240, 240, 240, 255])
                } else {
                    Rgba([20, 20, 20, 255])
                }
            }),
        ),
    ];
    for (name, img) in pictures {
        let path = dir.path().join(format!("{name}.png"));
        img.save(&path).unwrap();
        let out = run(&["scan", "auto", path.to_str().unwrap()], "", 2);
        assert!(
            out.stderr.contains("no game recognised"),
            "{name}: {}",
            out.stderr
        );
        play_refuses("auto", &path);
    }
}

/// Pictures of other things (other games of Bridges' own collection, a desktop, web pages,
/// rendered patterns, photographs; `fixtures/unrelated/PROVENANCE.md`): every one is refused,
/// exit 2, with each reader's reason, and no plan is printed.
#[test]
fn unrelated_pictures_are_refused_with_a_reason() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/unrelated");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png" || e == "jpg"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 26, "{}", dir.display());
    for f in files {
        let file = f.to_str().unwrap();
        let out = run(&["scan", "auto", file], "", 2);
        assert!(
            out.stderr.contains("no game recognised")
                && ["hashi: ", "enclose: ", "loop: ", "flow: "]
                    .iter()
                    .all(|g| out.stderr.contains(g)),
            "{file}: {}",
            out.stderr
        );
        let play = run(&["play", "auto", "--image", file, "--dry-run"], "", 2);
        assert!(play.stdout.is_empty(), "{file}: a plan was printed");
    }
}

#[test]
fn solve_auto_is_a_usage_error() {
    let out = run(&["solve", "auto", "-"], "budget: 3\n~~~\n~H~\n~~~\n", 2);
    assert!(out.stderr.contains("name the game"), "{}", out.stderr);
}
