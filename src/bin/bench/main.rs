//! `cargo run --release --bin bench -- [hashi|hashi-screen|enclose|enclose-screen|all]`: measures the issues' bars and
//! writes them into BENCHMARKS.md, each game in its own section.
//!
//! `cargo run --release --features milp --bin bench -- enclose-milp` cross-checks generated
//! enclose.horse optima with an independent MILP (not part of `all`: it needs the CBC library
//! and takes about half an hour).

mod enclose;
#[cfg(feature = "milp")]
mod enclose_milp;
mod enclose_screen;
mod flow;
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
    if which == "flow" || which == "all" {
        let section = flow::run(&corpus)?;
        report::write_section(&out, "flow", &section)?;
    }
    if which == "enclose-milp" {
        #[cfg(feature = "milp")]
        {
            let section = enclose_milp::run()?;
            report::write_section(&out, "enclose-milp", &section)?;
        }
        #[cfg(not(feature = "milp"))]
        {
            eprintln!(
                "enclose-milp needs the `milp` feature and the CBC library (scripts/install-deps.sh): \
                 cargo run --release --features milp --bin bench -- enclose-milp"
            );
            std::process::exit(2);
        }
    }
    let known = [
        "hashi",
        "hashi-screen",
        "enclose",
        "enclose-screen",
        "enclose-milp",
        "flow",
        "all",
    ];
    if !known.contains(&which.as_str()) {
        anyhow::bail!("unknown benchmark {which:?}: use {}", known.join(", "));
    }
    println!("wrote {}", out.display());
    Ok(())
}
