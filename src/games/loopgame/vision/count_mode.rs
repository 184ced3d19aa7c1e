//! Which of the app's "Behaviour" settings a picture shows, and the hints it then gives.
//!
//! By default the app counts a number down by the path's turns drawn in its block (it shows
//! hint − drawn); with "Show total" it shows the hint itself, unchanging. Either way a number
//! is drawn in the satisfied green when its block holds exactly its hint's turns, or when it
//! shows 0. So where a block holds drawn turns the two readings give different hints, and
//! the colours tell them apart only where a number is satisfied: a green digit other than 0
//! is a satisfied total (it shows its drawn turns), a digit equal to its drawn turns and not
//! green is a count-down. When the colours leave both, the puzzle each reading makes is
//! solved: the app's puzzles all have a loop through every cell, so a reading whose puzzle
//! has none is not the picture's. Anything less certain is refused.

use super::digits::Read;
use super::sign::Sign;
use super::MIN_CONFIDENCE;
use crate::error::{Error, Region, Result};
use crate::games::loopgame::model::{Cell, Puzzle};
use crate::games::loopgame::solve::{solve, Options};
use crate::solving::{Limits, Outcome};
use std::time::Duration;

/// A number as read, with what lies around it.
#[derive(Debug, Clone)]
pub(super) struct Seen {
    pub(super) at: Cell,
    pub(super) region: Region,
    pub(super) read: Read,
    pub(super) sign: Sign,
    /// The path's turns drawn in its block.
    pub(super) drawn: i32,
    /// Cells in its block: the most turns a hint can count.
    pub(super) block: i32,
}

/// Why a reading's hints are not had: the picture rules the reading out, or it may hold but
/// cannot be read for sure.
#[derive(Debug)]
pub(super) enum NotHad {
    RuledOut(Error),
    Unsure(Error),
}

/// The search nodes (and the time) a reading's puzzle is given to show it has a loop or none;
/// an 8×8 daily takes a few thousand.
const SOLVE_NODES: u64 = 2_000_000;
const SOLVE_TIME: Duration = Duration::from_secs(3);

/// The hints on an `n`×`n` board: as counted down when nothing tells the readings apart or
/// the picture rules showing totals out; as totals when it rules counting down out; by which
/// reading's puzzle alone has a loop otherwise; refused when that is not known.
pub(super) fn hints(n: usize, seen: &[Seen]) -> Result<Puzzle> {
    let down = counted_down(n, seen);
    if seen.iter().all(|s| s.drawn == 0) {
        // Both readings give the same hints.
        return down.map_err(not_had);
    }
    let total = totals(n, seen);
    let (down, total) = match (down, total) {
        (Ok(p), Err(NotHad::RuledOut(_))) => return Ok(p),
        (Err(NotHad::RuledOut(_)), Ok(p)) => return Ok(p),
        (Ok(d), Ok(t)) => (d, t),
        // Whatever the total reading gives, a doubt over the count-down one (or both ruled
        // out) is the default behaviour's reason, the one that describes an ordinary capture.
        (Err(e), _) => return Err(not_had(e)),
        (Ok(_), Err(e)) => return Err(not_had(e)),
    };
    match (has_loop(&down), has_loop(&total)) {
        (Some(true), Some(false)) => Ok(down),
        (Some(false), Some(true)) => Ok(total),
        (a, b) => {
            let s = seen
                .iter()
                .find(|s| s.drawn > 0)
                .expect("a block with turns");
            let [r, c] = s.at;
            let why = match (a, b) {
                (Some(true), Some(true)) => "both make a puzzle with a loop",
                (Some(false), Some(false)) => "neither makes a puzzle with a loop",
                _ => "the solver could not settle which makes a puzzle with a loop",
            };
            Err(Error::vision(
                Some(s.region),
                format!(
                    "row {r} col {c}: shows {} with {} drawn turns around it, a hint of {} if \
                     the numbers count down or {} if they show totals (the app's Behaviour \
                     setting), and {why}: clear the drawn path or set Behaviour to Count down",
                    s.read.value,
                    s.drawn,
                    s.read.value + s.drawn,
                    s.read.value
                ),
            ))
        }
    }
}

fn not_had(e: NotHad) -> Error {
    match e {
        NotHad::RuledOut(e) | NotHad::Unsure(e) => e,
    }
}

