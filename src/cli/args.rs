//! The command line's arguments, shared by the two binaries: `autoplayer` parses them all and
//! hands `capture` and `play` to `autoplayer-desktop`, which parses them again.

use autoplayer::calibration::Profile;
use autoplayer::games::enclose::EncloseOptions;
use autoplayer::games::hashi::HashiOptions;
use autoplayer::games::loopgame::LoopOptions;
use autoplayer::games::GameKind;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Parser)]
#[command(
    name = "autoplayer",
    version,
    about = "Reads logic puzzles off the screen, solves them and plays them with the mouse."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// This process's arguments. `scan --help` lists the `--to` formats of the games built, so
    /// a new game's formats show there without an edit here.
    pub fn read() -> Cli {
        let mut command = Cli::command();
        // Written only when help may be printed: it is a twentieth of a short solve's own work.
        let help = ["-h", "--help", "help"];
        if std::env::args_os().any(|a| help.iter().any(|h| a == *h)) {
            command = command.mut_subcommand("scan", |scan| scan.after_help(scan_after_help()));
        }
        Cli::from_arg_matches(&command.get_matches()).unwrap_or_else(|e| e.exit())
    }
}

fn scan_after_help() -> String {
    let mut text =
        String::from("Formats for --to (a game's first is its own text, the default):\n");
    for (game, formats) in autoplayer::games::formats() {
        for (i, f) in formats.iter().enumerate() {
            let game = if i == 0 { game } else { "" };
            text += &format!("  {game:<8} {:<8} {}\n", f.name, f.about);
        }
    }
    text + "\nExamples:\n  \
        autoplayer scan hashi board.png --json --overlay read.png -o board.hashi\n  \
        autoplayer scan enclose page.jpg --budget 12 -o level.enclose\n  \
        autoplayer scan hashi board.png --to id\n  \
        autoplayer scan flow level.flow --to pack"
}

// `defer`: only the subcommand that was named builds its arguments, so a short `solve` does
// not pay for building `play`'s (a third of a small solve's own work, see docs/start-up.md).
#[derive(Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// Save a screenshot of a monitor, a window or a region of either.
    #[command(after_help = "Examples:\n  \
        autoplayer capture --window Bridges -o board.png\n  \
        autoplayer capture --monitor 0 --region 700,300,500,500 -o crop.png")]
    Capture(CaptureArgs),
    /// Read the board in a picture and print it as puzzle text, or convert a puzzle file.
    // Its after-help, the `--to` formats of the games built and examples, is `scan_after_help`.
    Scan(ScanArgs),
    /// Learn an app's look (its digit templates) from screenshots whose puzzles are known.
    #[command(after_help = "Examples:\n  \
        autoplayer calibrate hashi shot1.png shot1.hashi shot2.png shot2.hashi -o mine.json\n  \
        autoplayer scan hashi shot3.png --calibration mine.json")]
    Calibrate(CalibrateArgs),
    /// Solve a puzzle file (`-` reads standard input).
    #[command(after_help = "Examples:\n  \
        autoplayer solve hashi puzzle.hashi\n  \
        echo '7x7m2:4e4a1a5a4zb23b5a4a' | autoplayer solve hashi - --json\n  \
        autoplayer solve enclose level.enclose --timeout 5\n  \
        autoplayer solve loop daily.loop --any-loop")]
    Solve(SolveArgs),
    /// Capture, read, solve and play the board with the mouse.
    #[command(
        after_help = "Moving the mouse yourself, parking it in a screen corner, or pressing Esc \
        stops play at once (exit 3).\n\nExamples:\n  \
        autoplayer play hashi --window Bridges --dry-run --overlay plan.png\n  \
        autoplayer play flow --image phone.jpg --solution solved.png\n  \
        autoplayer play hashi --window Bridges --delay 3 --log moves.txt\n  \
        autoplayer play hashi --window Bridges --series 5 --log-dir boards/\n  \
        autoplayer play flow --window 'Flow' --series all --next-at 815,28\n  \
        autoplayer play enclose --window enclose.horse"
    )]
    Play(PlayArgs),
}

#[derive(Args)]
pub struct CaptureArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    /// Where to write the PNG.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
}

#[derive(Args)]
pub struct ScanArgs {
    pub game: GameKind,
    /// Pictures to read, or puzzle files (any format the game reads) to convert, told apart by
    /// content; several (or `--list`) are read in one process on every core, and `-` reads
    /// their names from standard input.
    #[arg(value_name = "IMAGE|PUZZLE", required_unless_present = "list")]
    pub images: Vec<String>,
    /// Read more file names from this file, one per line (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    pub list: Vec<String>,
    /// Write the puzzle in the game's canonical text (or `--to`'s format) here; with several
    /// inputs, a directory that gets one puzzle file per input, named with the format's
    /// extension.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Write the puzzle in this format instead of the game's own text (listed below; an
    /// unknown name lists the game's).
    #[arg(long, value_name = "FORMAT")]
    pub to: Option<String>,
    /// Write the picture with what was read drawn over it (one picture only).
    #[arg(long)]
    pub overlay: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub calibration: CalibrationArg,
    #[command(flatten)]
    pub game_opts: GameOptions,
}

