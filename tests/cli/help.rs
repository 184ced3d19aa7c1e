//! Help that shows how: every subcommand's `--help` opens with its own description and ends
//! with examples that name it.

use crate::support::command::run_expecting as run;

#[test]
fn every_subcommand_help_has_an_example_of_itself() {
    for sub in ["capture", "scan", "solve", "play"] {
        let out = run(&[sub, "--help"], "", 0);
        let examples = out
            .stdout
            .split("Examples:")
            .nth(1)
            .unwrap_or_else(|| out.fail(&format!("{sub} --help has no examples")));
        assert!(
            examples.contains(&format!("autoplayer {sub} ")),
            "{sub}: {examples}"
        );
    }
    let play = run(&["play", "--help"], "", 0);
    assert!(play.stdout.contains("screen corner"), "{}", play.stdout);
}

/// Each subcommand's `--help` opens with the description the command list gives it, not with
/// the text of an option group it takes in (its arguments are built only when it is named).
#[test]
fn every_subcommand_help_opens_with_its_own_description() {
    let top = run(&["--help"], "", 0);
    let listed: Vec<(&str, &str)> = top
        .stdout
        .split("Commands:")
        .nth(1)
        .unwrap_or_else(|| top.fail("no command list"))
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.trim().split_once(' '))
        .map(|(sub, about)| (sub, about.trim()))
        .filter(|(sub, _)| *sub != "help")
        .collect();
    assert_eq!(listed.len(), 5, "{}", top.stdout);
    for (sub, about) in listed {
        let out = run(&[sub, "--help"], "", 0);
        let first = out.stdout.lines().next().unwrap_or_default();
        assert!(
            first.starts_with(about),
            "{sub}: {first:?} is not {about:?}"
        );
    }
}

/// `--series` and its options are checked before anything is captured or moved.
#[test]
fn series_arguments_are_checked_before_play() {
    let r = run(&["play", "hashi", "--series", "0"], "", 2);
    assert!(r.stderr.contains("--series 0"), "{}", r.stderr);
    let r = run(
        &["play", "hashi", "--series", "2", "--next-at", "east"],
        "",
        2,
    );
    assert!(r.stderr.contains("--next-at"), "{}", r.stderr);
    run(&["play", "hashi", "--next-at", "3,4"], "", 2);
    run(
        &["play", "hashi", "--series", "2", "--image", "board.png"],
        "",
        2,
    );
    let help = run(&["play", "--help"], "", 0);
    assert!(help.stdout.contains("Esc"), "{}", help.stdout);
}

/// The `autoplayer` binary that solves and scans needs no capture or input library (those are
/// in `autoplayer-desktop`, which it starts for `capture` and `play`), nor the system's maths
/// library (its functions come from `src/cmath.rs`), nor the shared unwinder (GCC's is linked
/// in, `build.rs`): each costs a short process its start-up.
#[test]
fn the_solving_binary_loads_no_desktop_library() {
    if !crate::support::installed(&["readelf"]) {
        return;
    }
    let out = std::process::Command::new("readelf")
        .args(["-d", env!("CARGO_BIN_EXE_autoplayer")])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let needed: Vec<&str> = text.lines().filter(|l| l.contains("(NEEDED)")).collect();
    assert!(!needed.is_empty(), "{text}");
    for lib in ["libxcb", "libgbm", "libwayland", "libm.so", "libgcc_s"] {
        assert!(
            !needed.iter().any(|l| l.contains(lib)),
            "{lib}: {needed:#?}"
        );
    }
    let desktop =
        std::path::Path::new(env!("CARGO_BIN_EXE_autoplayer")).with_file_name("autoplayer-desktop");
    assert!(
        desktop.exists(),
        "{} is not built beside autoplayer",
        desktop.display()
    );
}

/// `scan --help` lists every format `--to` takes, each under its game (written from the games
/// built, so a new format can't be left out of the help).
#[test]
fn scan_help_lists_every_games_formats() {
    let out = run(&["scan", "--help"], "", 0);
    let listed: Vec<&str> = out
        .stdout
        .split("Formats for --to")
        .nth(1)
        .unwrap_or_else(|| out.fail("scan --help lists no formats"))
        .lines()
        .collect();
    for (game, formats) in autoplayer::games::formats() {
        let first = listed
            .iter()
            .position(|l| l.split_whitespace().next() == Some(game))
            .unwrap_or_else(|| out.fail(&format!("no line for {game}")));
        // The game's block: its line, then the lines that name no game (its other formats).
        let block = listed[first..]
            .iter()
            .enumerate()
            .take_while(|&(i, l)| i == 0 || l.starts_with("           "))
            .map(|(_, l)| l.split_whitespace().collect::<Vec<_>>());
        let names: Vec<String> = block
            .map(|words| words[if words[0] == game { 1 } else { 0 }].to_string())
            .collect();
        let want: Vec<&str> = formats.iter().map(|f| f.name).collect();
        assert_eq!(names, want, "{game}: {:#?}", &listed);
    }
}
