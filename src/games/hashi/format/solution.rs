//! A solution's bridges as a JSON list, in either cell order.

use crate::error::{Error, Result};
use crate::games::hashi::model::{Bridge, Bridges, Cell};
use serde_json::Value;

/// Which number of a bridge array comes first: our JSON writes `[r1, c1, r2, c2, n]`, the
/// corpora's solutions `[x1, y1, x2, y2, n]` with x the column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellOrder {
    RowFirst,
    ColumnFirst,
}

/// Reads a JSON list of bridges, each five numbers in `order`; sorted.
pub fn bridges_from_json(v: &Value, order: CellOrder, source: &str) -> Result<Bridges> {
    let bad = |what: String| Error::parse(source, 1, 1, what);
    let list = v
        .as_array()
        .ok_or_else(|| bad("the bridges are not a list".into()))?;
    let mut out = Bridges::new();
    for (k, b) in list.iter().enumerate() {
        let n: Option<Vec<usize>> = b
            .as_array()
            .map(|a| a.iter().map(|x| x.as_u64().map(|x| x as usize)).collect())
            .unwrap_or(None);
        let Some(&[p, q, r, s, count]) = n.as_deref() else {
            return Err(bad(format!(
                "bridge {} is not five whole numbers: {b}",
                k + 1
            )));
        };
        let (a, b) = match order {
            CellOrder::RowFirst => (Cell { row: p, col: q }, Cell { row: r, col: s }),
            CellOrder::ColumnFirst => (Cell { row: q, col: p }, Cell { row: s, col: r }),
        };
        out.push(Bridge::new(a, b, count as u8));
    }
    out.sort();
    Ok(out)
}