/// Whether `p` has a loop through every cell: `None` when the search gave up.
fn has_loop(p: &Puzzle) -> Option<bool> {
    let limits = Limits {
        nodes: Some(SOLVE_NODES),
        ..Limits::within(Some(SOLVE_TIME))
    };
    match solve(p, &Options::default(), &limits) {
        Outcome::Solved(_) | Outcome::Optimal(_) => Some(true),
        Outcome::Unsolvable => Some(false),
        Outcome::GaveUp(found) => found.map(|_| true),
    }
}

fn uncertain(s: &Seen, shown: i32) -> Option<NotHad> {
    let [r, c] = s.at;
    (s.read.sure < MIN_CONFIDENCE).then(|| {
        NotHad::Unsure(Error::vision(
            Some(s.region),
            format!(
                "row {r} col {c}: number uncertain (read {shown}, confidence {:.2})",
                s.read.sure
            ),
        ))
    })
}

/// The default behaviour: each number shows its hint less the turns drawn in its block.
fn counted_down(n: usize, seen: &[Seen]) -> std::result::Result<Puzzle, NotHad> {
    let mut puzzle = Puzzle::empty(n, n);
    for s in seen {
        let [r, c] = s.at;
        let (shown, drawn) = (s.read.value, s.drawn);
        if s.read.green && shown != 0 {
            return Err(NotHad::RuledOut(Error::vision(
                Some(s.region),
                format!(
                    "row {r} col {c}: the shape reads {shown} but the colour is the satisfied \
                     green, which a count-down shows only on 0"
                ),
            )));
        }
        let fits = |h: i32| h >= 0 && h <= s.block;
        let hint = shown + drawn;
        // A digit where a minus puts it, the minus unseen (the path drawn over it): the board
        // is known only when one sign makes no hint.
        let shown = match s.sign {
            Sign::Hidden if fits(hint) && fits(drawn - shown) => {
                return Err(NotHad::Unsure(Error::vision(
                    Some(s.region),
                    format!(
                        "row {r} col {c}: a digit placed as after a minus, none seen (the path \
                         over it?): it shows {shown} or -{shown}, a hint of {hint} or {}",
                        drawn - shown
                    ),
                )))
            }
            Sign::Hidden if !fits(hint) => -shown,
            _ => shown,
        };
        let hint = shown + drawn;
        if !fits(hint) {
            return Err(NotHad::RuledOut(Error::vision(
                Some(s.region),
                format!(
                    "row {r} col {c}: shows {shown} with {drawn} drawn turns around it, so its \
                     hint would be {hint}, which its block cannot hold"
                ),
            )));
        }
        if let Some(e) = uncertain(s, shown) {
            return Err(e);
        }
        puzzle.hints[r * n + c] = Some(hint as u8);
    }
    Ok(puzzle)
}

/// "Show total": each number shows its hint, never below zero, green when its block holds
/// exactly its hint's turns (or it is 0).
fn totals(n: usize, seen: &[Seen]) -> std::result::Result<Puzzle, NotHad> {
    let mut puzzle = Puzzle::empty(n, n);
    for s in seen {
        let [r, c] = s.at;
        let shown = s.read.value;
        let ruled_out = |why: String| {
            Err(NotHad::RuledOut(Error::vision(
                Some(s.region),
                format!("row {r} col {c}: {why}"),
            )))
        };
        if s.sign == Sign::Minus || shown < 0 || shown > s.block {
            return ruled_out(format!("shows {shown}, which no total can be"));
        }
        if s.read.green != (shown == 0 || shown == s.drawn) {
            return ruled_out(format!(
                "shows {shown} with {} drawn turns around it {} the satisfied green",
                s.drawn,
                if s.read.green { "in" } else { "not in" }
            ));
        }
        if let Some(e) = uncertain(s, shown) {
            return Err(e);
        }
        puzzle.hints[r * n + c] = Some(shown as u8);
    }
    Ok(puzzle)
}

#[cfg(test)]
mod tests {
    use super::super::path::path_turns;
    use super::super::truth::{fixture_shots, shots, Shot};
    use super::*;