#[derive(Args)]
pub struct CalibrateArgs {
    pub game: GameKind,
    /// Pairs of a picture and its puzzle file: IMAGE PUZZLE [IMAGE PUZZLE ...].
    #[arg(required = true, num_args = 2.., value_name = "IMAGE PUZZLE")]
    pub pairs: Vec<PathBuf>,
    /// Where to write the profile.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
}

#[derive(Args)]
pub struct SolveArgs {
    pub game: GameKind,
    /// Puzzle files (`-` alone reads one puzzle from standard input); several (or `--list`)
    /// are solved in one process on every core.
    #[arg(value_name = "PUZZLE", required_unless_present = "list")]
    pub puzzles: Vec<String>,
    /// Read more puzzle file names from this file, one per line (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    pub list: Vec<String>,
    /// With several puzzles, a directory that gets each one's solution as a file.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
    /// Give up after this many seconds.
    #[arg(long)]
    pub timeout: Option<f64>,
    /// Not a solve option: refused with a pointer to `scan --to`, which converts puzzles.
    #[arg(long, hide = true)]
    pub to: Option<String>,
    #[command(flatten)]
    pub game_opts: GameOptions,
}

#[derive(Args)]
pub struct PlayArgs {
    pub game: GameKind,
    #[command(flatten)]
    pub source: SourceArgs,
    /// Read this picture instead of capturing (implies --dry-run).
    #[arg(long, conflicts_with_all = ["window", "monitor"])]
    pub image: Option<PathBuf>,
    /// Print (and with --overlay draw) the plan; never touch the mouse.
    #[arg(long)]
    pub dry_run: bool,
    #[arg(long)]
    pub json: bool,
    /// Pause between gestures, in milliseconds.
    #[arg(long, default_value_t = 10)]
    pub pause_ms: u64,
    /// Draw the numbered plan over the capture.
    #[arg(long)]
    pub overlay: Option<PathBuf>,
    /// Write the answer drawn over the capture in the game's own look (a PNG the capture's
    /// size, changed only on the board); implies --dry-run: the answer is shown, not played.
    #[arg(long, value_name = "FILE.png")]
    pub solution: Option<PathBuf>,
    /// Skip the capture-and-compare after play (for pictures that never change).
    #[arg(long)]
    pub no_verify: bool,
    /// Count down this many seconds before the first move (time to let go of the mouse).
    #[arg(long, default_value_t = 0)]
    pub delay: u64,
    /// Write every pointer event sent to this file, with milliseconds since play began.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Give the solver at most this many seconds.
    #[arg(long)]
    pub timeout: Option<f64>,
    /// Board after board: play N boards (or `all`, until the app has no next puzzle), going
    /// on through the app's own control for the next one. Esc stops, as the mouse does.
    #[arg(long, value_name = "N|all", conflicts_with_all = ["image", "dry_run", "solution", "overlay", "no_verify"])]
    pub series: Option<String>,
    /// With --series: the control that brings the next puzzle, as X,Y in the captured
    /// window's pixels, for an app autoplayer does not know.
    #[arg(long, value_name = "X,Y", requires = "series")]
    pub next_at: Option<String>,
    /// A hint: play (or with --solution draw) only the first K moves of the answer, each one
    /// a player could deduce, and verify the board shows exactly those.
    #[arg(long, value_name = "K", conflicts_with = "series", value_parser = clap::value_parser!(u32).range(1..))]
    pub moves: Option<u32>,
    /// With --series: keep each board's capture, puzzle and solution in this directory.
    #[arg(long, value_name = "DIR", requires = "series")]
    pub log_dir: Option<PathBuf>,
    #[command(flatten)]
    pub calibration: CalibrationArg,
    #[command(flatten)]
    pub game_opts: GameOptions,
}

#[derive(Args)]
pub struct SourceArgs {
    /// Capture the window with this title (exact, else the one title containing it).
    #[arg(long, conflicts_with = "monitor")]
    pub window: Option<String>,
    /// Capture this monitor (0 = the first).
    #[arg(long)]
    pub monitor: Option<usize>,
    /// Keep only this rectangle, in screen points: X,Y,W,H.
    #[arg(long)]
    pub region: Option<String>,
}

// A learned look for the reader, in place of the embedded one. (A flattened group's doc
// comment would become the subcommand's description: see `Command`'s `defer`.)
#[derive(Args)]
pub struct CalibrationArg {
    /// Read digits with this profile (made by `autoplayer calibrate`) instead of the
    /// embedded one.
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
}

impl CalibrationArg {
    pub fn load(&self) -> anyhow::Result<Option<Arc<Profile>>> {
        Ok(match &self.calibration {
            Some(p) => Some(Arc::new(Profile::load(p)?)),
            None => None,
        })
    }
}

// Each game's own options; a game ignores the others'. (No doc comment, as above.)
#[derive(Args)]
pub struct GameOptions {
    #[command(flatten)]
    pub enclose: EncloseOptions,
    #[command(flatten)]
    pub hashi: HashiOptions,
    #[command(flatten)]
    pub loopgame: LoopOptions,
}
