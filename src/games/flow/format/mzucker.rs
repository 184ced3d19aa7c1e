//! mzucker's rows: one line per row, a letter per endpoint (each letter a colour used exactly
//! twice), any other character an empty cell. They hold only plain rectangles: every cell
//! there, joined to its four neighbours and nothing else.

use super::super::model::{GridSpec, Puzzle};
use super::{build_error, pair_letters};
use crate::error::{Error, Result};

/// mzucker's rows: a letter per endpoint, anything else an empty cell, all rows one length.
pub(super) fn parse_mzucker(text: &str, source: &str) -> Result<Puzzle> {
    let rows: Vec<(usize, Vec<char>)> = text
        .lines()
        .enumerate()
        .map(|(k, l)| (k + 1, l.trim_end().chars().collect::<Vec<char>>()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let width = rows[0].1.len();
    let mut spec = GridSpec {
        rows: rows.len(),
        cols: width,
        ..GridSpec::default()
    };
    let mut letters = Vec::new();
    for (r, (line, chars)) in rows.iter().enumerate() {
        if chars.len() != width {
            return Err(Error::parse(
                source,
                *line,
                chars.len().min(width) + 1,
                format!(
                    "row has {} cells, the first row has {width}: rows must be one length",
                    chars.len()
                ),
            ));
        }
        for (c, &ch) in chars.iter().enumerate() {
            if ch.is_ascii_alphabetic() {
                letters.push((ch, r * width + c, *line, c + 1));
            } else if !ch.is_ascii_graphic() {
                return Err(Error::parse(
                    source,
                    *line,
                    c + 1,
                    format!("unexpected {ch:?}: use a letter per endpoint and `.` for empty"),
                ));
            }
        }
    }
    spec.flows = pair_letters(&letters, source)?;
    spec.build()
        .map_err(|e| build_error(source, rows[0].0, 1, e))
}

/// The board as mzucker's rows, or why it has none: a hole, bridge, wall, wrap or hex
/// neighbour has no letter there.
pub(super) fn to_mzucker(p: &Puzzle) -> std::result::Result<String, String> {
    let spec = GridSpec::of(p)?;
    let unfit = [
        (spec.hex, "hex cells"),
        (spec.torus, "wraps"),
        (!spec.holes.is_empty(), "holes"),
        (!spec.bridges.is_empty(), "bridges"),
        (!spec.walls.is_empty(), "walls"),
    ];
    if let Some((_, what)) = unfit.iter().find(|(has, _)| *has) {
        return Err(format!(
            "mzucker's rows hold only plain rectangles, and this board has {what}"
        ));
    }
    let mut grid = vec![vec!['.'; spec.cols]; spec.rows];
    for (letter, ends) in &spec.flows {
        if !letter.is_ascii_alphabetic() {
            return Err(format!("colour {letter:?} is not a letter"));
        }
        for k in ends {
            grid[k / spec.cols][k % spec.cols] = *letter;
        }
    }
    Ok(grid
        .into_iter()
        .map(|row| row.into_iter().collect::<String>() + "\n")
        .collect())
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    #[test]
    fn rows_round_trip_and_keep_their_letters() {
        let text = "Rm.\n...\nmR.\n";
        let p = parse(text, "t").unwrap();
        assert_eq!(to_mzucker(&p).unwrap(), text);
    }

    #[test]
    fn boards_beyond_a_plain_rectangle_are_refused_naming_why() {
        let holed = parse("5,0,1,1,,2;0,4", "t").unwrap();
        let e = to_mzucker(&holed).unwrap_err();
        assert!(e.contains("holes"), "{e}");
        let bridged = parse("BRIDGES\nA-*-A\n| | |\nB-.-B\n", "t").unwrap();
        assert!(to_mzucker(&bridged).unwrap_err().contains("bridges"));
        let warped = parse("W_3,0,1,1;0,2", "t").unwrap();
        assert!(to_mzucker(&warped).unwrap_err().contains("wraps"));
    }
}
