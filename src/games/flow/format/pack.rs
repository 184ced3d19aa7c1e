//! The app's level packs, one level a line:
//! `DIM,0,LEVEL,NFLOWS[,BRIDGES[,HOLES[,WALLS]]];trace;…`, `X_` before DIM for hex boards,
//! `W_` for boards that wrap both ways. Each trace in the app's packs is its colour's solved
//! path; only its two ends pose the puzzle.

use super::super::model::{GridSpec, Puzzle, Solution};
use super::build_error;
use crate::error::{Error, Result};

/// The most cells the app's packs hold a board of: the reader refuses more, so the writer does.
const PACK_MOST_CELLS: usize = 10_000;

/// `5,0,1,5;...`, `X_9,...`, `W_6:3,...`, `12:14+B,...`: a size, then a comma.
pub(super) fn is_pack_line(line: &str) -> bool {
    let head = line.split(',').next().unwrap_or("");
    line.contains(',')
        && head
            .trim_start_matches("X_")
            .trim_start_matches("W_")
            .starts_with(|c: char| c.is_ascii_digit())
}

/// One level of the app's packs with the app's own solution.
#[derive(Debug, Clone)]
pub struct PackLevel {
    pub puzzle: Puzzle,
    /// The level number as the line states it.
    pub level: usize,
    /// The app's solution: its traces, as model cells.
    pub solution: Solution,
}

/// Flow letters for pack levels, which number their colours: `A`.. then `a`..
fn pack_letter(k: usize) -> char {
    if k < 26 {
        (b'A' + k as u8) as char
    } else {
        (b'a' + (k - 26) as u8) as char
    }
}

/// `DIM,0,LEVEL,NFLOWS[,BRIDGES[,HOLES[,WALLS]]];trace;...`, found on `line` of `source`.
pub fn parse_pack_line(text: &str, source: &str, line: usize) -> Result<PackLevel> {
    let text = text.trim_end();
    let err = |offset: usize, msg: String| Error::parse(source, line, offset + 1, msg);
    // Byte offsets of each `;` part and each `,` field, for error columns.
    let mut parts = Vec::new();
    let mut at = 0;
    for part in text.split(';') {
        parts.push((at, part));
        at += part.len() + 1;
    }
    let (_, head) = parts[0];
    let mut fields = Vec::new();
    let mut at = 0;
    for f in head.split(',') {
        fields.push((at, f));
        at += f.len() + 1;
    }
    if fields.len() < 4 || fields.len() > 7 {
        return Err(err(
            0,
            "expected `DIM,0,LEVEL,NFLOWS[,BRIDGES[,HOLES[,WALLS]]]` before the first `;`".into(),
        ));
    }
    let (_, dim) = fields[0];
    let (hex, torus, rest) = if let Some(r) = dim.strip_prefix("X_") {
        (true, false, r)
    } else if let Some(r) = dim.strip_prefix("W_") {
        (false, true, r)
    } else {
        (false, false, dim)
    };
    let prefix = dim.len() - rest.len();
    let digits = |s: &str| s.chars().take_while(|c| c.is_ascii_digit()).count();
    let n1 = digits(rest);
    let (mut width_s, mut height_s) = (&rest[..n1], &rest[..n1]);
    let mut tail = &rest[n1..];
    if let Some(after) = tail.strip_prefix(':') {
        let n2 = digits(after);
        if n2 > 0 {
            (width_s, height_s) = (&rest[..n1], &after[..n2]);
            tail = &after[n2..];
        }
    }
    // Flags after the size (`+B`, `:I`, `+I`, `:B`) carry nothing the rules need.
    let mut flags = tail;
    while !flags.is_empty() {
        match ["+B", ":I", "+I", ":B"]
            .iter()
            .find(|f| flags.starts_with(**f))
        {
            Some(f) => flags = &flags[f.len()..],
            None => {
                return Err(err(
                    prefix + (rest.len() - flags.len()),
                    format!("unknown size flag {flags:?}"),
                ))
            }
        }
    }
    let bad_size = || err(0, format!("bad board size {dim:?}"));
    let cols: usize = width_s.parse().map_err(|_| bad_size())?;
    let rows: usize = height_s.parse().map_err(|_| bad_size())?;
    if cols == 0 || rows == 0 || cols * rows > PACK_MOST_CELLS {
        return Err(bad_size());
    }
    let n = rows * cols;
    let number = |(off, s): (usize, &str), what: &str| -> Result<usize> {
        s.parse::<usize>()
            .map_err(|_| err(off, format!("{what}: {s:?} is not a number")))
    };
    let cell = |(off, s): (usize, &str), what: &str| -> Result<usize> {
        let k = number((off, s), what)?;
        if k >= n {
            return Err(err(
                off,
                format!("{what}: cell {k} lies outside the {cols}x{rows} board"),
            ));
        }
        Ok(k)
    };
    let level = number(fields[2], "level number")?;
    let nflows = number(fields[3], "number of flows")?;
    let list = |i: usize| -> Vec<(usize, &str)> {
        match fields.get(i) {
            Some(&(off, s)) if !s.is_empty() => {
                let mut out = Vec::new();
                let mut at = off;
                for item in s.split(':') {
                    out.push((at, item));
                    at += item.len() + 1;
                }
                out
            }
            _ => Vec::new(),
        }
    };
    let mut spec = GridSpec {
        rows,
        cols,
        hex,
        torus,
        ..GridSpec::default()
    };
    for item in list(4) {
        spec.bridges.push(cell(item, "bridge")?);
    }
    for (off, s) in list(5) {
        // Holes are spelt `idx`, `idx_0` or `idx_0B`; only the index matters.
        let idx = s.split('_').next().unwrap_or("");
        spec.holes.push(cell((off, idx), "hole")?);
    }
    for (off, s) in list(6) {
        let Some((a, b)) = s.split_once('|') else {
            return Err(err(off, format!("wall {s:?} is not `a|b`")));
        };
        spec.walls.push((
            cell((off, a), "wall")?,
            cell((off + a.len() + 1, b), "wall")?,
        ));
    }
    let traces: Vec<(usize, &str)> = parts[1..]
        .iter()
        .copied()
        .filter(|(_, p)| !p.is_empty())
        .collect();
    if traces.len() != nflows {
        return Err(err(
            head.len(),
            format!(
                "the line states {nflows} flows and holds {} traces",
                traces.len()
            ),
        ));
    }
    let mut cells_of = Vec::new();
    for (k, &(off, trace)) in traces.iter().enumerate() {
        let mut path = Vec::new();
        let mut at = off;
        for s in trace.split(',') {
            path.push(cell((at, s), "trace")?);
            at += s.len() + 1;
        }
        if path.len() < 2 {
            return Err(err(off, "a trace needs two endpoints".into()));
        }
        spec.flows
            .push((pack_letter(k), [path[0], path[path.len() - 1]]));
        cells_of.push((off, path));
    }
    let puzzle = spec.build().map_err(|e| build_error(source, line, 1, e))?;
    let mut paths = Vec::new();
    for (off, path) in cells_of {
        let mut out = Vec::new();
        for k in path {
            let c = puzzle
                .cell_at(k / cols, k % cols)
                .ok_or_else(|| err(off, format!("trace passes through hole {k}")))?;
            out.push(c);
        }
        paths.push(out);
    }
    if puzzle.flows.len() != nflows {
        return Err(err(0, "an endpoint lies on a hole".into()));
    }
    Ok(PackLevel {
        puzzle,
        level,
        solution: Solution { paths },
    })
}

