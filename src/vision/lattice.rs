//! Evenly spaced grids: where the lines of a board's lattice start and how far apart they are,
//! along one axis at a time. Two sources, because boards draw their grid two ways: as solid
//! lines of a known colour (counted per column or row by the caller) or as thin bright ridges
//! between tiles of art, found here from brightness alone.

use super::color::brightness;
use super::fit;
use super::runs::runs;
use image::{Rgba, RgbaImage};

/// Grid lines along one axis: the first line's position, the spacing, and the number of cells
/// between the first and the last line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Axis {
    pub start: f64,
    pub pitch: f64,
    pub cells: usize,
}

impl Axis {
    /// Where the lattice ends: the last line's position.
    pub fn end(&self) -> f64 {
        self.start + self.pitch * self.cells as f64
    }

    /// Every line's position, first to last.
    pub fn lines(&self) -> Vec<f64> {
        (0..=self.cells)
            .map(|k| self.start + k as f64 * self.pitch)
            .collect()
    }
}

/// Per position along one axis, how many pixels sit on a thin bright ridge across that axis.
/// Grid lines run the whole board, so a few hundred lines of pixels the other way suffice.
pub fn ridge_profile(img: &RgbaImage, across_x: bool) -> Vec<u32> {
    const D: usize = 2;
    const T: i16 = 6;
    const SAMPLED: usize = 384;
    let (w, h) = (img.width() as usize, img.height() as usize);
    let raw = img.as_raw();
    let lum_at = |x: usize, y: usize| {
        let o = (y * w + x) * 4;
        brightness(Rgba([raw[o], raw[o + 1], raw[o + 2], 255]))
    };
    let (n, m) = if across_x { (w, h) } else { (h, w) };
    // Lines of pixels to sample across the other axis: blocks of neighbours, so a sampled column
    // costs few cache lines per image row.
    const BLOCK: usize = 16;
    let picks: Vec<usize> = if m <= SAMPLED {
        (0..m).collect()
    } else {
        let blocks = SAMPLED / BLOCK;
        (0..blocks)
            .flat_map(|b| (0..BLOCK).map(move |o| b * (m - BLOCK) / (blocks - 1) + o))
            .collect()
    };
    // Luminance as lines[j][i], filled in row order so memory is read sequentially.
    let lines: Vec<Vec<i16>> = if across_x {
        picks
            .iter()
            .map(|&y| (0..n).map(|x| lum_at(x, y)).collect())
            .collect()
    } else {
        let mut t = vec![Vec::with_capacity(n); picks.len()];
        for y in 0..n {
            for (j, &x) in picks.iter().enumerate() {
                t[j].push(lum_at(x, y));
            }
        }
        t
    };
    let mut s = vec![0u32; n];
    for line in &lines {
        for i in 0..n {
            let side = match (i.checked_sub(D), (i + D < n).then_some(i + D)) {
                (Some(a), Some(b)) => line[a].max(line[b]),
                (Some(a), None) | (None, Some(a)) => line[a],
                (None, None) => continue,
            };
            if line[i] - side >= T {
                s[i] += 1;
            }
        }
    }
    s
}

/// Running sums for a least-squares line through (index, position) points.
#[derive(Default)]
struct LineSums {
    n: f64,
    i: f64,
    x: f64,
    ii: f64,
    ix: f64,
}

impl LineSums {
    fn add(&mut self, i: f64, x: f64) {
        self.n += 1.0;
        self.i += i;
        self.x += x;
        self.ii += i * i;
        self.ix += i * x;
    }

    /// Intercept and slope; the points have at least two distinct indices.
    fn line(&self) -> (f64, f64) {
        let slope = (self.n * self.ix - self.i * self.x) / (self.n * self.ii - self.i * self.i);
        ((self.x - slope * self.i) / self.n, slope)
    }
}

