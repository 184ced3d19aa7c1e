//! Reading at every size: each picture the robustness bench reads (the same [`SOURCES`]) is
//! rescaled in fine steps, 0.70× to 2.00× every 0.05, with three filters (Lanczos as image
//! editors and ImageMagick use, bilinear as phones and browsers use, a box average as chat apps
//! and thumbnailers use), and saved as JPEG at three qualities at three of those sizes. A
//! coarse sample hides bands of refusals, or a wrong reading, between its steps; this one
//! prints every picture's refused sizes and, per game, the cell sizes in pixels read and refused.
//!
//! `SWEEP_ONLY=<game>[,<game>...]` and `SWEEP_MATCH=<part of a file name>` narrow the run;
//! `SWEEP_REFUSALS=1` prints each refusal's reason on standard error;
//! `SWEEP_SAVE_WRONG=<folder>` keeps each wrongly read copy there as a PNG.
//! `SWEEP_TWICE=1` resamples each picture twice instead, as a shared copy of a shared copy is:
//! shrunk by Lanczos to 30 %–90 % every 10, then enlarged 1.00×–2.00× every 0.05 with each
//! filter; its own section lists the counts per shrink and filter.
//! `SWEEP_DIR=<game>=<folder>[,<game>=<folder>...]` sweeps folders of one's own pictures
//! instead (pictures never seen by the project, say), with the truth each `index.jsonl` gives
//! in the game's own fields, or else each against its own untouched reading. Each kind of run
//! writes its own section of BENCHMARKS.md ([`section`]).

use super::robustness::{self, judge, Key, Source, Truth, Verdict, SOURCES};
use image::imageops::FilterType;
use image::{Rgba, RgbaImage};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Filter {
    Lanczos,
    Bilinear,
    Box,
}

const FILTERS: [Filter; 3] = [Filter::Lanczos, Filter::Bilinear, Filter::Box];

impl Filter {
    fn name(self) -> &'static str {
        match self {
            Filter::Lanczos => "Lanczos",
            Filter::Bilinear => "bilinear",
            Filter::Box => "box",
        }
    }
}

/// One changed copy: a first shrink by Lanczos in hundredths (the twice-resampled copies
/// only), a size in hundredths, a filter, and a JPEG quality when saved as JPEG.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Copy {
    shrunk: Option<u32>,
    percent: u32,
    filter: Filter,
    quality: Option<u8>,
}

/// 70 % to 200 % every 5: 27 sizes.
fn sizes() -> impl Iterator<Item = u32> {
    (70..=200).step_by(5)
}

const QUALITIES: [u8; 3] = [20, 50, 80];
const JPEG_SIZES: [u32; 3] = [80, 100, 150];

fn copies() -> Vec<Copy> {
    let mut out: Vec<Copy> = sizes()
        .flat_map(|percent| {
            FILTERS.into_iter().map(move |filter| Copy {
                shrunk: None,
                percent,
                filter,
                quality: None,
            })
        })
        .collect();
    for quality in QUALITIES {
        for percent in JPEG_SIZES {
            out.push(Copy {
                shrunk: None,
                percent,
                filter: Filter::Lanczos,
                quality: Some(quality),
            });
        }
    }
    out
}

/// The first shrinks of the twice-resampled copies: 30 % to 90 % every 10.
const SHRINKS: [u32; 7] = [30, 40, 50, 60, 70, 80, 90];

/// Shrunk by Lanczos, then enlarged 1.00×–2.00× every 0.05 with each filter.
fn twice_copies() -> Vec<Copy> {
    SHRINKS
        .into_iter()
        .flat_map(|shrunk| {
            (100..=200).step_by(5).flat_map(move |percent| {
                FILTERS.into_iter().map(move |filter| Copy {
                    shrunk: Some(shrunk),
                    percent,
                    filter,
                    quality: None,
                })
            })
        })
        .collect()
}

