//! The commands that touch the desktop, `capture` and `play`: the only code that captures the
//! screen or moves the mouse, so the process that solves never loads those libraries.

use super::args::{CaptureArgs, PlayArgs, SourceArgs};
use super::common::{options, save_png};
use anyhow::Context;
use autoplayer::action_log::LoggedMouse;
use autoplayer::games::Options;
use autoplayer::input::EnigoMouse;
use autoplayer::plan::Pacing;
use autoplayer::progress::Spinner;
use autoplayer::screen::{capture, PixelPoint, Rect, Screen, Target};
use autoplayer::series::{BoardDone, Desk, End, Series};
use autoplayer::session::{read_live, PlayRun};
use autoplayer::{overlay, report, Error};
use std::time::Duration;

impl SourceArgs {
    pub fn grab(&self) -> autoplayer::Result<Screen> {
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

pub fn capture_to_file(args: CaptureArgs) -> anyhow::Result<u8> {
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

pub fn play(args: PlayArgs) -> anyhow::Result<u8> {
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
    let prepare = |s: &Screen| game.prepare(s, &opts);
    let (screen, prepared) = match &args.image {
        // A picture from a file is what it is; a live one may be caught between frames.
        Some(_) => {
            let prepared = prepare(&screen);
            (screen, prepared)
        }
        None => read_live(screen, &|| args.source.grab(), &prepare)?,
    };
    drop(spinner);
    let prepared = prepared?;
    if let Some(path) = &args.overlay {
        save_png(&overlay::draw_plan(&screen, &prepared.plan), path)?;
    }
    if let Some(path) = &args.solution {
        // An unsolvable board keeps its own status and exit code; it has no picture to write.
        if prepared.solved.status().exit_code() == 0 {
            save_png(&prepared.solution_picture(&screen)?, path)?;
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
