//! `play --solution`: the answer drawn over the capture, through the real binary. The picture
//! has the capture's size, differs from it only inside the board the play report names, and
//! the mouse is never touched.

use crate::support::command::run_expecting as run;
use image::RgbaImage;
use std::path::Path;

/// Runs `play GAME --image PICTURE --solution` and checks the picture against the capture and
/// the board of the play report; returns how many pixels inside the board changed.
fn solution_differs_only_on_the_board(game: &str, picture: &Path, extra: &[&str]) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("solved.png");
    let mut args = vec![
        "play",
        game,
        "--image",
        picture.to_str().unwrap(),
        "--dry-run",
        "--json",
        "--solution",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let report = run(&args, "", 0).json();
    assert_eq!(report["played"], false, "{report}");
    let board = &report["plan"]["board"];
    let [x, y, w, h] = ["x", "y", "w", "h"].map(|k| board[k].as_i64().unwrap());
    let capture: RgbaImage = autoplayer::screen::read_picture(picture).unwrap();
    let solved = image::open(&out).unwrap().to_rgba8();
    assert_eq!(
        solved.dimensions(),
        capture.dimensions(),
        "{}",
        picture.display()
    );
    let mut inside = 0;
    for (px, py, p) in solved.enumerate_pixels() {
        let (px, py) = (px as i64, py as i64);
        let on_board = px >= x && py >= y && px < x + w && py < y + h;
        if p != capture.get_pixel(px as u32, py as u32) {
            assert!(
                on_board,
                "{}: ({px}, {py}) changed outside the board",
                picture.display()
            );
            inside += 1;
        }
    }
    inside
}

fn fixture(game: &str, name: &str) -> std::path::PathBuf {
    crate::support::fixture(game, name)
}

#[test]
fn solution_pictures_of_every_game_change_only_the_board() {
    for (game, picture, extra) in [
        (
            "flow",
            fixture("flow", "clone/clone_5x5_partial_700x800.png"),
            &[][..],
        ),
        (
            "hashi",
            fixture("hashi", "bridges_10x10_partial_ts40.png"),
            &[],
        ),
        (
            "loop",
            fixture(
                "loop",
                "sizes/loop_2026-02-23_easy_control_dark_280x600_partial.png",
            ),
            &[],
        ),
        (
            "enclose",
            fixture("enclose", "page/2026-01-16_classic_1600x1000_fresh.png"),
            &[],
        ),
    ] {
        let changed = solution_differs_only_on_the_board(game, &picture, extra);
        assert!(changed > 100, "{game}: only {changed} pixels drawn");
    }
}

#[test]
fn solution_picture_of_a_phone_screenshot_with_an_ad() {
    let Some(dir) = autoplayer::corpus::path("flow/screenshots") else {
        return;
    };
    let shot = dir.join("codebenaiah_Screenshot_20240222-141255.jpg");
    assert!(solution_differs_only_on_the_board("flow", &shot, &[]) > 1000);
}

#[test]
fn solution_for_an_unsolvable_board_writes_nothing_and_keeps_exit_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("solved.png");
    // The page's level with a budget of one wall: the horse cannot be penned.
    let run = run(
        &[
            "play",
            "enclose",
            "--image",
            fixture("enclose", "page/2026-01-16_classic_1600x1000_fresh.png")
                .to_str()
                .unwrap(),
            "--budget",
            "1",
            "--solution",
            out.to_str().unwrap(),
        ],
        "",
        1,
    );
    assert!(run.stderr.contains("no answer to draw"), "{}", run.stderr);
    assert!(!out.exists());
}
