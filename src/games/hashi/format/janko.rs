//! janko/puzzlekit's `problem` text: `rows cols`, then rows of `-` or a number.

use super::islands::{build, Header, Raw};
use crate::error::{Error, Result};
use crate::games::hashi::model::Puzzle;

pub(super) fn is_janko_header(line: &str) -> bool {
    let parts: Vec<&str> = line.split_whitespace().collect();
    parts.len() == 2 && parts.iter().all(|p| p.parse::<usize>().is_ok())
}

/// janko/puzzlekit `problem` text: `rows cols`, then rows of `-` or a number, space separated.
/// `line0` and `column0` place the text inside its container for error messages.
pub(super) fn parse_janko_problem(
    text: &str,
    source: &str,
    line0: usize,
    column0: usize,
) -> Result<Puzzle> {
    let mut lines = text
        .lines()
        .enumerate()
        .skip_while(|(_, l)| l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        return Err(Error::parse(
            source,
            line0,
            column0 + 1,
            "empty problem text",
        ));
    };
    let nums: Vec<usize> = header
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect();
    let &[height, width] = nums.as_slice() else {
        return Err(Error::parse(
            source,
            line0,
            column0 + 1,
            "header must be `rows cols`",
        ));
    };
    let rows: Vec<(usize, &str)> = lines.filter(|(_, l)| !l.trim().is_empty()).collect();
    if rows.len() != height {
        return Err(Error::parse(
            source,
            line0,
            column0 + 1,
            format!("expected {height} rows, found {}", rows.len()),
        ));
    }
    let mut raws = Vec::new();
    for (r, (k, line)) in rows.iter().enumerate() {
        let cells: Vec<&str> = line.split_whitespace().collect();
        if cells.len() != width {
            return Err(Error::parse(
                source,
                line0 + k,
                column0 + 1,
                format!("row {} has {} cells, expected {width}", r + 1, cells.len()),
            ));
        }
        for (c, cell) in cells.iter().enumerate() {
            if *cell == "-" {
                continue;
            }
            let target = cell.parse::<u32>().map_err(|_| {
                Error::parse(
                    source,
                    line0 + k,
                    column0 + 1,
                    format!(
                        "row {} cell {}: {cell:?} is neither `-` nor a number",
                        r + 1,
                        c + 1
                    ),
                )
            })?;
            raws.push(Raw {
                row: r,
                col: c,
                target,
                line: line0 + k,
                column: column0 + 1,
            });
        }
    }
    build(Header::size_only(width, height), raws, source)
}

/// janko/puzzlekit's `problem` text for `p`: `rows cols`, then a row per line.
pub(super) fn to_janko_problem(p: &Puzzle) -> String {
    let mut s = format!("{} {}", p.rows, p.cols);
    let mut grid = vec![vec!["-".to_string(); p.cols]; p.rows];
    for i in &p.islands {
        grid[i.at.row][i.at.col] = i.target.to_string();
    }
    for row in grid {
        s.push('\n');
        s.push_str(&row.join(" "));
    }
    s
}

/// The janko JSON line (`w`, `h`, `islands` as `[x, y, n]`, `problem`) with `maxb` and
/// `allow_loops`, which janko's puzzles leave at the classic rules but a Bridges board may not:
/// without them a board of up to four bridges a pair would read back as two.
pub fn to_janko(p: &Puzzle) -> String {
    let islands: Vec<String> = p
        .islands
        .iter()
        .map(|i| format!("[{}, {}, {}]", i.at.col, i.at.row, i.target))
        .collect();
    let problem = serde_json::Value::String(to_janko_problem(p)).to_string();
    format!(
        "{{\"w\": {}, \"h\": {}, \"maxb\": {}, \"allow_loops\": {}, \"islands\": [{}], \"problem\": {problem}}}\n",
        p.cols,
        p.rows,
        p.max_bridges,
        p.allow_loops,
        islands.join(", ")
    )
}
