//! The command line: parse arguments, call the library, map outcomes to exit codes
//! (0 done, 1 unsolvable / nothing to do, 2 error, 3 fail-safe abort).

use anyhow::Context;
use autoplayer::action_log::LoggedMouse;
use autoplayer::calibration::Profile;
use autoplayer::games::enclose::EncloseOptions;
use autoplayer::games::hashi::HashiOptions;
use autoplayer::games::loopgame::LoopOptions;
use autoplayer::games::{GameKind, Options, Sample, Scanned};
use autoplayer::input::EnigoMouse;
use autoplayer::plan::Pacing;
use autoplayer::progress::Spinner;
use autoplayer::screen::{capture, Rect, Screen, Target};
use autoplayer::session::PlayRun;
use autoplayer::{batch, overlay, picture, report, Error};
use clap::{Args, Parser, Subcommand};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "autoplayer",
    version,
    about = "Reads logic puzzles off the screen, solves them and plays them with the mouse."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Save a screenshot of a monitor, a window or a region of either.
    #[command(after_help = "Examples:\n  \
        autoplayer capture --window Bridges -o board.png\n  \
        autoplayer capture --monitor 0 --region 700,300,500,500 -o crop.png")]
    Capture(CaptureArgs),
    /// Read the board in a picture and print it as puzzle text, or convert a puzzle file.
    #[command(
        after_help = "Formats for --to (the first of each game is its own text, the \
        default):\n  \
        hashi    hashi, id (the Bridges game ID), janko (a janko JSON line)\n  \
        flow     flow (the seed format), mzucker (mzucker's rows), pack (a level-pack line)\n  \
        enclose  enclose (the puzzle file), json (the game's API JSON)\n  \
        loop     loop\n\n\
        Examples:\n  \
        autoplayer scan hashi board.png --json --overlay read.png -o board.hashi\n  \
        autoplayer scan enclose page.jpg --budget 12 -o level.enclose\n  \
        autoplayer scan hashi board.png --to id\n  \
        autoplayer scan flow level.flow --to pack"
    )]
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
        after_help = "Moving the mouse yourself, or parking it in a screen corner, stops play \
        at once (exit 3).\n\nExamples:\n  \
        autoplayer play hashi --window Bridges --dry-run --overlay plan.png\n  \
        autoplayer play flow --image phone.jpg --solution solved.png\n  \
        autoplayer play hashi --window Bridges --delay 3 --log moves.txt\n  \
        autoplayer play enclose --window enclose.horse"
    )]
    Play(PlayArgs),
}

#[derive(Args)]
struct CaptureArgs {
    #[command(flatten)]
    source: SourceArgs,
    /// Where to write the PNG.
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
}

#[derive(Args)]
struct ScanArgs {
    game: GameKind,
    /// Pictures to read, or puzzle files (any format the game reads) to convert, told apart by
    /// content; several (or `--list`) are read in one process on every core, and `-` reads
    /// their names from standard input.
    #[arg(value_name = "IMAGE|PUZZLE", required_unless_present = "list")]
    images: Vec<String>,
    /// Read more file names from this file, one per line (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    list: Vec<String>,
    /// Write the puzzle in the game's canonical text (or `--to`'s format) here; with several
    /// inputs, a directory that gets one puzzle file per input, named with the format's
    /// extension.
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Write the puzzle in this format instead of the game's own text (listed below; an
    /// unknown name lists the game's).
    #[arg(long, value_name = "FORMAT")]
    to: Option<String>,
    /// Write the picture with what was read drawn over it (one picture only).
    #[arg(long)]
    overlay: Option<PathBuf>,
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    calibration: CalibrationArg,
    #[command(flatten)]
    game_opts: GameOptions,
}

#[derive(Args)]
struct CalibrateArgs {
    game: GameKind,
    /// Pairs of a picture and its puzzle file: IMAGE PUZZLE [IMAGE PUZZLE ...].
    #[arg(required = true, num_args = 2.., value_name = "IMAGE PUZZLE")]
    pairs: Vec<PathBuf>,
    /// Where to write the profile.
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
}