fn twice() -> bool {
    std::env::var_os("SWEEP_TWICE").is_some()
}

/// `w` by `h` scaled by `percent` hundredths, at least a pixel.
fn scaled(w: u32, h: u32, percent: u32) -> (u32, u32) {
    let f = |v: u32| ((v as f64 * percent as f64 / 100.0).round() as u32).max(1);
    (f(w), f(h))
}

impl Copy {
    /// The copy's size against the picture's.
    fn scale(self) -> f64 {
        self.shrunk.unwrap_or(100) as f64 / 100.0 * self.percent as f64 / 100.0
    }

    fn name(self) -> String {
        let size = self.percent as f64 / 100.0;
        let first = match self.shrunk {
            Some(s) => format!("{:.2}× Lanczos then ", s as f64 / 100.0),
            None => String::new(),
        };
        match self.quality {
            Some(q) => format!("{first}{size:.2}× JPEG q{q}"),
            None => format!("{first}{size:.2}× {}", self.filter.name()),
        }
    }

    fn make(self, img: &RgbaImage) -> anyhow::Result<RgbaImage> {
        let first;
        let img = match self.shrunk {
            Some(s) => {
                let (w, h) = scaled(img.width(), img.height(), s);
                first = image::imageops::resize(img, w, h, FilterType::Lanczos3);
                &first
            }
            None => img,
        };
        let (w, h) = scaled(img.width(), img.height(), self.percent);
        let sized = if self.percent == 100 {
            img.clone()
        } else {
            match self.filter {
                Filter::Lanczos => image::imageops::resize(img, w, h, FilterType::Lanczos3),
                Filter::Bilinear => image::imageops::resize(img, w, h, FilterType::Triangle),
                Filter::Box => box_resize(img, w, h),
            }
        };
        match self.quality {
            Some(q) => robustness::jpeg(&sized, q),
            None => Ok(sized),
        }
    }
}

/// For each output index along one axis, the source indices it covers and their shares
/// (the overlap of the output pixel's span with each source pixel, summing to 1).
fn box_weights(from: u32, to: u32) -> Vec<Vec<(usize, f32)>> {
    let step = from as f64 / to as f64;
    (0..to)
        .map(|i| {
            let (a, b) = (i as f64 * step, (i + 1) as f64 * step);
            let mut w = Vec::new();
            let mut k = a.floor() as usize;
            while (k as f64) < b && k < from as usize {
                let overlap = (b.min(k as f64 + 1.0) - a.max(k as f64)).max(0.0);
                if overlap > 0.0 {
                    w.push((k, (overlap / step) as f32));
                }
                k += 1;
            }
            w
        })
        .collect()
}