/// The lattice along a profile of ridge counts: the longest chain of evenly spaced ridges (one
/// missing ridge bridged, since a sprite can hide a line), fitted by least squares, with a
/// tile the crop cut the outer line off counted in.
pub fn axis_from_ridges(s: &[u32]) -> Option<Axis> {
    let max = *s.iter().max()?;
    if max < 20 {
        return None;
    }
    let thr = (max / 4).max(10);
    let mut cands: Vec<(f64, f64)> = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] < thr {
            i += 1;
            continue;
        }
        let (mut sw, mut sx, mut top) = (0.0, 0.0, 0u32);
        while i < s.len() && s[i] >= thr {
            sw += s[i] as f64;
            sx += s[i] as f64 * i as f64;
            top = top.max(s[i]);
            i += 1;
        }
        cands.push((sx / sw, top as f64));
    }
    // Busy pictures give many short ridges; the pair search below is quadratic in them.
    const MAX_CANDS: usize = 400;
    if cands.len() > MAX_CANDS {
        cands.sort_by(|a, b| b.1.total_cmp(&a.1));
        cands.truncate(MAX_CANDS);
        cands.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    // Chains of (candidate, line index); one missing line is bridged (a sprite can hide it).
    let mut best: Option<(f64, Vec<(usize, usize)>)> = None;
    for a in 0..cands.len() {
        for b in a + 1..cands.len() {
            let d = cands[b].0 - cands[a].0;
            if d < 8.0 {
                continue;
            }
            let tol = (d * 0.05).max(2.0);
            let mut chain = vec![(a, 0), (b, 1)];
            // The next line is looked for where the line fitted through the chain so far puts
            // it, not a pitch on from the last one: a lossy copy can merge a line with ringing
            // beside it into one ridge a pixel or two off, and from there the chain drifted
            // onto the ringing for the rest of its run (the far tiles a quarter of a tile off).
            let mut sums = LineSums::default();
            sums.add(0.0, cands[a].0);
            sums.add(1.0, cands[b].0);
            'grow: loop {
                let (last, idx) = *chain.last().unwrap();
                let (intercept, pitch) = sums.line();
                for step in 1..=2 {
                    let want = intercept + (idx + step) as f64 * pitch;
                    // The nearest within tolerance: a sprite edge a few pixels off a line
                    // must not take its place and bend the pitch.
                    let hit = (last + 1..cands.len())
                        .take_while(|&k| cands[k].0 <= want + tol)
                        .filter(|&k| (cands[k].0 - want).abs() <= tol)
                        .min_by(|&i, &j| {
                            (cands[i].0 - want)
                                .abs()
                                .total_cmp(&(cands[j].0 - want).abs())
                        });
                    if let Some(k) = hit {
                        chain.push((k, idx + step));
                        sums.add((idx + step) as f64, cands[k].0);
                        continue 'grow;
                    }
                }
                break;
            }
            if chain.len() < 4 {
                continue;
            }
            let score: f64 = chain.iter().map(|&(k, _)| cands[k].1).sum();
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, chain));
            }
        }
    }
    let (_, mut chain) = best?;
    // Text or a sprite edge that happens to sit a pitch beyond the board is no grid line: grid
    // lines are about as long as each other.
    let mut strengths: Vec<f64> = chain.iter().map(|&(k, _)| cands[k].1).collect();
    strengths.sort_by(f64::total_cmp);
    let median = strengths[strengths.len() / 2];
    while chain.len() > 2 && cands[chain.last().unwrap().0].1 < 0.5 * median {
        chain.pop();
    }
    while chain.len() > 2 && cands[chain[0].0].1 < 0.5 * median {
        chain.remove(0);
        let first = chain[0].1;
        for c in chain.iter_mut() {
            c.1 -= first;
        }
    }
    if chain.len() < 4 {
        return None;
    }
    // Position against line index.
    let fitted = fit::line(chain.iter().map(|&(k, i)| (i as f64, cands[k].0)))?;
    let pitch = fitted.slope;
    let mut start = fitted.intercept;
    let mut tiles = chain.last().unwrap().1;
    let len = s.len() as f64;
    // A crop can cut the outer line off; a tile is still there if its whole width is.
    let end = start + tiles as f64 * pitch;
    if end + pitch > len - 1.5 && len - end >= 0.75 * pitch {
        tiles += 1;
    }
    if start - pitch < 0.5 && start >= 0.75 * pitch {
        start -= pitch;
        tiles += 1;
    }
    Some(Axis {
        start,
        pitch,
        cells: tiles,
    })
}