#[derive(Args)]
struct SolveArgs {
    game: GameKind,
    /// Puzzle files (`-` alone reads one puzzle from standard input); several (or `--list`)
    /// are solved in one process on every core.
    #[arg(value_name = "PUZZLE", required_unless_present = "list")]
    puzzles: Vec<String>,
    /// Read more puzzle file names from this file, one per line (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    list: Vec<String>,
    /// With several puzzles, a directory that gets each one's solution as a file.
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    #[arg(long)]
    json: bool,
    /// Give up after this many seconds.
    #[arg(long)]
    timeout: Option<f64>,
    /// Not a solve option: refused with a pointer to `scan --to`, which converts puzzles.
    #[arg(long, hide = true)]
    to: Option<String>,
    #[command(flatten)]
    game_opts: GameOptions,
}

#[derive(Args)]
struct PlayArgs {
    game: GameKind,
    #[command(flatten)]
    source: SourceArgs,
    /// Read this picture instead of capturing (implies --dry-run).
    #[arg(long, conflicts_with_all = ["window", "monitor"])]
    image: Option<PathBuf>,
    /// Print (and with --overlay draw) the plan; never touch the mouse.
    #[arg(long)]
    dry_run: bool,
    #[arg(long)]
    json: bool,
    /// Pause between gestures, in milliseconds.
    #[arg(long, default_value_t = 10)]
    pause_ms: u64,
    /// Draw the numbered plan over the capture.
    #[arg(long)]
    overlay: Option<PathBuf>,
    /// Write the answer drawn over the capture in the game's own look (a PNG the capture's
    /// size, changed only on the board); implies --dry-run: the answer is shown, not played.
    #[arg(long, value_name = "FILE.png")]
    solution: Option<PathBuf>,
    /// Skip the capture-and-compare after play (for pictures that never change).
    #[arg(long)]
    no_verify: bool,
    /// Count down this many seconds before the first move (time to let go of the mouse).
    #[arg(long, default_value_t = 0)]
    delay: u64,
    /// Write every pointer event sent to this file, with milliseconds since play began.
    #[arg(long)]
    log: Option<PathBuf>,
    /// Give the solver at most this many seconds.
    #[arg(long)]
    timeout: Option<f64>,
    #[command(flatten)]
    calibration: CalibrationArg,
    #[command(flatten)]
    game_opts: GameOptions,
}

#[derive(Args)]
struct SourceArgs {
    /// Capture the window with this title (exact, else the one title containing it).
    #[arg(long, conflicts_with = "monitor")]
    window: Option<String>,
    /// Capture this monitor (0 = the first).
    #[arg(long)]
    monitor: Option<usize>,
    /// Keep only this rectangle, in screen points: X,Y,W,H.
    #[arg(long)]
    region: Option<String>,
}

/// A learned look for the reader, in place of the embedded one.
#[derive(Args)]
struct CalibrationArg {
    /// Read digits with this profile (made by `autoplayer calibrate`) instead of the
    /// embedded one.
    #[arg(long, value_name = "FILE")]
    calibration: Option<PathBuf>,
}

impl CalibrationArg {
    fn load(&self) -> anyhow::Result<Option<Arc<Profile>>> {
        Ok(match &self.calibration {
            Some(p) => Some(Arc::new(Profile::load(p)?)),
            None => None,
        })
    }
}

/// Each game's own options; a game ignores the others'.
#[derive(Args)]
struct GameOptions {
    #[command(flatten)]
    enclose: EncloseOptions,
    #[command(flatten)]
    hashi: HashiOptions,
    #[command(flatten)]
    loopgame: LoopOptions,
}

impl SourceArgs {
    fn grab(&self) -> autoplayer::Result<Screen> {
        let target = match (&self.window, self.monitor) {
            (Some(w), _) => Target::Window(w.clone()),
            (None, m) => Target::Monitor(m.unwrap_or(0)),
        };
        let screen = capture(&target)?;
        match &self.region {
            Some(r) => screen.crop(Rect::parse(r)?),
            None => Ok(screen),
        }
    }
}

fn options(g: &GameOptions, timeout: Option<f64>) -> anyhow::Result<Options> {
    let timeout = match timeout {
        Some(t) if !(t > 0.0 && t.is_finite()) => {
            return Err(Error::Usage(format!(
                "--timeout {t}: must be a positive number of seconds"
            ))
            .into())
        }
        t => t.map(Duration::from_secs_f64),
    };
    Ok(Options {
        timeout,
        enclose: g.enclose.clone(),
        hashi: g.hashi.clone(),
        loopgame: g.loopgame.clone(),
        calibration: None,
    })
}

