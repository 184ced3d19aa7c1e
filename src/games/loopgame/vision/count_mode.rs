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
//!
//! With "Show both" a number counts down and its hint stands small in the cell's top-right
//! corner (`corner`): the board counts down, and every total must agree with its count-down.

use super::digits::{Read, Total};
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
    /// The small total in the cell's corner ("Show both"), as read, when there is one.
    pub(super) total: Option<Total>,
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

/// The hints on an `n`×`n` board: as counted down and checked against the small totals when
/// the numbers show them ("Show both"); as counted down when nothing tells the readings apart or
/// the picture rules showing totals out; as totals when it rules counting down out; by which
/// reading's puzzle alone has a loop otherwise; refused when that is not known.
pub(super) fn hints(n: usize, seen: &[Seen]) -> Result<Puzzle> {
    if seen.iter().any(|s| s.total.is_some()) {
        return shown_both(n, seen);
    }
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
        puzzle.hints[r * n + c] = Some(count_down_hint(s, None)? as u8);
    }
    Ok(puzzle)
}

/// A number's hint when it counts down: shown + drawn. A digit where a minus puts it, the
/// minus unseen, is settled by `total` (the hint the cell's corner shows) when known.
fn count_down_hint(s: &Seen, total: Option<i32>) -> std::result::Result<i32, NotHad> {
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
    // is known only when one sign makes no hint, or the total names one.
    let shown = match s.sign {
        Sign::Hidden if fits(hint) && fits(drawn - shown) => match total {
            Some(t) if t == hint => shown,
            Some(t) if t == drawn - shown => -shown,
            Some(t) => {
                return Err(NotHad::RuledOut(both_refused(
                    s.at,
                    s.region,
                    &format!(
                        "a digit placed as after a minus, none seen (the path over it?): a \
                         hint of {hint} or {}, but the small total in its corner reads {t}",
                        drawn - shown
                    ),
                )))
            }
            None => {
                return Err(NotHad::Unsure(Error::vision(
                    Some(s.region),
                    format!(
                        "row {r} col {c}: a digit placed as after a minus, none seen (the path \
                         over it?): it shows {shown} or -{shown}, a hint of {hint} or {}",
                        drawn - shown
                    ),
                )))
            }
        },
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
    Ok(hint)
}

/// What a user can do about a board whose small totals do not settle it.
const SET_COUNT_DOWN: &str = "set the app's Behaviour setting to Count down";

fn both_refused(s_at: Cell, region: Region, why: &str) -> Error {
    let [r, c] = s_at;
    Error::vision(
        Some(region),
        format!(
            "row {r} col {c}: {why} (the app's Behaviour setting \"Show both\"): {SET_COUNT_DOWN}"
        ),
    )
}

/// The refusal of a board some of whose numbers show a mark in the cell's top-right corner,
/// for the number at `at` whose corner is not a small total alone (`blank`: shows nothing
/// there).
pub(super) fn corner_unread(at: Cell, region: Region, blank: bool) -> Error {
    both_refused(
        at,
        region,
        if blank {
            "no small total in the cell's top-right corner, where other numbers show one"
        } else {
            "a mark in the cell's top-right corner that is not a small total alone (it touches \
             the number or the path)"
        },
    )
}

/// "Show both": each number counts down, its hint small in the cell's top-right corner. Every
/// number must show that total, its shape most like the hint its count-down gives: the total
/// confirms the count-down, and settles a minus the path may hide.
fn shown_both(n: usize, seen: &[Seen]) -> Result<Puzzle> {
    let mut puzzle = Puzzle::empty(n, n);
    for s in seen {
        let [r, c] = s.at;
        let (total, settles) = match s.total {
            None => return Err(corner_unread(s.at, s.region, true)),
            Some(t @ Total { value: Some(v), .. }) => (v, t.settles()),
            Some(Total { score, .. }) => {
                return Err(both_refused(
                    s.at,
                    s.region,
                    &format!(
                        "the small total in the cell's corner is like no digit (best likeness \
                         {score:.2})"
                    ),
                ))
            }
        };
        let hint = count_down_hint(s, settles).map_err(not_had)?;
        if hint != total {
            return Err(both_refused(
                s.at,
                s.region,
                &format!(
                    "shows {} with {} drawn turns around it, a hint of {hint}, but the small \
                     total in its corner reads {total}",
                    s.read.value, s.drawn
                ),
            ));
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
            total: None,
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
            // "Show both": the count-down with each hint in its corner always reads.
            let both: Vec<Seen> = down
                .iter()
                .map(|x| {
                    let [r, c] = x.at;
                    let hint = truth.hints[r * s.size + c].map(i32::from);
                    Seen {
                        total: Some(Total {
                            value: hint,
                            score: 1.0,
                        }),
                        ..x.clone()
                    }
                })
                .collect();
            let read = hints(s.size, &both).unwrap_or_else(|e| panic!("{} both: {e}", s.file));
            assert_eq!(read.rows(), truth.rows(), "{} showing both", s.file);
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

    /// "Show both": the small total confirms the count-down's hint and settles a minus the
    /// path may hide; one that disagrees or is like no digit, or a number without one beside
    /// numbers with one, is refused naming the setting.
    #[test]
    fn a_small_total_confirms_the_count_down() {
        // Shows 1 with 2 turns drawn around it: a hint of 3 counting down.
        let with = |at: [usize; 2], sign: Sign, total: Option<i32>| Seen {
            sign,
            total: Some(Total {
                value: total,
                score: 0.9,
            }),
            ..sure_read(at, 1, false, 2, 9)
        };
        let hint = |seen: &[Seen]| hints(3, seen).map(|p| p.hints[0]);
        let refused = |seen: &[Seen], why: &str| {
            matches!(hints(3, seen), Err(Error::Vision { message, .. })
                if message.contains(why) && message.contains("Show both"))
        };
        assert_eq!(hint(&[with([0, 0], Sign::Plus, Some(3))]).unwrap(), Some(3));
        assert!(refused(&[with([0, 0], Sign::Plus, Some(1))], "reads 1"));
        // A digit where a minus puts it: 1 or -1, a hint of 3 or 1, as the total says.
        assert_eq!(
            hint(&[with([0, 0], Sign::Hidden, Some(3))]).unwrap(),
            Some(3)
        );
        assert_eq!(
            hint(&[with([0, 0], Sign::Hidden, Some(1))]).unwrap(),
            Some(1)
        );
        assert!(refused(&[with([0, 0], Sign::Hidden, Some(2))], "minus"));
        assert!(matches!(
            counted_down(3, &[with([0, 0], Sign::Hidden, None)]),
            Err(NotHad::Unsure(_))
        ));
        assert!(refused(&[with([0, 0], Sign::Plus, None)], "like no digit"));
        let bare = sure_read([2, 2], 2, false, 0, 4);
        assert!(refused(
            &[with([0, 0], Sign::Plus, Some(3)), bare],
            "no small total"
        ));
    }
}