/// Every level of a pack file, with errors naming the file's line.
pub fn parse_pack(text: &str, source: &str) -> Result<Vec<PackLevel>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(k, l)| parse_pack_line(l, source, k + 1))
        .collect()
}

/// The board as one pack line, or why it has none. Each trace holds only its colour's two
/// ends (a puzzle knows no solved path), and the level number is 1.
pub(super) fn to_pack_line(p: &Puzzle) -> std::result::Result<String, String> {
    let spec = GridSpec::of(p)?;
    if spec.rows * spec.cols > PACK_MOST_CELLS {
        return Err(format!(
            "the packs hold boards of at most {PACK_MOST_CELLS} cells, and this one is {}x{}",
            spec.cols, spec.rows
        ));
    }
    let prefix = if spec.hex {
        "X_"
    } else if spec.torus {
        "W_"
    } else {
        ""
    };
    let dim = if spec.rows == spec.cols {
        spec.cols.to_string()
    } else {
        format!("{}:{}", spec.cols, spec.rows)
    };
    let joined = |items: Vec<String>| items.join(":");
    let mut fields = vec![
        joined(spec.bridges.iter().map(usize::to_string).collect()),
        joined(spec.holes.iter().map(usize::to_string).collect()),
        joined(spec.walls.iter().map(|(a, b)| format!("{a}|{b}")).collect()),
    ];
    while fields.last().is_some_and(String::is_empty) {
        fields.pop();
    }
    let mut line = format!("{prefix}{dim},0,1,{}", spec.flows.len());
    for f in fields {
        line.push(',');
        line.push_str(&f);
    }
    for (_, [a, b]) in &spec.flows {
        line.push_str(&format!(";{a},{b}"));
    }
    line.push('\n');
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    #[test]
    fn a_pack_line_with_every_field_reads_back_the_same_board() {
        let line =
            "W_6:3,0,1,4,,0_0:4_0:5_0:12_0:16_0:17_0,3|15:2|14:1|13;10,11,6;1,2,3;7,8,9;13,14,15";
        let p = parse(line, "t").unwrap();
        let out = to_pack_line(&p).unwrap();
        assert_eq!(
            out,
            "W_6:3,0,1,4,,0:4:5:12:16:17,1|13:2|14:3|15;10,6;1,3;7,9;13,15\n"
        );
        assert_eq!(parse(&out, "t").unwrap(), p);
    }

    #[test]
    fn bridges_hex_and_plain_boards_keep_their_fields() {
        for line in ["5,0,1,2,12;0,24;4,20", "X_4:3,0,1,1;0,11", "3,0,1,1;0,8"] {
            let p = parse(line, "t").unwrap();
            let out = to_pack_line(&p).unwrap();
            assert_eq!(out.trim_end(), line);
            assert_eq!(parse(&out, "t").unwrap(), p);
        }
    }

    #[test]
    fn a_seed_hex_board_drawn_the_other_way_has_no_pack_line() {
        let seed = "HEX\n  A   B\n /|\\ /|\\\nC-.-.-.-D\n|/|\\|/|\\|\n.-.-.-.-E\n|/|\\|/|\\|\n.-A-.-D-.\n|/|\\|/|\\|\n.-C-B-E-.\n";
        let p = parse(seed, "t").unwrap();
        let e = to_pack_line(&p).unwrap_err();
        assert!(e.contains("not one"), "{e}");
    }
}