/// The seconds before play, on standard error, with how to stop it.
fn count_down(seconds: u64) {
    eprintln!(
        "autoplayer takes the mouse now: move it yourself or park it in a screen corner to stop"
    );
    for left in (1..=seconds).rev() {
        eprintln!("starting in {left} s");
        std::thread::sleep(Duration::from_secs(1));
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("autoplayer: {e:#}");
            let code = e.downcast_ref::<Error>().map(Error::exit_code).unwrap_or(2);
            ExitCode::from(code as u8)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<u8> {
    match cli.command {
        Command::Capture(args) => capture_to_file(args),
        Command::Scan(args) => scan(args),
        Command::Calibrate(args) => calibrate(args),
        Command::Solve(args) => solve(args),
        Command::Play(args) => play(args),
    }
}

fn capture_to_file(args: CaptureArgs) -> anyhow::Result<u8> {
    let screen = args.source.grab()?;
    save_png(&screen.image, &args.output)?;
    println!(
        "{}: {}x{} pixels at screen ({}, {}), scale {} -> {}",
        screen.label,
        screen.image.width(),
        screen.image.height(),
        screen.origin.x,
        screen.origin.y,
        screen.scale,
        args.output.display()
    );
    Ok(0)
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
        source: e,
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

/// The picture to play from: the `--image` file (cropped to `--region`) or a fresh capture.
fn play_source(args: &PlayArgs) -> anyhow::Result<Screen> {
    Ok(match &args.image {
        Some(path) => {
            let s = Screen::from_file(path)?;
            match &args.source.region {
                Some(r) => s.crop(Rect::parse(r)?)?,
                None => s,
            }
        }
        None => args.source.grab()?,
    })
}

fn play(args: PlayArgs) -> anyhow::Result<u8> {
    let opts = Options {
        calibration: args.calibration.load()?,
        ..options(&args.game_opts, args.timeout)?
    };
    let screen = play_source(&args)?;
    let game = args.game.game_on(&screen)?;
    let spinner = Spinner::start(&format!("reading and solving {}", game.name()));
    let prepared = game.prepare(&screen, &opts);
    drop(spinner);
    let prepared = prepared?;
    if let Some(path) = &args.overlay {
        save_png(&overlay::draw_plan(&screen, &prepared.plan), path)?;
    }
    if let Some(path) = &args.solution {
        // An unsolvable board keeps its own status and exit code; it has no picture to write.
        if prepared.solved.status().exit_code() == 0 {
            save_png(&picture::solution_picture(&screen, &prepared)?, path)?;
        } else {
            eprintln!("autoplayer: --solution: no answer to draw, nothing written");
        }
    }
    let dry_run = args.dry_run || args.image.is_some() || args.solution.is_some();
    let mut run = PlayRun::new(game.name(), &prepared, dry_run);
    if !args.json {
        print!("{}", run.plan_text());
    }
    if run.will_play() {
        let pacing = Pacing {
            pause_ms: args.pause_ms,
            ..Pacing::default()
        };
        let recapture = || args.source.grab();
        let verify: Option<&dyn Fn() -> autoplayer::Result<Screen>> = if args.no_verify {
            None
        } else {
            Some(&recapture)
        };
        let mut mouse = EnigoMouse::new()?;
        count_down(args.delay);
        match &args.log {
            Some(path) => {
                let file = std::fs::File::create(path)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                let name = path.display().to_string();
                let mut logged = LoggedMouse::new(&mut mouse, file, &name);
                run.play(&mut logged, pacing, verify);
            }
            None => run.play(&mut mouse, pacing, verify),
        }
    }
    if args.json {
        println!("{}", report::to_line(run.report())?);
    } else if let Some(line) = run.closing_line() {
        println!("{line}");
    }
    Ok(run.finish()?)
}

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
        source: e,
    })?;
    Ok((text, arg.to_string()))
}

fn save_png(img: &image::RgbaImage, path: &Path) -> anyhow::Result<()> {
    img.save(path)
        .map_err(|e| Error::Usage(format!("{}: cannot write PNG: {e}", path.display())).into())
}