/// The lattice along a profile of line-coloured pixel counts whose entries each counted
/// `samples` pixels (a line covers at least a quarter of them); `start` is the profile's first
/// pixel position. Every gap between lines must be a whole number of cells.
pub fn axis_from_lines(profile: &[usize], start: usize, samples: usize) -> Option<Axis> {
    let lines = line_runs(profile, start, samples);
    if lines.len() < 2 {
        return None;
    }
    let mut gaps: Vec<f64> = lines.windows(2).map(|w| w[1].0 - w[0].0).collect();
    gaps.sort_by(f64::total_cmp);
    let typical = gaps[gaps.len() / 2];
    if typical < 12.0 {
        return None;
    }
    axis_of(lines, typical)
}

/// As [`axis_from_lines`], with the spacing known (from the other axis of a square-celled
/// board): for a profile that kept too few lines for its own typical gap to be the pitch (a
/// lossy copy smears some lines out), so long as every gap left is a whole number of `pitch`.
pub fn axis_from_lines_at_pitch(
    profile: &[usize],
    start: usize,
    samples: usize,
    pitch: f64,
) -> Option<Axis> {
    if pitch < 12.0 {
        return None;
    }
    axis_of(line_runs(profile, start, samples), pitch)
}

/// Each run of line-like counts: its middle and its strongest count.
fn line_runs(profile: &[usize], start: usize, samples: usize) -> Vec<(f64, usize)> {
    runs(profile.iter().map(|&n| n * 4 >= samples))
        .into_iter()
        .map(|(s, n)| {
            let middle = (start + s) as f64 + (n as f64 - 1.0) / 2.0;
            (middle, profile[s..s + n].iter().copied().max().unwrap_or(0))
        })
        .collect()
}

/// The axis through `lines` about `typical` apart, when every gap is a whole number of it.
fn axis_of(mut lines: Vec<(f64, usize)>, typical: f64) -> Option<Axis> {
    // A row of other things lined up (island edges along a grid line) can pass for a line a
    // few pixels off a real one: of two lines much closer than a cell, the stronger is it.
    let mut k = 1;
    while k < lines.len() {
        if lines[k].0 - lines[k - 1].0 < typical / 2.0 {
            let weaker = if lines[k].1 > lines[k - 1].1 {
                k - 1
            } else {
                k
            };
            lines.remove(weaker);
        } else {
            k += 1;
        }
    }
    let lines: Vec<f64> = lines.into_iter().map(|(at, _)| at).collect();
    if lines.len() < 2 {
        return None;
    }
    let total = lines[lines.len() - 1] - lines[0];
    let n = (total / typical).round();
    // Every gap must be a whole number of cells, or these are not grid lines.
    if lines
        .windows(2)
        .any(|w| ((w[1] - w[0]) / typical - ((w[1] - w[0]) / typical).round()).abs() > 0.1)
    {
        return None;
    }
    Some(Axis {
        start: lines[0],
        pitch: total / n,
        cells: n as usize,
    })
}

/// As [`axis_from_lines`], for a picture that went through JPEG: ringing beside a sharp line
/// shows as a fainter parallel line a few pixels off it (an echo), which passes for a line of
/// its own and, with one beside every grid line, makes the typical gap the echo's few pixels.
/// Of line runs whose middles are within `echo` pixels of the one before, only the strongest
/// is kept before the spacing is measured.
pub fn axis_from_lines_with_echoes(
    profile: &[usize],
    start: usize,
    samples: usize,
    echo: usize,
) -> Option<Axis> {
    axis_from_lines(&without_echoes(profile, samples, echo), start, samples)
}

