//! What `scan`, `solve` and `play` print with `--json`. The fields every game shares are
//! declared once here; each game adds its own as one variant of [`ScanDetail`] and
//! [`SolveDetail`], and values stay typed until they are printed.

use crate::games::{enclose, hashi, Status};
use crate::plan::Plan;
use crate::vision::geometry::Geometry;
use serde::Serialize;

/// `scan --json`, and the `scan` part of `play --json`.
#[derive(Debug, Clone, Serialize)]
pub struct ScanReport {
    pub game: &'static str,
    /// The grid in image pixels: `origin` is the centre of cell (0,0), `board` is x, y, w, h.
    pub geometry: Geometry,
    /// 0..1: the weakest evidence behind anything read.
    pub confidence: f64,
    #[serde(flatten)]
    pub detail: ScanDetail,
}

/// The fields of `scan --json` that only one game has.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum ScanDetail {
    Hashi(hashi::ScanJson),
    Enclose(enclose::ScanJson),
}

/// `solve --json`, and the `solve` part of `play --json`.
#[derive(Debug, Clone, Serialize)]
pub struct SolveReport {
    pub game: &'static str,
    pub status: Status,
    /// Solver time, parsing excluded.
    pub elapsed_ms: f64,
    #[serde(flatten)]
    pub detail: SolveDetail,
}

/// The fields of `solve --json` that only one game has.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum SolveDetail {
    Hashi(hashi::SolveJson),
    Enclose(enclose::SolveJson),
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
