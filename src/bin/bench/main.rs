//! `cargo run --release --bin bench -- [hashi|hashi-screen|enclose|enclose-screen|all]`: measures the issues' bars and
//! writes them into BENCHMARKS.md, each game in its own section.

mod enclose;
mod enclose_screen;
mod hashi;
mod hashi_screen;
mod report;

use std::path::PathBuf;

fn main() -> anyhow::Result<()> {
    let which = std::env::args().nth(1).unwrap_or_else(|| "all".into());
    let corpus = report::corpus_dir();
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("BENCHMARKS.md");
    if which == "hashi" || which == "all" {
        let section = hashi::run(&corpus)?;
        report::write_section(&out, "hashi", &section)?;
    }
    if which == "hashi-screen" || which == "all" {
        let section = hashi_screen::run(&corpus)?;
        report::write_section(&out, "hashi-screen", &section)?;
    }
    if which == "enclose" || which == "all" {
        let section = enclose::run(&corpus)?;
        report::write_section(&out, "enclose", &section)?;
    }
    if which == "enclose-screen" || which == "all" {
        let section = enclose_screen::run(&corpus)?;
        report::write_section(&out, "enclose-screen", &section)?;
    }
    let known = ["hashi", "hashi-screen", "enclose", "enclose-screen", "all"];
    if !known.contains(&which.as_str()) {
        anyhow::bail!("unknown benchmark {which:?}: use {}", known.join(", "));
    }
    println!("wrote {}", out.display());
    Ok(())
}