/// The profile with, of line runs whose middles are within `echo` pixels of the one before,
/// all but the strongest zeroed.
fn without_echoes(profile: &[usize], samples: usize, echo: usize) -> Vec<usize> {
    let found = runs(profile.iter().map(|&n| n * 4 >= samples));
    let middle = |(s, n): (usize, usize)| s as f64 + (n as f64 - 1.0) / 2.0;
    let strength = |(s, n): (usize, usize)| profile[s..s + n].iter().copied().max().unwrap_or(0);
    let mut cleaned = profile.to_vec();
    let mut group: Vec<(usize, usize)> = Vec::new();
    let mut flush = |group: &mut Vec<(usize, usize)>| {
        let keep = group.iter().copied().max_by_key(|&r| strength(r));
        for &(s, n) in group.iter().filter(|&&r| Some(r) != keep) {
            cleaned[s..s + n].fill(0);
        }
        group.clear();
    };
    for run in found {
        if let Some(&last) = group.last() {
            if middle(run) - middle(last) > echo as f64 {
                flush(&mut group);
            }
        }
        group.push(run);
    }
    flush(&mut group);
    cleaned
}

/// The lattice through line runs of which only some are grid lines: a heavily compressed
/// copy loses the lines at some phases of the codec's 8-px blocks, so the typical gap is a
/// multiple of the pitch, and its ringing draws echoes a few pixels beside the lines (on a
/// dark board, often as strong as the line), and bridges' echoes run along rows. Every pitch
/// that two runs are a whole number (up to 8) of cells apart by, from 12 px on (within 3 % of
/// `hint`, a pitch known from the other axis, when given), is tried from each run; the one that
/// puts the most runs within `max(1.5 px, 5 %)` of a pitch of a line wins (on a tie, the one
/// they fit closest, then the wider, since half of it takes in the same runs), and is fitted to
/// them by least squares. At
/// least four runs must fit, and they must fill a third of the lines between the outer ones.
pub fn axis_from_sparse_lines(
    profile: &[usize],
    start: usize,
    samples: usize,
    hint: Option<f64>,
) -> Option<Axis> {
    let lines: Vec<f64> = line_runs(profile, start, samples)
        .into_iter()
        .map(|(at, _)| at)
        .collect();
    const MOST_SKIPPED: usize = 8;
    const MIN_FIT: usize = 4;
    let tol = |p: f64| (0.05 * p).max(1.5);
    let fits = |anchor: f64, p: f64| -> Vec<(i64, f64)> {
        let mut out: Vec<(i64, f64)> = Vec::new();
        for &x in &lines {
            let k = ((x - anchor) / p).round();
            if (x - (anchor + k * p)).abs() > tol(p) {
                continue;
            }
            // Two runs at one line: the nearer.
            match out.last_mut() {
                Some(last) if last.0 == k as i64 => {
                    if (x - (anchor + k * p)).abs() < (last.1 - (anchor + k * p)).abs() {
                        last.1 = x;
                    }
                }
                _ => out.push((k as i64, x)),
            }
        }
        out
    };
    let filled = |placed: &[(i64, f64)]| {
        let cells = (placed[placed.len() - 1].0 - placed[0].0) as usize;
        placed.len() * 3 > cells
    };
    let mut best: Option<(usize, f64, f64, f64)> = None;
    for (i, &a) in lines.iter().enumerate() {
        for &b in &lines[i + 1..] {
            for k in 1..=MOST_SKIPPED {
                let p = (b - a) / k as f64;
                if p < 12.0 || hint.is_some_and(|h| (p - h).abs() > 0.03 * h) {
                    continue;
                }
                let placed = fits(a, p);
                let n = placed.len();
                // A narrower pitch takes in stray runs too, but leaves most of its lines empty.
                if n < MIN_FIT || !filled(&placed) {
                    continue;
                }
                // Of pitches fitting as many runs, the one they fit best: a pitch bent to take
                // an echo for one line takes it for the next few too.
                let off: f64 = placed
                    .iter()
                    .map(|&(k, x)| (x - (a + k as f64 * p)).powi(2))
                    .sum();
                let better = best.is_none_or(|(bn, boff, _, bp)| {
                    n > bn || (n == bn && (off < boff - 0.5 || (off <= boff + 0.5 && p > bp)))
                });
                if better {
                    best = Some((n, off, a, p));
                }
            }
        }
    }
    let (_, _, anchor, p) = best?;
    let placed = fits(anchor, p);
    let fitted = fit::line(placed.iter().map(|&(k, x)| (k as f64, x)))?;
    let (first, last) = (placed[0].0, placed[placed.len() - 1].0);
    Some(Axis {
        start: fitted.at(first as f64),
        pitch: fitted.slope,
        cells: (last - first) as usize,
    })
}