/// Area averaging: each output pixel the mean of the source area it covers.
fn box_resize(img: &RgbaImage, w: u32, h: u32) -> RgbaImage {
    let (sw, sh) = img.dimensions();
    let wx = box_weights(sw, w);
    let wy = box_weights(sh, h);
    // Rows first, kept as floats so the second pass rounds once.
    let mut rows = vec![[0f32; 4]; (w * sh) as usize];
    for y in 0..sh {
        for (x, ws) in wx.iter().enumerate() {
            let mut acc = [0f32; 4];
            for &(k, s) in ws {
                let p = img.get_pixel(k as u32, y).0;
                for c in 0..4 {
                    acc[c] += p[c] as f32 * s;
                }
            }
            rows[(y * w) as usize + x] = acc;
        }
    }
    RgbaImage::from_fn(w, h, |x, y| {
        let mut acc = [0f32; 4];
        for &(k, s) in &wy[y as usize] {
            let p = rows[k * w as usize + x as usize];
            for c in 0..4 {
                acc[c] += p[c] * s;
            }
        }
        Rgba(acc.map(|v| v.round().clamp(0.0, 255.0) as u8))
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Right,
    Refused,
    Wrong,
}

struct Reading {
    game: &'static str,
    picture: String,
    copy: Copy,
    outcome: Outcome,
    /// The cell size in the copy: the untouched reading's pitch times the scale.
    cell_px: f64,
    reason: String,
}

#[derive(Default, Clone, Copy)]
struct Count {
    right: usize,
    refused: usize,
    wrong: usize,
}

impl Count {
    fn add(&mut self, o: Outcome) {
        match o {
            Outcome::Right => self.right += 1,
            Outcome::Refused => self.refused += 1,
            Outcome::Wrong => self.wrong += 1,
        }
    }

    fn total(self) -> usize {
        self.right + self.refused + self.wrong
    }

    fn share(self) -> f64 {
        100.0 * self.right as f64 / self.total().max(1) as f64
    }

    fn cell(self) -> String {
        if self.wrong > 0 {
            format!("{}/{}/**{}**", self.right, self.refused, self.wrong)
        } else {
            format!("{}/{}/0", self.right, self.refused)
        }
    }
}

/// One picture of one source, with the truth its index gives.
struct Job {
    source: Source,
    path: std::path::PathBuf,
    truth: Option<Truth>,
}

/// Reads every copy of one picture; `None` when the untouched picture itself does not read
/// right (it is then listed, not swept).
fn sweep_one(job: &Job, copies: &[Copy]) -> anyhow::Result<Result<Vec<Reading>, String>> {
    let src = &job.source;
    let name = format!(
        "{}/{}",
        src.folder,
        job.path.file_name().unwrap_or_default().to_string_lossy()
    );
    let img = autoplayer::screen::read_picture(&job.path)?;
    let (original, _) = robustness::timed(src.read, &img);
    let reference: Key = match robustness::reference(original, job.truth.as_ref()) {
        Ok(k) => k,
        Err(why) => return Ok(Err(format!("{name}: {why}"))),
    };
    let mut out = Vec::new();
    for &copy in copies {
        let changed = copy.make(&img)?;
        let (read, _) = robustness::timed(src.read, &changed);
        let (outcome, reason) = match judge(&reference, read) {
            Verdict::Right => (Outcome::Right, String::new()),
            Verdict::Refused(e) => (Outcome::Refused, e),
            Verdict::Wrong { what, readings } => {
                eprintln!("WRONG {name} {}: {readings}", copy.name());
                save_wrong(&changed, &name, copy)?;
                (Outcome::Wrong, what.to_string())
            }
        };
        out.push(Reading {
            game: src.game,
            picture: name.clone(),
            copy,
            outcome,
            cell_px: reference.pitch * copy.scale(),
            reason,
        });
    }
    Ok(Ok(out))
}

/// A wrong reading's copy, kept for a look in the folder `SWEEP_SAVE_WRONG` names.
fn save_wrong(copy_img: &RgbaImage, picture: &str, copy: Copy) -> anyhow::Result<()> {
    let Some(dir) = std::env::var_os("SWEEP_SAVE_WRONG") else {
        return Ok(());
    };
    let file: String = format!("{picture} {}", copy.name())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    std::fs::create_dir_all(&dir)?;
    copy_img.save(Path::new(&dir).join(format!("{file}.png")))?;
    Ok(())
}

/// Sizes as short ranges: 70, 75, 80, 95 → "0.70–0.80, 0.95".
fn ranges(percents: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < percents.len() {
        let mut j = k;
        while j + 1 < percents.len() && percents[j + 1] == percents[j] + 5 {
            j += 1;
        }
        let f = |p: u32| format!("{:.2}", p as f64 / 100.0);
        parts.push(if j == k {
            f(percents[k])
        } else {
            format!("{}–{}", f(percents[k]), f(percents[j]))
        });
        k = j + 1;
    }
    parts.join(", ")
}

/// The robustness bench's folders, or the ones `SWEEP_DIR` names.
fn sources() -> anyhow::Result<Vec<Source>> {
    let Ok(specs) = std::env::var("SWEEP_DIR") else {
        return Ok(SOURCES.to_vec());
    };
    let mut sources = Vec::new();
    for spec in specs.split(',') {
        let Some((game, folder)) = spec.split_once('=') else {
            anyhow::bail!("SWEEP_DIR: {spec:?}: write it as <game>=<folder>");
        };
        let Some(known) = SOURCES.iter().find(|s| s.game == game) else {
            anyhow::bail!("SWEEP_DIR: {spec:?}: no game {game:?} in the robustness bench");
        };
        let folder = std::fs::canonicalize(folder)
            .map_err(|e| anyhow::anyhow!("SWEEP_DIR: {folder}: {e}"))?;
        sources.push(Source {
            game: known.game,
            folder: Box::leak(folder.to_string_lossy().into_owned().into_boxed_str()),
            truth: known.truth,
            read: known.read,
        });
    }
    Ok(sources)
}

/// The section of BENCHMARKS.md the sweep writes: `sweep` for all the project's own pictures,
/// `sweep-<game>[-<game>...]` for the games `SWEEP_ONLY` names (so one game's run leaves the
/// others' figures), `sweep-own-folders-<game>[-<game>...]` for the folders of `SWEEP_DIR`
/// (each game named once, in the order given).
pub fn section() -> String {
    if let Ok(specs) = std::env::var("SWEEP_DIR") {
        let mut games: Vec<&str> = Vec::new();
        for game in specs
            .split(',')
            .filter_map(|s| s.split_once('='))
            .map(|(g, _)| g.trim())
        {
            if !games.contains(&game) {
                games.push(game);
            }
        }
        return format!("sweep-own-folders-{}", games.join("-"));
    }
    let first = if twice() { "sweep-twice" } else { "sweep" };
    match std::env::var("SWEEP_ONLY") {
        Ok(only) => format!("{first}-{}", only.replace(',', "-")),
        Err(_) => first.into(),
    }
}

pub fn run(corpus: &Path) -> anyhow::Result<String> {
    let only = std::env::var("SWEEP_ONLY").ok();
    let matching = std::env::var("SWEEP_MATCH").ok();
    let mut jobs = Vec::new();
    let mut games: Vec<&str> = Vec::new();
    for src in sources()? {
        if only
            .as_deref()
            .is_some_and(|g| !g.split(',').any(|g| g.trim() == src.game))
        {
            continue;
        }
        for (path, truth) in robustness::pictures(&src, corpus)? {
            let file = path.file_name().unwrap_or_default().to_string_lossy();
            if matching.as_deref().is_some_and(|m| !file.contains(m)) {
                continue;
            }
            if !games.contains(&src.game) {
                games.push(src.game);
            }
            jobs.push(Job {
                source: src,
                path,
                truth,
            });
        }
    }
    let copies = if twice() { twice_copies() } else { copies() };
    let next = AtomicUsize::new(0);
    let readings = Mutex::new(Vec::new());
    let left_out = Mutex::new(Vec::new());
    let failure = Mutex::new(None);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let started = std::time::Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(k) else { break };
                match sweep_one(job, &copies) {
                    Ok(Ok(r)) => readings.lock().unwrap().extend(r),
                    Ok(Err(why)) => left_out.lock().unwrap().push(why),
                    Err(e) => *failure.lock().unwrap() = Some(e),
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap() {
        return Err(e);
    }
    let mut readings = readings.into_inner().unwrap();
    readings.sort_by(|a, b| (&a.picture, a.copy).cmp(&(&b.picture, b.copy)));
    let mut left_out = left_out.into_inner().unwrap();
    left_out.sort();
    let wall = started.elapsed().as_secs_f64();
    Ok(report(&games, &readings, &left_out, jobs.len(), wall))
}

fn report(
    games: &[&str],
    readings: &[Reading],
    left_out: &[String],
    pictures: usize,
    wall_s: f64,
) -> String {
    let (machine, load) = crate::report::machine_and_load();
    let mut s = String::new();
    match std::env::var("SWEEP_DIR") {
        Ok(dirs) => s.push_str(&format!(
            "## Reading at every size: pictures of one's own\n\nThe folders `{dirs}` \
             (`SWEEP_DIR`), each picture judged against its folder's `index.jsonl`, else \
             against its own untouched reading.\n\n"
        )),
        Err(_) if twice() => s.push_str("## Reading at every size: resampled twice\n\n"),
        Err(_) => s.push_str("## Reading at every size\n\n"),
    }
    if twice() {
        s.push_str(&twice_report(games, readings, left_out, pictures, wall_s));
        print_refusals(readings);
        print!("{s}");
        return s;
    }
    s.push_str(&format!(
        "Machine: {machine}, load average {load} at the start; release build; {pictures} \
         pictures, {} readings in {wall_s:.0} s. Every picture is \
         rescaled from 0.70× to 2.00× every 0.05 with three filters (Lanczos3; bilinear; a box \
         average), and saved as JPEG at quality 20, 50 and 80 at 0.80×, 1.00× and 1.50× \
         (Lanczos). Each cell below is **right / refused / wrong**. Bars: no wrong reading \
         anywhere; at least 97 % right from 0.75× up for each game.\n\n",
        readings.len()
    ));

    // The summary first: the bars.
    s.push_str("| game | readings | right | refused | wrong | right from 0.75× up | bar met |\n");
    s.push_str("|---|---|---|---|---|---|---|\n");
    for game in games {
        let mut all = Count::default();
        let mut up = Count::default();
        for r in readings.iter().filter(|r| r.game == *game) {
            all.add(r.outcome);
            if r.copy.percent >= 75 {
                up.add(r.outcome);
            }
        }
        s.push_str(&format!(
            "| {game} | {} | {} | {} | {} | {:.1} % | {} |\n",
            all.total(),
            all.right,
            all.refused,
            all.wrong,
            up.share(),
            crate::report::met(all.wrong == 0 && up.share() >= 97.0)
        ));
    }

    for game in games {
        let mine: Vec<&Reading> = readings.iter().filter(|r| r.game == *game).collect();
        s.push_str(&format!("\n### {game}\n\n"));
        s.push_str("| size | Lanczos | bilinear | box |\n|---|---|---|---|\n");
        for percent in sizes() {
            let cells: Vec<String> = FILTERS
                .iter()
                .map(|&f| {
                    let mut c = Count::default();
                    for r in mine.iter().filter(|r| {
                        r.copy.percent == percent && r.copy.filter == f && r.copy.quality.is_none()
                    }) {
                        c.add(r.outcome);
                    }
                    c.cell()
                })
                .collect();
            s.push_str(&format!(
                "| {:.2}× | {} |\n",
                percent as f64 / 100.0,
                cells.join(" | ")
            ));
        }
        s.push_str("\n| JPEG | 0.80× | 1.00× | 1.50× |\n|---|---|---|---|\n");
        for q in QUALITIES {
            let cells: Vec<String> = JPEG_SIZES
                .iter()
                .map(|&percent| {
                    let mut c = Count::default();
                    for r in mine
                        .iter()
                        .filter(|r| r.copy.percent == percent && r.copy.quality == Some(q))
                    {
                        c.add(r.outcome);
                    }
                    c.cell()
                })
                .collect();
            s.push_str(&format!("| q{q} | {} |\n", cells.join(" | ")));
        }
        s.push_str(&cell_sizes(&mine));
        s.push_str(&bands(&mine));
    }

    s.push_str(&wrong_list(readings));
    if !left_out.is_empty() {
        s.push_str("\n\nLeft out (the untouched picture does not read right):\n");
        for l in left_out {
            s.push_str(&format!("\n* {l}"));
        }
    }
    s.push('\n');
    print_refusals(readings);
    print!("{s}");
    s
}

/// The twice-resampled copies' counts: per first shrink and filter, and by cell size.
fn twice_report(
    games: &[&str],
    readings: &[Reading],
    left_out: &[String],
    pictures: usize,
    wall_s: f64,
) -> String {
    let (machine, load) = crate::report::machine_and_load();
    let mut s = format!(
        "Machine: {machine}, load average {load} at the start; release \
         build; {pictures} pictures, {} readings in {wall_s:.0} s. Every picture is shrunk by \
         Lanczos3 to 30 %–90 % every 10, then enlarged 1.00×–2.00× every 0.05 with three \
         filters (Lanczos3; bilinear; a box average): a shared copy of a shared copy. Each cell \
         below is **right / refused / wrong**, over the 21 enlargements. Bar: no wrong \
         reading.\n\n| game | readings | right | refused | wrong | bar met |\n|---|---|---|---|---|---|\n",
        readings.len()
    );
    for game in games {
        let mut all = Count::default();
        for r in readings.iter().filter(|r| r.game == *game) {
            all.add(r.outcome);
        }
        s.push_str(&format!(
            "| {game} | {} | {} | {} | {} | {} |\n",
            all.total(),
            all.right,
            all.refused,
            all.wrong,
            crate::report::met(all.wrong == 0)
        ));
    }
    for game in games {
        let mine: Vec<&Reading> = readings.iter().filter(|r| r.game == *game).collect();
        s.push_str(&format!(
            "\n### {game}\n\n| shrunk to | Lanczos | bilinear | box |\n|---|---|---|---|\n"
        ));
        for shrunk in SHRINKS {
            let cells: Vec<String> = FILTERS
                .iter()
                .map(|&f| {
                    let mut c = Count::default();
                    for r in mine
                        .iter()
                        .filter(|r| r.copy.shrunk == Some(shrunk) && r.copy.filter == f)
                    {
                        c.add(r.outcome);
                    }
                    c.cell()
                })
                .collect();
            s.push_str(&format!("| {shrunk} % | {} |\n", cells.join(" | ")));
        }
        s.push_str(&cell_sizes(&mine));
    }
    s.push_str(&wrong_list(readings));
    if !left_out.is_empty() {
        s.push_str("\n\nLeft out (the untouched picture does not read right):\n");
        for l in left_out {
            s.push_str(&format!("\n* {l}"));
        }
    }
    s.push('\n');
    s
}

/// Each refusal's reason on standard error, when `SWEEP_REFUSALS` asks for them.
fn print_refusals(readings: &[Reading]) {
    if std::env::var_os("SWEEP_REFUSALS").is_some() {
        for r in readings.iter().filter(|r| r.outcome == Outcome::Refused) {
            eprintln!("{} {}: {}", r.picture, r.copy.name(), r.reason);
        }
    }
}

/// Every wrong reading, named.
fn wrong_list(readings: &[Reading]) -> String {
    let mut s = String::from("\nWrong readings:\n");
    let wrong: Vec<&Reading> = readings
        .iter()
        .filter(|r| r.outcome == Outcome::Wrong)
        .collect();
    if wrong.is_empty() {
        s.push_str("\n* none\n");
    }
    for r in wrong {
        s.push_str(&format!(
            "\n* {}, {}: {}",
            r.picture,
            r.copy.name(),
            r.reason
        ));
    }
    s
}

/// The readings by the copy's cell size in pixels (4-pixel bins), lossless copies only: where a
/// reader's floor is, measured.
fn cell_sizes(mine: &[&Reading]) -> String {
    let mut bins: BTreeMap<u32, Count> = BTreeMap::new();
    for r in mine.iter().filter(|r| r.copy.quality.is_none()) {
        bins.entry((r.cell_px / 4.0).floor() as u32 * 4)
            .or_default()
            .add(r.outcome);
    }
    let smallest_right = mine
        .iter()
        .filter(|r| r.outcome == Outcome::Right)
        .map(|r| r.cell_px)
        .fold(f64::INFINITY, f64::min);
    let largest_refused = mine
        .iter()
        .filter(|r| r.outcome == Outcome::Refused && r.copy.quality.is_none())
        .map(|r| r.cell_px)
        .reduce(f64::max);
    let largest_refused = match largest_refused {
        Some(px) => format!("the largest refused is {px:.1} px"),
        None => "no lossless copy was refused".to_string(),
    };
    let mut s = format!(
        "\nBy cell size in the copy (lossless copies): the smallest cell read right is \
         {smallest_right:.1} px; {largest_refused}.\n\n\
         | cell px | right | refused | wrong | right share |\n|---|---|---|---|---|\n"
    );
    for (px, c) in bins {
        s.push_str(&format!(
            "| {px}–{} | {} | {} | {} | {:.0} % |\n",
            px + 4,
            c.right,
            c.refused,
            c.wrong,
            c.share()
        ));
    }
    s
}

/// Each picture's refused sizes per filter, and one reason.
fn bands(mine: &[&Reading]) -> String {
    let mut by: BTreeMap<(&str, Filter), (Vec<u32>, &str)> = BTreeMap::new();
    let mut jpeg: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for r in mine.iter().filter(|r| r.outcome != Outcome::Right) {
        if r.copy.quality.is_some() {
            jpeg.entry(&r.picture).or_default().push(r.copy.name());
            continue;
        }
        let e = by
            .entry((&r.picture, r.copy.filter))
            .or_insert((Vec::new(), &r.reason));
        e.0.push(r.copy.percent);
    }
    if by.is_empty() && jpeg.is_empty() {
        return "\nEvery picture read right at every size.\n".into();
    }
    let mut s = String::from("\nRefused (or wrong) sizes, per picture and filter:\n");
    for ((picture, filter), (percents, reason)) in by {
        let reason: String = reason.chars().take(140).collect();
        s.push_str(&format!(
            "\n* {picture}, {}: {} ({reason})",
            filter.name(),
            ranges(&percents)
        ));
    }
    for (picture, names) in jpeg {
        s.push_str(&format!("\n* {picture}: {}", names.join(", ")));
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_run_from_seventy_to_two_hundred_percent() {
        let all: Vec<u32> = sizes().collect();
        assert_eq!(all.len(), 27);
        assert_eq!((all[0], all[26]), (70, 200));
        // 27 sizes × 3 filters, and 3 qualities at 3 sizes.
        assert_eq!(copies().len(), 27 * 3 + 9);
        // 7 shrinks × 21 enlargements × 3 filters, each named by both steps.
        let twice = twice_copies();
        assert_eq!(twice.len(), 7 * 21 * 3);
        assert_eq!(twice[0].name(), "0.30× Lanczos then 1.00× Lanczos");
        assert!((twice[0].scale() - 0.30).abs() < 1e-9);
    }

    #[test]
    fn refused_sizes_are_written_as_ranges() {
        assert_eq!(ranges(&[70, 75, 80, 95]), "0.70–0.80, 0.95");
        assert_eq!(ranges(&[135, 155, 175, 195]), "1.35, 1.55, 1.75, 1.95");
    }

    #[test]
    fn a_box_average_halves_a_checkerboard_to_grey() {
        let img = RgbaImage::from_fn(8, 8, |x, y| {
            let v = if (x + y) % 2 == 0 { 0 } else { 200 };
            Rgba([v, v, v, 255])
        });
        let half = box_resize(&img, 4, 4);
        assert!(half.pixels().all(|p| p.0 == [100, 100, 100, 255]));
        // At a third of the way between sizes the shares still sum to one.
        for ws in box_weights(10, 7) {
            let sum: f32 = ws.iter().map(|w| w.1).sum();
            assert!((sum - 1.0).abs() < 1e-5, "{ws:?}");
        }
    }
}
