//! The command line: parse arguments, call the library, map outcomes to exit codes
//! (0 done, 1 unsolvable / nothing to do, 2 error, 3 fail-safe abort).

use anyhow::Context;
use autoplayer::action_log::LoggedMouse;
use autoplayer::calibration::Profile;
use autoplayer::games::enclose::EncloseOptions;
use autoplayer::games::hashi::HashiOptions;
use autoplayer::games::loopgame::LoopOptions;
use autoplayer::games::{GameKind, Options, Sample};
use autoplayer::input::EnigoMouse;
use autoplayer::plan::Pacing;
use autoplayer::progress::Spinner;
use autoplayer::screen::{capture, PixelPoint, Rect, Screen, Target};
use autoplayer::series::{BoardDone, Desk, End, Series};
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
    /// Read the board in a picture and print it as puzzle text.
    #[command(after_help = "Examples:\n  \
        autoplayer scan hashi board.png --json --overlay read.png -o board.hashi\n  \
        autoplayer scan enclose page.jpg --budget 12 -o level.enclose")]
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
    /// Pictures to read; several (or `--list`) are read in one process on every core, and
    /// `-` reads their names from standard input.
    #[arg(value_name = "IMAGE", required_unless_present = "list")]
    images: Vec<String>,
    /// Read more file names from this file, one per line (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    list: Vec<String>,
    /// Write the puzzle in the game's canonical text here; with several pictures, a
    /// directory that gets one puzzle file per picture.
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
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
    /// Board after board: play N boards (or `all`, until the app has no next puzzle), going
    /// on through the app's own control for the next one. Esc stops, as the mouse does.
    #[arg(long, value_name = "N|all", conflicts_with_all = ["image", "dry_run", "solution", "overlay", "no_verify"])]
    series: Option<String>,
    /// With --series: the control that brings the next puzzle, as X,Y in the captured
    /// window's pixels, for an app autoplayer does not know.
    #[arg(long, value_name = "X,Y", requires = "series")]
    next_at: Option<String>,
    /// A hint: play (or with --solution draw) only the first K moves of the answer, each one
    /// a player could deduce, and verify the board shows exactly those.
    #[arg(long, value_name = "K", conflicts_with = "series", value_parser = clap::value_parser!(u32).range(1..))]
    moves: Option<u32>,
    /// With --series: keep each board's capture, puzzle and solution in this directory.
    #[arg(long, value_name = "DIR", requires = "series")]
    log_dir: Option<PathBuf>,
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
        moves: None,
    })
}

/// The seconds before play, on standard error, with how to stop it.
fn count_down(seconds: u64) {
    eprintln!(
        "autoplayer takes the mouse now: move it yourself, park it in a screen corner or press Esc to stop"
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

fn scan(args: ScanArgs) -> anyhow::Result<u8> {
    let opts = Options {
        calibration: args.calibration.load()?,
        ..options(&args.game_opts, None)?
    };
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
                let screen = Screen::from_file(Path::new(input))?;
                let game = args.game.game_on(&screen)?;
                let scanned = game.scan(&screen, &opts)?;
                Ok(batch::Done {
                    json: serde_json::to_value(&scanned.report)
                        .map_err(|e| Error::Usage(format!("{input}: {e}")))?,
                    text: scanned.puzzle.clone(),
                    file_text: scanned.puzzle,
                    status: None,
                })
            },
            |done| done.json["game"].as_str().unwrap_or("txt").to_string(),
        );
    }
    let screen = Screen::from_file(Path::new(&named[0]))?;
    let game = args.game.game_on(&screen)?;
    let scanned = game.scan(&screen, &opts)?;
    if let Some(path) = &args.output {
        std::fs::write(path, &scanned.puzzle)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.overlay {
        save_png(&scanned.overlay, path)?;
    }
    if args.json {
        println!("{}", report::to_pretty(&scanned.report)?);
    } else {
        print!("{}", scanned.puzzle);
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
        moves: args.moves.map(|k| k as usize),
        ..options(&args.game_opts, args.timeout)?
    };
    if let Some(count) = &args.series {
        return play_series(&args, count, &opts);
    }
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
    run.hint = opts.moves.is_some();
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

/// `play --series`: one line (or JSON object) per verified board, a summary at the end.
fn play_series(args: &PlayArgs, count: &str, opts: &Options) -> anyhow::Result<u8> {
    let count = match count {
        "all" => None,
        n => Some(n.parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| {
            Error::Usage(format!(
                "--series {n}: expected a number of boards (1 or more) or `all`"
            ))
        })?),
    };
    let next_at = args.next_at.as_deref().map(parse_point).transpose()?;
    let first = args.source.grab()?;
    let game = args.game.game_on(&first)?;
    let series = Series {
        game,
        opts,
        count,
        next_at,
        pacing: Pacing {
            pause_ms: args.pause_ms,
            ..Pacing::default()
        },
        log_dir: args.log_dir.clone(),
    };
    let grab = || args.source.grab();
    let monitor = args.source.monitor.unwrap_or(0);
    let capture_area = |r: Rect| capture(&Target::Monitor(monitor))?.crop(r);
    let desk = Desk {
        capture: &grab,
        capture_area: &capture_area,
    };
    let mut mouse = EnigoMouse::new()?;
    count_down(args.delay);
    let start = std::time::Instant::now();
    let mut boards = 0;
    let json = args.json;
    let mut each = |b: &BoardDone| {
        boards += 1;
        if json {
            println!("{}", serde_json::to_string(b).unwrap_or_default());
        } else {
            println!(
                "board {}: {} {}, read {:.0} ms, solve {:.1} ms, play {:.0} ms, {} move(s), verified",
                b.board, b.game, b.size, b.read_ms, b.solve_ms, b.play_ms, b.moves
            );
        }
    };
    let end = series.run(&desk, &mut mouse, &mut each);
    let secs = start.elapsed().as_secs_f64();
    let played = format!("series: {boards} board(s) played and verified in {secs:.1} s");
    match end {
        Ok(End::Done) => {
            eprintln!("{played}");
            Ok(0)
        }
        Ok(End::NoMore(why)) => {
            eprintln!("{played}; no next puzzle: {why}");
            // Asked for more boards than the app had: said, and not a success.
            Ok(if count.is_some() { 1 } else { 0 })
        }
        Err(e) => {
            eprintln!("{played}; stopped");
            Err(e.into())
        }
    }
}

/// `X,Y` in pixels.
fn parse_point(text: &str) -> anyhow::Result<PixelPoint> {
    let bad = || {
        Error::Usage(format!(
            "--next-at {text:?}: expected X,Y in pixels (e.g. 420,80)"
        ))
    };
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let x: f64 = x.trim().parse().map_err(|_| bad())?;
    let y: f64 = y.trim().parse().map_err(|_| bad())?;
    if !(x >= 0.0 && y >= 0.0 && x.is_finite() && y.is_finite()) {
        return Err(bad().into());
    }
    Ok(PixelPoint { x, y })
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