/// Of the lines at `across` (horizontal lines at those y when `horizontal`, else vertical lines
/// at those x), the share of their length from `lo` to `hi` along them that is drawn: a point
/// counts when `on(x, y)` holds at it or within `reach` pixels across the line.
pub fn drawn_share(
    on: impl Fn(i64, i64) -> bool,
    across: &[f64],
    (lo, hi): (f64, f64),
    horizontal: bool,
    reach: i64,
) -> f64 {
    let (mut drawn, mut all) = (0usize, 0usize);
    for &a in across {
        let a = a.round() as i64;
        for t in lo.round() as i64..=hi.round() as i64 {
            all += 1;
            drawn += (-reach..=reach).any(|d| {
                if horizontal {
                    on(t, a + d)
                } else {
                    on(a + d, t)
                }
            }) as usize;
        }
    }
    drawn as f64 / all.max(1) as f64
}

/// Share of the lines crossing a strip at which the strip is a board's cell; at most
/// `STRIP_OUTSIDE` it is past the board.
pub const STRIP_INSIDE: f64 = 0.35;
pub const STRIP_OUTSIDE: f64 = 0.12;

/// How many whole cells a board whose lines run from edge to edge reaches past a line at
/// `from`, stepping by `step` (a signed pitch): a strip one cell wide is the board's while the
/// lines crossing it are drawn along it (`share` of the strip between two positions, at least
/// [`STRIP_INSIDE`]) and past it once they stop (at most [`STRIP_OUTSIDE`]). A share between
/// the two is no answer: neither a cell nor the page.
pub fn cells_while_drawn(
    from: f64,
    step: f64,
    most: usize,
    share: impl Fn(f64, f64) -> f64,
) -> Option<usize> {
    // A strip's ends are left out: the line bounding it is no line across it.
    let margin = 0.15 * step.abs();
    for k in 0..=most {
        let (a, b) = (from + k as f64 * step, from + (k + 1) as f64 * step);
        let s = share(a.min(b) + margin, a.max(b) - margin);
        if s <= STRIP_OUTSIDE {
            return Some(k);
        }
        if s < STRIP_INSIDE {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board of 4 columns 10 px wide (x 20..60) whose horizontal lines run edge to edge,
    /// found from its two middle lines at x 30 and 40.
    #[test]
    fn a_board_reaches_as_far_as_the_lines_across_it_run() {
        let on = |x: i64, y: i64| (20..60).contains(&x) && y % 10 == 0;
        let rows = [10.0, 20.0, 30.0];
        let share = |lo: f64, hi: f64| drawn_share(on, &rows, (lo, hi), true, 1);
        assert_eq!(cells_while_drawn(30.0, -10.0, 10, share), Some(1));
        assert_eq!(cells_while_drawn(40.0, 10.0, 10, share), Some(2));
        // Lines that fade out halfway through a cell tell neither a cell nor the page.
        let half = |x: i64, y: i64| (20..64).contains(&x) && y % 10 == 0;
        let share = |lo: f64, hi: f64| drawn_share(half, &rows, (lo, hi), true, 1);
        assert_eq!(cells_while_drawn(40.0, 10.0, 10, share), None);
    }

    /// A grey picture with bright one-pixel lines every `pitch` pixels from `start`, `n` lines.
    fn lattice(size: u32, start: u32, pitch: u32, n: u32) -> RgbaImage {
        RgbaImage::from_fn(size, size, |x, y| {
            let on =
                |v: u32| v >= start && (v - start).is_multiple_of(pitch) && (v - start) / pitch < n;
            if on(x) || on(y) {
                Rgba([200, 200, 200, 255])
            } else {
                Rgba([60, 60, 60, 255])
            }
        })
    }

    #[test]
    fn ridges_give_start_pitch_and_cells() {
        let img = lattice(200, 17, 23, 7);
        for across_x in [true, false] {
            let axis = axis_from_ridges(&ridge_profile(&img, across_x)).unwrap();
            assert!((axis.start - 17.0).abs() < 0.01, "{axis:?}");
            assert!((axis.pitch - 23.0).abs() < 0.01, "{axis:?}");
            assert_eq!(axis.cells, 6);
            assert!((axis.end() - (17.0 + 6.0 * 23.0)).abs() < 0.01);
        }
    }

    #[test]
    fn a_flat_picture_has_no_ridges() {
        let img = RgbaImage::from_pixel(100, 100, Rgba([90, 90, 90, 255]));
        assert!(axis_from_ridges(&ridge_profile(&img, true)).is_none());
    }

    #[test]
    fn lines_must_be_whole_cells_apart() {
        // Lines 3 px wide; the one between 70 and 130 is missing (hidden), a gap of two cells.
        let mut profile = vec![0usize; 140];
        for c in [10, 40, 70, 130] {
            for v in &mut profile[c - 1..=c + 1] {
                *v = 8;
            }
        }
        let axis = axis_from_lines(&profile, 5, 8).unwrap();
        assert_eq!((axis.start, axis.pitch, axis.cells), (15.0, 30.0, 4));
        // A line off the lattice makes it no grid.
        for v in &mut profile[54..=56] {
            *v = 8;
        }
        assert!(axis_from_lines(&profile, 0, 8).is_none());
    }

    #[test]
    fn a_known_pitch_spans_lines_too_sparse_for_their_own() {
        // Lines at 10, 100, 130 and 190: the typical gap (60) is no pitch, 30 is.
        let mut profile = vec![0usize; 200];
        for c in [10, 100, 130, 190] {
            profile[c] = 8;
        }
        assert!(axis_from_lines(&profile, 0, 8).is_none());
        let axis = axis_from_lines_at_pitch(&profile, 0, 8, 30.0).unwrap();
        assert_eq!(axis.cells, 6);
        assert!((axis.start - 10.0).abs() < 1e-9 && (axis.pitch - 30.0).abs() < 1e-9);
        // Not a whole number of this pitch: no axis.
        assert!(axis_from_lines_at_pitch(&profile, 0, 8, 40.0).is_none());
    }

    /// A sprite's edge 6 px before a line, within the tolerance of a 130 px pitch, once took
    /// the line's place in the chain, bent the pitch and cut the lattice short.
    #[test]
    fn the_nearest_ridge_continues_the_chain() {
        let mut s = vec![0u32; 1100];
        for k in 0..9 {
            s[10 + 130 * k] = 300;
        }
        s[10 + 130 * 5 - 6] = 120;
        let a = axis_from_ridges(&s).unwrap();
        assert_eq!(a.cells, 8);
        assert!(
            (a.start - 10.0).abs() < 0.5 && (a.pitch - 130.0).abs() < 0.1,
            "{a:?}"
        );
    }

    /// A JPEG q20 copy at 0.8× of a 19×19 board (16.2 px tiles): one line merged with the
    /// ringing beside it into a ridge 1.5 px off, the next line lost, and every line after it
    /// with ringing 4 px to its right. Predicted a pitch on from that ridge, the chain went on
    /// along the ringing, and the fitted pitch came out 16.5 px: the far tiles a third off.
    #[test]
    fn a_chain_keeps_to_its_fitted_line_past_a_lost_one() {
        let (start, pitch) = (20.0, 16.2);
        let mut s = vec![0u32; 420];
        for k in 0..20 {
            let at = (start + k as f64 * pitch).round() as usize;
            match k {
                10 => {
                    for (d, v) in [100, 60, 60, 90].into_iter().enumerate() {
                        s[at + d] = v;
                    }
                }
                11 => {}
                _ => {
                    s[at] = 100;
                    if k >= 12 {
                        s[at + 4] = 90;
                    }
                }
            }
        }
        let a = axis_from_ridges(&s).unwrap();
        assert_eq!(a.cells, 19);
        assert!(
            (a.start - start).abs() < 0.5 && (a.pitch - pitch).abs() < 0.05,
            "{a:?}"
        );
    }

    #[test]
    fn a_weaker_line_a_few_pixels_off_a_grid_line_is_not_one() {
        let mut profile = vec![0; 100];
        for at in [10, 30, 50, 70, 90] {
            profile[at] = 8;
        }
        profile[26] = 3;
        let axis = axis_from_lines(&profile, 0, 8).unwrap();
        assert_eq!((axis.start, axis.pitch, axis.cells), (10.0, 20.0, 4));
    }

    /// JPEG q20 of a 5×5 board: every grid line has an echo 4 px off, so most gaps are 4 px
    /// and the plain reading finds no lattice.
    #[test]
    fn echoes_beside_the_lines_are_not_lines() {
        let mut profile = vec![0usize; 720];
        for at in [2, 145, 288, 431, 574, 717] {
            profile[at - 1..=at].fill(700);
        }
        for at in [6, 141, 149, 292, 435, 578, 713] {
            profile[at] = 650;
        }
        assert!(axis_from_lines(&profile, 0, 720).is_none());
        let axis = axis_from_lines_with_echoes(&profile, 10, 720, 6).unwrap();
        assert_eq!(axis.cells, 5);
        assert!((axis.start - 11.5).abs() < 0.01, "{axis:?}");
        assert!((axis.pitch - 143.0).abs() < 0.01, "{axis:?}");
        // Lines a whole cell apart are never merged, however strong.
        let plain = axis_from_lines_with_echoes(&profile[..300], 0, 720, 6).unwrap();
        assert_eq!(plain.cells, 2);
    }

    /// A profile of line counts with lines at `at` (each one pixel, counting `n`).
    fn profile_with(len: usize, at: &[(usize, usize)]) -> Vec<usize> {
        let mut p = vec![0; len];
        for &(x, n) in at {
            p[x] = n;
        }
        p
    }

    #[test]
    fn sparse_lines_give_the_pitch_not_the_typical_gap() {
        // Lines every 38 px from 10, most of them lost (gaps of 3, 1, 3, 1 cells), an echo
        // 5 px beside some, and a bridge's echo along a row between two lines.
        let kept = [0, 3, 4, 7, 8, 11];
        let mut at: Vec<(usize, usize)> = kept.iter().map(|&k| (10 + 38 * k, 100)).collect();
        at.extend([(15, 100), (10 + 38 * 4 + 5, 100), (10 + 38 * 5 + 13, 100)]);
        let p = profile_with(500, &at);
        assert!(axis_from_lines(&p, 0, 100).is_none());
        let axis = axis_from_sparse_lines(&p, 0, 100, None).unwrap();
        assert!((axis.start - 10.0).abs() < 0.01, "{axis:?}");
        assert!((axis.pitch - 38.0).abs() < 0.01, "{axis:?}");
        assert_eq!(axis.cells, 11);
        // Seeded by the other axis's pitch, the same.
        assert_eq!(axis_from_sparse_lines(&p, 0, 100, Some(38.5)), Some(axis));
        // A hint the lines do not fit: none.
        assert_eq!(axis_from_sparse_lines(&p, 0, 100, Some(45.0)), None);
    }

    #[test]
    fn sparse_lines_off_any_lattice_are_refused() {
        // Irregular gaps: no pitch fits four of them.
        let p = profile_with(
            400,
            &[(10, 100), (48, 100), (105, 100), (170, 100), (260, 100)],
        );
        assert!(axis_from_sparse_lines(&p, 0, 100, None).is_none());
        // Four lines fit, but spread over 20 lines' room: too few to tell.
        let p = profile_with(900, &[(10, 100), (48, 100), (504, 100), (770, 100)]);
        assert!(axis_from_sparse_lines(&p, 0, 100, None).is_none());
    }
}