    /// A number read with full confidence, its sign that of its value.
    fn sure_read(at: [usize; 2], value: i32, green: bool, drawn: i32, block: i32) -> Seen {
        Seen {
            at,
            region: Region {
                x: 0,
                y: 0,
                w: 1,
                h: 1,
            },
            read: Read {
                value,
                sure: 1.0,
                green,
            },
            sign: if value < 0 { Sign::Minus } else { Sign::Plus },
            drawn,
            block,
        }
    }

    /// What `s`'s board would show of each hint with its drawn path, counting down or showing
    /// totals, read as the reader reads a clean capture (sure, green as the app paints it).
    fn seen_as(s: &Shot, show_total: bool) -> (Puzzle, Vec<Seen>) {
        let n = s.size;
        let mut truth = Puzzle::empty(n, n);
        let turns = path_turns(n, &s.path, false);
        let mut seen = Vec::new();
        for (r, row) in s.hints.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let Some(hint) = ch.to_digit(10) else {
                    continue;
                };
                truth.hints[r * n + c] = Some(hint as u8);
                let drawn = truth.block(r, c).filter(|&[a, b]| turns[a * n + b]).count() as i32;
                let hint = hint as i32;
                let value = if show_total { hint } else { hint - drawn };
                let green = value == 0 || hint == drawn;
                let block = truth.block_size(r, c) as i32;
                seen.push(sure_read([r, c], value, green, drawn, block));
            }
        }
        (truth, seen)
    }

    /// Every partial board of the corpus and of the project's captures, as the app shows it
    /// counting down and as it shows it with "Show total": each gives its own hints or is
    /// refused, never the other reading's.
    #[test]
    fn either_behaviour_reads_its_own_hints_or_is_refused() {
        let Some(corpus) = shots() else {
            eprintln!("no corpus (AUTOPLAYER_CORPUS): only the project's captures checked");
            return;
        };
        let all: Vec<Shot> = corpus.into_iter().chain(fixture_shots()).collect();
        let (mut partial, mut down_read, mut totals_read, mut totals_refused) = (0, 0, 0, 0);
        for s in all.iter().filter(|s| s.state == "partial") {
            partial += 1;
            let (truth, down) = seen_as(s, false);
            match hints(s.size, &down) {
                Ok(p) => {
                    assert_eq!(p.rows(), truth.rows(), "{} counting down", s.file);
                    down_read += 1;
                }
                Err(Error::Vision { message, .. }) => {
                    assert!(
                        message.contains("Behaviour setting"),
                        "{}: {message}",
                        s.file
                    )
                }
                Err(e) => panic!("{}: {e}", s.file),
            }
            let (_, total) = seen_as(s, true);
            match hints(s.size, &total) {
                Ok(p) => {
                    assert_eq!(p.rows(), truth.rows(), "{} showing totals", s.file);
                    totals_read += 1;
                }
                Err(Error::Vision { .. }) => totals_refused += 1,
                Err(e) => panic!("{}: {e}", s.file),
            }
        }
        eprintln!(
            "{partial} partial boards: counting down {down_read} read, shown as totals \
             {totals_read} read, {totals_refused} refused"
        );
        assert!(partial > 0 && down_read > 0);
    }

    /// A satisfied total (a green digit other than 0) rules counting down out, and a digit
    /// equal to its drawn turns not in green rules totals out, without solving.
    #[test]
    fn a_satisfied_number_tells_the_behaviour() {
        let one = |value: i32, green: bool, drawn: i32| sure_read([0, 0], value, green, drawn, 4);
        assert!(matches!(
            counted_down(4, &[one(2, true, 2)]),
            Err(NotHad::RuledOut(_))
        ));
        assert_eq!(totals(4, &[one(2, true, 2)]).unwrap().hints[0], Some(2));
        assert!(matches!(
            totals(4, &[one(2, false, 2)]),
            Err(NotHad::RuledOut(_))
        ));
        assert_eq!(
            counted_down(4, &[one(2, false, 2)]).unwrap().hints[0],
            Some(4)
        );
        // A 0 is green either way, and neither reading is ruled out by it.
        assert!(counted_down(4, &[one(0, true, 1)]).is_ok());
        assert!(totals(4, &[one(0, true, 1)]).is_ok());
        // A minus is never a total.
        let minus = Seen {
            sign: Sign::Minus,
            ..one(-1, false, 2)
        };
        assert!(matches!(totals(4, &[minus]), Err(NotHad::RuledOut(_))));
    }
}
