//! The command line: parse arguments, call the library, map outcomes to exit codes
//! (0 done, 1 unsolvable / nothing to do, 2 error, 3 fail-safe abort). `capture` and `play`
//! are handed to `autoplayer-desktop` beside this binary, so a `solve` or `scan` process never
//! loads the capture and input libraries (they cost more than a small solve).

// The C `main` below, not Rust's start-up: see `main`.
#![no_main]

mod cli {
    pub mod args;
    pub mod common;
}

use anyhow::Context;
use autoplayer::games::{GameKind, Options, Sample, Scanned};
use autoplayer::progress::Spinner;
use autoplayer::screen::Screen;
use autoplayer::{batch, report, Error};
use cli::args::{CalibrateArgs, Cli, Command, ScanArgs, SolveArgs};
use cli::common::{exit_code, options, save_png};
use std::io::Read;
use std::io::Write;
use std::os::raw::{c_char, c_int};
use std::path::Path;

/// The binary that runs `capture` and `play`, in the same folder as this one.
const DESKTOP: &str = "autoplayer-desktop";

/// The process's entry point, called by the C runtime. Rust's own start-up (`fn main`) would
/// first read and parse `/proc/self/maps` to guard the main thread's stack and map a signal
/// stack: a sixth of a small `solve` process's work (docs/start-up.md). Arguments and standard
/// streams work without it (glibc hands std the arguments before `main`); what it did that
/// matters here is done below: standard output flushed, a panic turned into exit code 101.
/// `SIGPIPE` keeps its default, so `autoplayer ... | head` ends quietly when `head` does.
#[no_mangle]
extern "C" fn main(_argc: c_int, _argv: *const *const c_char) -> c_int {
    let code = std::panic::catch_unwind(run).unwrap_or(101);
    let _ = std::io::stdout().flush();
    c_int::from(code)
}

fn run() -> u8 {
    let cli = Cli::read();
    exit_code(match cli.command {
        Command::Capture(_) | Command::Play(_) => hand_to_desktop(),
        Command::Scan(args) => scan(args),
        Command::Calibrate(args) => calibrate(args),
        Command::Solve(args) => solve(args),
    })
}

/// Replaces this process with `autoplayer-desktop` and the same arguments (same process id, so
/// a caller that stops play by PID still can).
fn hand_to_desktop() -> anyhow::Result<u8> {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe()
        .context("cannot find this program's own path")?
        .with_file_name(DESKTOP);
    let err = std::process::Command::new(&exe)
        .args(std::env::args_os().skip(1))
        .exec();
    Err(Error::Desktop(format!(
        "cannot start {}: {err} (capture and play run there: build both binaries with \
         `cargo build --release`, or install them with `cargo install --path .`)",
        exe.display()
    ))
    .into())
}

/// What `scan` made of one input: a picture's reading, or a puzzle file converted.
enum ScanRead {
    Picture(Scanned),
    Text { game: &'static str, puzzle: String },
}

impl ScanRead {
    fn puzzle(&self) -> &str {
        match self {
            ScanRead::Picture(s) => &s.puzzle,
            ScanRead::Text { puzzle, .. } => puzzle,
        }
    }

    /// `--json`: a picture's reading report; for a puzzle file, its game, format and text.
    fn json(&self, to: Option<&str>) -> Result<serde_json::Value, Error> {
        match self {
            ScanRead::Picture(s) => serde_json::to_value(&s.report)
                .map_err(|e| Error::Usage(format!("cannot write the report: {e}"))),
            ScanRead::Text { game, puzzle } => {
                let format = GameKind::named(game)
                    .ok_or_else(|| Error::Usage(format!("{game}: no such game")))?
                    .game()?
                    .format(to)?;
                Ok(serde_json::json!({
                    "game": game,
                    "format": format.name,
                    "puzzle": puzzle,
                }))
            }
        }
    }
}

/// Reads one input: a PNG, JPEG or WebP picture (told by its content) is read as a board;
/// any other text is a puzzle file of the named game, written again in `to`.
fn scan_input(
    input: &str,
    kind: GameKind,
    opts: &Options,
    to: Option<&str>,
) -> Result<ScanRead, Error> {
    let bytes = std::fs::read(input).map_err(|e| Error::Io {
        path: input.to_string(),
        reason: e,
    })?;
    let picture = matches!(
        image::guess_format(&bytes),
        Ok(image::ImageFormat::Png | image::ImageFormat::Jpeg | image::ImageFormat::WebP)
    );
    if picture {
        let screen = Screen::from_bytes(&bytes, input)?;
        let game = kind.game_on(&screen)?;
        // Without `--to` the reading's own canonical text stays, as before conversions.
        let format = to.map(|t| game.format(Some(t))).transpose()?;
        return Ok(ScanRead::Picture(game.scan(&screen, opts, format)?));
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        Error::Usage(format!(
            "{input}: neither a picture (PNG, JPEG, WebP) nor puzzle text"
        ))
    })?;
    if kind == GameKind::AUTO {
        return Err(Error::Usage(format!(
            "{input}: a puzzle file: name its game (auto tells games apart only in pictures)"
        )));
    }
    let game = kind.game()?;
    let puzzle = game.convert(&text, input, opts, game.format(to)?)?;
    Ok(ScanRead::Text {
        game: game.name(),
        puzzle,
    })
}

