//! The app's Game ▸ Copy text: the islands and the bridges drawn.

use super::islands::{build, Header, Raw};
use crate::error::{Error, Result};
use crate::games::hashi::model::{Bridge, Bridges, Cell, Puzzle};

/// The app's Game ▸ Copy text: the islands and the bridges drawn.
///
/// The app prints an island as `'0' + count`, so 10..=12 come out as `:` `;` `<`; higher
/// counts would clash with bridge characters and are not read. Our own rendering's letters
/// (`A` = 10) and `#`/`H` (three bridges) are read too. The app draws every count above one as
/// `=`/`"`, so those read as 2.
pub fn parse_copy_text(text: &str, source: &str) -> Result<(Puzzle, Bridges)> {
    let rows: Vec<(usize, Vec<char>)> = text
        .lines()
        .enumerate()
        .map(|(k, l)| (k, l.trim_end().chars().collect::<Vec<char>>()))
        .skip_while(|(_, l)| l.is_empty())
        .collect();
    let rows: Vec<(usize, Vec<char>)> = {
        let keep = rows
            .iter()
            .rposition(|(_, l)| !l.is_empty())
            .map_or(0, |k| k + 1);
        rows.into_iter().take(keep).collect()
    };
    let Some((first_line, first)) = rows.first() else {
        return Err(Error::parse(source, 1, 1, "empty grid"));
    };
    let width = first.len();
    let height = rows.len();
    let mut raws = Vec::new();
    for (r, (k, line)) in rows.iter().enumerate() {
        if line.len() != width {
            return Err(Error::parse(
                source,
                k + 1,
                line.len().min(width) + 1,
                format!(
                    "row has {} cells, line {} has {width}",
                    line.len(),
                    first_line + 1
                ),
            ));
        }
        for (c, &ch) in line.iter().enumerate() {
            let target = match ch {
                '1'..='9' | ':' | ';' | '<' => ch as u32 - '0' as u32,
                'A'..='G' => ch as u32 - 'A' as u32 + 10,
                '.' | '-' | '=' | '#' | '|' | '"' | 'H' | '!' | '~' => continue,
                _ => {
                    return Err(Error::parse(
                        source,
                        k + 1,
                        c + 1,
                        format!("unexpected {ch:?} in the grid"),
                    ))
                }
            };
            raws.push(Raw {
                row: r,
                col: c,
                target,
                line: k + 1,
                column: c + 1,
            });
        }
    }
    let grid: Vec<&Vec<char>> = rows.iter().map(|(_, l)| l).collect();
    let line_of = |r: usize| rows[r].0 + 1;
    let is_island =
        |r: usize, c: usize| matches!(grid[r][c], '1'..='9' | ':' | ';' | '<' | 'A'..='G');
    let mut bridges = Vec::new();
    // A run of one bridge character must join two islands and stay one count all along.
    let mut read_runs = |horizontal: bool| -> Result<()> {
        let (outer, inner) = if horizontal {
            (height, width)
        } else {
            (width, height)
        };
        for o in 0..outer {
            let at = |i: usize| if horizontal { (o, i) } else { (i, o) };
            let mut i = 0;
            while i < inner {
                let (r, c) = at(i);
                let count = match (horizontal, grid[r][c]) {
                    (true, '-') | (false, '|') => 1,
                    (true, '=') | (false, '"') => 2,
                    (true, '#') | (false, 'H') => 3,
                    _ => {
                        i += 1;
                        continue;
                    }
                };
                let start = i;
                while i < inner && grid[at(i).0][at(i).1] == grid[r][c] {
                    i += 1;
                }
                let closed = start > 0 && i < inner && {
                    let (a, b) = (at(start - 1), at(i));
                    is_island(a.0, a.1) && is_island(b.0, b.1)
                };
                if !closed {
                    return Err(Error::parse(
                        source,
                        line_of(r),
                        c + 1,
                        format!("bridge {:?} does not join two islands", grid[r][c]),
                    ));
                }
                let (a, b) = (at(start - 1), at(i));
                bridges.push(Bridge::new(
                    Cell { row: a.0, col: a.1 },
                    Cell { row: b.0, col: b.1 },
                    count,
                ));
            }
        }
        Ok(())
    };
    read_runs(true)?;
    read_runs(false)?;
    bridges.sort();
    let top = bridges.iter().map(|b| b.count).max().unwrap_or(0);
    let mut puzzle = build(Header::size_only(width, height), raws, source)?;
    puzzle.max_bridges = puzzle.max_bridges.max(top);
    Ok((puzzle, bridges))
}
