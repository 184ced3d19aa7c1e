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