fn scan(args: ScanArgs) -> anyhow::Result<u8> {
    let opts = Options {
        calibration: args.calibration.load()?,
        ..options(&args.game_opts, None)?
    };
    let to = args.to.as_deref();
    args.game.check_format(to)?;
    // A picture never comes on standard input, so a lone `-` there is a list of names.
    let (named, mut lists) = match args.images.as_slice() {
        [one] if one == "-" => (Vec::new(), vec!["-".to_string()]),
        _ => (args.images.clone(), Vec::new()),
    };
    lists.extend(args.list.iter().cloned());
    if named.len() != 1 || !lists.is_empty() {
        if args.overlay.is_some() {
            return Err(Error::Usage("--overlay takes one picture, not several".into()).into());
        }
        let inputs = batch::inputs(&named, &lists)?;
        return run_batch(
            &inputs,
            "read",
            args.output.as_deref(),
            args.json,
            |input| {
                let read = scan_input(input, args.game, &opts, to)?;
                Ok(batch::Done {
                    json: read.json(to)?,
                    text: read.puzzle().to_string(),
                    file_text: read.puzzle().to_string(),
                    status: None,
                })
            },
            |done| {
                let game = done.json["game"].as_str().and_then(GameKind::named);
                game.and_then(|g| g.game().ok())
                    .and_then(|g| g.format(to).ok())
                    .map_or("txt", |f| f.extension)
                    .to_string()
            },
        );
    }
    let read = scan_input(&named[0], args.game, &opts, to)?;
    let scanned = match &read {
        ScanRead::Picture(s) => Some(s),
        ScanRead::Text { .. } => None,
    };
    if args.overlay.is_some() && scanned.is_none() {
        return Err(Error::Usage(format!(
            "--overlay draws over a picture, and {} is a puzzle file",
            named[0]
        ))
        .into());
    }
    if let Some(path) = &args.output {
        std::fs::write(path, read.puzzle())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let (Some(path), Some(scanned)) = (&args.overlay, scanned) {
        save_png(&scanned.overlay, path)?;
    }
    if args.json {
        println!("{}", report::to_pretty(&read.json(to)?)?);
    } else {
        print!("{}", read.puzzle());
    }
    Ok(0)
}

fn calibrate(args: CalibrateArgs) -> anyhow::Result<u8> {
    let game = args.game.game()?;
    let pairs = &args.pairs;
    if !pairs.len().is_multiple_of(2) {
        return Err(Error::Usage(format!(
            "calibrate: {} is a picture without its puzzle file (give IMAGE PUZZLE pairs)",
            pairs[pairs.len() - 1].display()
        ))
        .into());
    }
    let mut samples = Vec::new();
    for pair in pairs.chunks(2) {
        let name = pair[0].display().to_string();
        let (puzzle, puzzle_source) = read_puzzle(&pair[1].display().to_string())?;
        samples.push(Sample {
            name,
            screen: Screen::from_file(&pair[0])?,
            puzzle,
            puzzle_source,
        });
    }
    let profile = game.calibrate(&samples)?;
    std::fs::write(&args.output, profile.to_json())
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    let counts: Vec<String> = profile
        .set
        .templates
        .iter()
        .map(|t| format!("{}×{}", t.label, t.samples))
        .collect();
    println!(
        "{} ({}): {} templates from {} pictures ({}) -> {}",
        profile.game,
        profile.style,
        profile.set.templates.len(),
        profile.made_from.len(),
        counts.join(" "),
        args.output.display()
    );
    Ok(0)
}

fn solve(args: SolveArgs) -> anyhow::Result<u8> {
    if let Some(to) = &args.to {
        return Err(Error::Usage(format!(
            "solve --to {to}: solve prints solutions; to convert a puzzle file, use \
             `autoplayer scan {} FILE --to {to}`",
            args.game.name()
        ))
        .into());
    }
    let game = args.game.game()?;
    let opts = options(&args.game_opts, args.timeout)?;
    if args.puzzles.len() != 1 || !args.list.is_empty() {
        let inputs = batch::inputs(&args.puzzles, &args.list)?;
        if inputs.iter().any(|i| i == "-") {
            return Err(Error::Usage(
                "`-` reads one puzzle; for a list of files on standard input use --list -".into(),
            )
            .into());
        }
        return run_batch(
            &inputs,
            "solved",
            args.output.as_deref(),
            args.json,
            |input| {
                let (text, source) =
                    read_puzzle(input).map_err(|e| match e.downcast::<Error>() {
                        Ok(e) => e,
                        Err(e) => Error::Usage(format!("{input}: {e:#}")),
                    })?;
                let solved = game.solve(&text, &source, &opts)?;
                Ok(batch::Done {
                    json: serde_json::to_value(&solved.report)
                        .map_err(|e| Error::Usage(format!("{input}: {e}")))?,
                    status: Some(solved.status()),
                    text: solved.text.clone(),
                    file_text: solved.text,
                })
            },
            |_| "solution".to_string(),
        );
    }
    if args.output.is_some() {
        return Err(Error::Usage(
            "-o is for several puzzles; one puzzle's solution goes to standard output".into(),
        )
        .into());
    }
    let (text, source) = read_puzzle(&args.puzzles[0])?;
    let spinner = Spinner::start(&format!("solving {}", game.name()));
    let solved = game.solve(&text, &source, &opts);
    drop(spinner);
    let solved = solved?;
    if args.json {
        println!("{}", report::to_line(&solved.report)?);
    } else {
        print!("{}", solved.text);
    }
    Ok(solved.status().exit_code())
}

/// Works through many inputs on every core: one JSON line per input with `--json`, else one
/// line naming it and how it went (its text goes to `-o DIR` when given); a summary on
/// standard error; the exit code of the worst outcome.
fn run_batch(
    inputs: &[String],
    done_word: &str,
    out_dir: Option<&Path>,
    json: bool,
    work: impl Fn(&str) -> Result<batch::Done, Error> + Sync,
    extension: impl Fn(&batch::Done) -> String,
) -> anyhow::Result<u8> {
    if let Some(dir) = out_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut write_failed = None;
    let tally = batch::run(inputs, batch::threads(), work, |o| match &o.result {
        Ok(done) => {
            if let Some(dir) = out_dir {
                let path = batch::output_path(dir, &o.input, &extension(done));
                if let Err(e) = std::fs::write(&path, &done.file_text) {
                    write_failed.get_or_insert(format!("cannot write {}: {e}", path.display()));
                }
            }
            if json {
                println!("{}", batch::named_json(&o.input, done.json.clone()));
            } else {
                let status = done.status.map(|s| s.name()).unwrap_or("read");
                println!("{}: {status}", o.input);
            }
        }
        Err(e) => {
            if json {
                println!("{}", batch::error_json(&o.input, e));
            }
            let text = e.to_string();
            if text.contains(&o.input) {
                eprintln!("autoplayer: {text}");
            } else {
                eprintln!("autoplayer: {}: {text}", o.input);
            }
        }
    });
    if let Some(e) = write_failed {
        return Err(Error::Usage(e).into());
    }
    eprintln!("{}", tally.summary(done_word));
    Ok(tally.exit_code())
}

/// Puzzle text from a file, or from standard input for `-`, and the name to give it.
fn read_puzzle(arg: &str) -> anyhow::Result<(String, String)> {
    if arg == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read standard input")?;
        return Ok((text, "<stdin>".into()));
    }
    let text = std::fs::read_to_string(arg).map_err(|e| Error::Io {
        path: arg.to_string(),
        reason: e,
    })?;
    Ok((text, arg.to_string()))
}
