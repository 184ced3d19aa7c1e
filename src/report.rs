//! What `scan`, `solve` and `play` print with `--json`. The fields every game shares are
//! declared once here; each game adds its own fields from a serde struct of its own, as a
//! [`Detail`], so this module needs to know no game.

use crate::plan::Plan;
use crate::vision::geometry::Geometry;
use serde::Serialize;
use serde_json::{Map, Value};

/// How a solve ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Solved,
    Optimal,
    Unsolvable,
    GaveUp,
}

impl Status {
    /// The name `--json` gives it.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Optimal => "optimal",
            Status::Unsolvable => "unsolvable",
            Status::GaveUp => "gave_up",
        }
    }

    /// 0 for an answer, 1 for none (unsolvable, or the solver gave up).
    pub fn exit_code(self) -> u8 {
        match self {
            Status::Solved | Status::Optimal => 0,
            Status::Unsolvable | Status::GaveUp => 1,
        }
    }
}

/// The fields of a report that only one game has: its own serde struct, as JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Detail(Map<String, Value>);

impl Detail {
    /// The game's part of a report; `part` is a struct with named fields.
    pub fn of<T: Serialize>(part: &T) -> Detail {
        match serde_json::to_value(part) {
            Ok(Value::Object(fields)) => Detail(fields),
            other => panic!("a report part must be a struct with named fields, got {other:?}"),
        }
    }

    /// Columns × rows of the board, from the game's `width` and `height` or its `rows`.
    pub fn grid_size(&self) -> Option<(usize, usize)> {
        let number = |k: &str| self.0.get(k)?.as_u64().map(|n| n as usize);
        if let (Some(w), Some(h)) = (number("width"), number("height")) {
            return Some((w, h));
        }
        let rows = self.0.get("rows")?.as_array()?;
        Some((rows.first()?.as_str()?.chars().count(), rows.len()))
    }
}

/// The board's size and text, as each grid game's `scan --json` gives them (flattened into
/// the game's own fields).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Grid {
    pub width: usize,
    pub height: usize,
    /// A character per cell: the game's marks, `.` for an empty cell.
    pub rows: Vec<String>,
    /// The canonical text.
    pub puzzle: String,
}

/// `scan --json`, and the `scan` part of `play --json`.
#[derive(Debug, Clone, Serialize)]
pub struct ScanReport {
    pub game: &'static str,
    /// The grid in image pixels: `origin` is the centre of cell (0,0), `board` is x, y, w, h.
    pub geometry: Geometry,
    /// 0..1: the weakest evidence behind anything read.
    pub confidence: f64,
    #[serde(flatten)]
    pub detail: Detail,
}

/// `solve --json`, and the `solve` part of `play --json`.
#[derive(Debug, Clone, Serialize)]
pub struct SolveReport {
    pub game: &'static str,
    pub status: Status,
    /// Solver time, parsing excluded.
    pub elapsed_ms: f64,
    #[serde(flatten)]
    pub detail: Detail,
}

/// `play --json`: what was read, solved and planned, and what playing it did.
#[derive(Debug, Serialize)]
pub struct PlayReport<'a> {
    pub game: &'static str,
    pub scan: &'a ScanReport,
    pub solve: &'a SolveReport,
    pub plan: &'a Plan,
    pub played: bool,
    /// Only when the board was read after play and differs from the solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub differences: Option<Vec<String>>,
    /// Only when play ended well: whether the board was read again and matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One line of JSON. Keys come out sorted, as they always have, so scripts that compare
/// outputs as text keep working.
pub fn to_line<T: Serialize>(report: &T) -> serde_json::Result<String> {
    serde_json::to_string(&serde_json::to_value(report)?)
}

/// Indented JSON, keys sorted as in [`to_line`].
pub fn to_pretty<T: Serialize>(report: &T) -> serde_json::Result<String> {
    serde_json::to_string_pretty(&serde_json::to_value(report)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_names_are_the_json_ones() {
        for s in [
            Status::Solved,
            Status::Optimal,
            Status::Unsolvable,
            Status::GaveUp,
        ] {
            assert_eq!(serde_json::to_value(s).unwrap(), s.name());
        }
    }

    #[derive(Serialize)]
    struct Part {
        rows: Vec<&'static str>,
        budget: Option<u32>,
    }

    #[test]
    fn a_game_part_sits_beside_the_shared_fields_with_keys_sorted() {
        let report = SolveReport {
            game: "demo",
            status: Status::GaveUp,
            elapsed_ms: 1.5,
            detail: Detail::of(&Part {
                rows: vec!["ab"],
                budget: None,
            }),
        };
        assert_eq!(
            to_line(&report).unwrap(),
            r#"{"budget":null,"elapsed_ms":1.5,"game":"demo","rows":["ab"],"status":"gave_up"}"#
        );
        assert_eq!(Status::GaveUp.exit_code(), 1);
        assert_eq!(Status::Optimal.exit_code(), 0);
    }
}
