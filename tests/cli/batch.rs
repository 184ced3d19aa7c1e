//! Many files in one process: `scan` and `solve` given several inputs or a list report each
//! in order, go on past a bad one, and exit with the worst outcome.

use crate::support::command::{run_expecting as run, TestCommand};
use crate::support::fixture;

fn path(game: &str, name: &str) -> String {
    fixture(game, name).display().to_string()
}

#[test]
fn solve_reports_every_file_in_order_and_names_the_bad_one() {
    let good = path("flow", "standard_5x5.flow");
    let wrong_game = path("loop", "daily_2026-01-01_hard.loop");
    let missing = "no/such/puzzle.flow".to_string();
    let out = run(
        &[
            "solve",
            "flow",
            &good,
            &wrong_game,
            &missing,
            &good,
            "--json",
        ],
        "",
        2,
    );
    let lines: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| out.fail(&format!("{e}: {l}"))))
        .collect();
    let files: Vec<&str> = lines.iter().map(|v| v["file"].as_str().unwrap()).collect();
    assert_eq!(files, [&good, &wrong_game, &missing, &good]);
    let statuses: Vec<&str> = lines
        .iter()
        .map(|v| v["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["solved", "error", "error", "solved"]);
    assert!(lines[2]["error"].as_str().unwrap().contains("no/such"));
    assert_eq!(lines[0]["paths"], lines[3]["paths"]);
    assert!(out.stderr.contains("4 files: 2 solved, 2 failed"), "{out}");
}

#[test]
fn solve_takes_a_list_on_standard_input_and_writes_a_file_per_puzzle() {
    let dir = std::env::temp_dir().join(format!("autoplayer-batch-{}", std::process::id()));
    let list = format!(
        "{}\n\n{}\n",
        path("enclose", "lovebirds.enclose"),
        path("enclose", "portal_pen.enclose")
    );
    let out = TestCommand::autoplayer()
        .args(["solve", "enclose", "--list", "-", "-o"])
        .arg(&dir)
        .stdin(list)
        .run();
    out.assert_success();
    for name in ["lovebirds", "portal_pen"] {
        let single = run(
            &[
                "solve",
                "enclose",
                &path("enclose", &format!("{name}.enclose")),
            ],
            "",
            0,
        );
        let kept = std::fs::read_to_string(dir.join(format!("{name}.solution")))
            .unwrap_or_else(|e| out.fail(&format!("{name}.solution: {e}")));
        // The same answer; only the time it took may differ.
        let untimed = |t: &str| -> Vec<String> {
            t.lines()
                .map(|l| {
                    l.split(", ")
                        .filter(|p| !p.ends_with(" ms"))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .collect()
        };
        assert_eq!(untimed(&kept), untimed(&single.stdout), "{name}");
        assert!(
            out.stdout.contains(&format!("{name}.enclose: optimal")),
            "{out}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn scan_reads_names_from_standard_input_and_keeps_a_puzzle_per_picture() {
    let dir = std::env::temp_dir().join(format!("autoplayer-batch-scan-{}", std::process::id()));
    let pictures = [
        "bridges_10x10_fresh_ts16.png",
        "bridges_12x8_fresh_ts18.png",
    ];
    let list: String = pictures
        .iter()
        .map(|p| path("hashi/sizes", p) + "\n")
        .collect();
    let out = TestCommand::autoplayer()
        .args(["scan", "hashi", "-", "--json", "-o"])
        .arg(&dir)
        .stdin(list)
        .run();
    out.assert_success();
    assert_eq!(out.stdout.lines().count(), 2, "{out}");
    for p in pictures {
        let single = run(&["scan", "hashi", &path("hashi/sizes", p)], "", 0);
        let stem = p.trim_end_matches(".png");
        let kept = std::fs::read_to_string(dir.join(format!("{stem}.hashi")))
            .unwrap_or_else(|e| out.fail(&format!("{stem}.hashi: {e}")));
        assert_eq!(kept, single.stdout, "{p}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn one_puzzle_on_standard_input_still_solves_alone() {
    let text = std::fs::read_to_string(fixture("flow", "standard_5x5.flow")).unwrap();
    let out = run(&["solve", "flow", "-", "--json"], &text, 0);
    assert_eq!(out.json()["status"], "solved");
    run(&["solve", "flow", "-", "-"], &text, 2).assert_code(2);
}
