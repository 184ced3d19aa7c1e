//! Help that shows how: every subcommand's `--help` ends with examples that name it.

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

/// `scan --help` lists every format `--to` takes, each under its game, so a new format can't
/// be left out of the help.
#[test]
fn scan_help_lists_every_games_formats() {
    let out = run(&["scan", "--help"], "", 0);
    let listed = out
        .stdout
        .split("Formats for --to")
        .nth(1)
        .unwrap_or_else(|| out.fail("scan --help lists no formats"));
    for (game, formats) in autoplayer::games::formats() {
        let line = listed
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{game} ")))
            .unwrap_or_else(|| out.fail(&format!("no line for {game}")));
        for f in formats {
            assert!(
                line.contains(f.name),
                "{game}: {} missing from {line:?}",
                f.name
            );
        }
    }
}
