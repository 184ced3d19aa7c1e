//! `cargo run --release --bin bench -- [NAME|all]`: measures the issues' bars and writes them
//! into BENCHMARKS.md, each bench in its own section named after it. The benches are the table
//! below; `all` (the default) runs every one of [`BENCHES`].
//!
//! `cargo run --release --features milp --bin bench -- enclose-milp` cross-checks generated
//! enclose.horse optima with an independent MILP (not part of `all`: it needs the CBC library
//! and takes about half an hour).

mod batch;
mod bridges_tiles;
mod enclose;
#[cfg(feature = "milp")]
mod enclose_milp;
mod enclose_screen;
mod flow;
mod flow_screen;
mod hashi;
mod hashi_screen;
mod loop_screen;
mod loopgame;
mod report;
mod robustness;
mod solution_pictures;
mod startup;
mod sweep;
mod timeouts;

use std::path::{Path, PathBuf};

/// A bench's name on the command line and in BENCHMARKS.md, and what writes its section from
/// the corpus folder.
type Bench = (&'static str, fn(&Path) -> anyhow::Result<String>);

/// What `all` runs, in this order: a new bench adds its line here.
const BENCHES: &[Bench] = &[
    ("hashi", hashi::run),
    ("hashi-screen", hashi_screen::run),
    ("bridges-tiles", bridges_tiles::run),
    ("enclose", enclose::run),
    ("enclose-screen", enclose_screen::run),
    ("loop", loopgame::run),
    ("loop-screen", loop_screen::run),
    ("flow", flow::run),
    ("flow-screen", flow_screen::run),
    ("timeouts", timeouts::run),
    ("robustness", robustness::run),
    ("sweep", sweep::run),
    ("startup", startup::run),
];

/// Run only when named: the MILP cross-check needs CBC and half an hour; the solution pictures
/// are written to be looked at; the batch bench runs another project's solver when it is given
/// one, for twenty minutes.
const ON_REQUEST: &[Bench] = &[
    ("batch", batch::run),
    ("enclose-milp", milp_cross_check),
    ("solution-pictures", solution_pictures::run),
];

#[cfg(feature = "milp")]
fn milp_cross_check(_corpus: &Path) -> anyhow::Result<String> {
    enclose_milp::run()
}

#[cfg(not(feature = "milp"))]
fn milp_cross_check(_corpus: &Path) -> anyhow::Result<String> {
    eprintln!(
        "enclose-milp needs the `milp` feature and the CBC library (scripts/install-deps.sh): \
         cargo run --release --features milp --bin bench -- enclose-milp"
    );
    std::process::exit(2);
}

fn main() -> anyhow::Result<()> {
    let which = std::env::args().nth(1).unwrap_or_else(|| "all".into());
    if which == "timeouts-one" {
        let rest: Vec<String> = std::env::args().skip(2).collect();
        return timeouts::one(&rest);
    }
    let chosen: Vec<&Bench> = if which == "all" {
        BENCHES.iter().collect()
    } else {
        BENCHES
            .iter()
            .chain(ON_REQUEST)
            .filter(|(name, _)| *name == which)
            .collect()
    };
    if chosen.is_empty() {
        let known: Vec<&str> = BENCHES
            .iter()
            .chain(ON_REQUEST)
            .map(|(name, _)| *name)
            .chain(["all"])
            .collect();
        anyhow::bail!("unknown benchmark {which:?}: use {}", known.join(", "));
    }
    let corpus = report::corpus_dir();
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("BENCHMARKS.md");
    for (name, run) in chosen {
        let spinner = autoplayer::progress::Spinner::start(&format!("bench {name}"));
        let section = run(&corpus);
        drop(spinner);
        let section = section?;
        // A narrowed sweep keeps the figures of the sweeps it did not rerun.
        let name = if *name == "sweep" {
            sweep::section()
        } else {
            name.to_string()
        };
        report::write_section(&out, &name, &section)?;
    }
    println!("wrote {}", out.display());
    Ok(())
}
