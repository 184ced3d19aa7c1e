//! Checks a solution against the rules on the cell graph alone, independent of the solver:
//! every pair joined along links, bridges crossed straight once each way, every other cell
//! covered exactly once.

use super::model::{Axis, Puzzle, Solution};

/// `Ok` when `s` solves `p`; otherwise the first broken rule, in words.
pub fn check(p: &Puzzle, s: &Solution) -> Result<(), String> {
    if s.paths.len() != p.flows.len() {
        return Err(format!(
            "{} paths for {} colours",
            s.paths.len(),
            p.flows.len()
        ));
    }
    let name = |c: usize| format!("({}, {})", p.cells[c].row, p.cells[c].col);
    // Bridges count one visit per axis; other cells one visit in all.
    let mut visits = vec![[0u8; 2]; p.cells.len()];
    for (flow, path) in p.flows.iter().zip(&s.paths) {
        let letter = flow.letter;
        let (Some(&first), Some(&last)) = (path.first(), path.last()) else {
            return Err(format!("{letter}: empty path"));
        };
        let [a, b] = flow.ends;
        if !((first == a && last == b) || (first == b && last == a)) || path.len() < 2 {
            return Err(format!(
                "{letter}: path runs {} → {}, its endpoints are {} and {}",
                name(first),
                name(last),
                name(a),
                name(b)
            ));
        }
        if let Some(&c) = path.iter().find(|&&c| c >= p.cells.len()) {
            return Err(format!("{letter}: no cell {c}"));
        }
        let mut axes = Vec::with_capacity(path.len() - 1);
        for w in path.windows(2) {
            let Some(link) = p.link_between(w[0], w[1]) else {
                return Err(format!(
                    "{letter}: no link from {} to {}",
                    name(w[0]),
                    name(w[1])
                ));
            };
            axes.push(link.axis);
        }
        for (k, &c) in path.iter().enumerate() {
            let slot = if p.cells[c].bridge {
                if k == 0 || k + 1 == path.len() {
                    return Err(format!("{letter}: ends on bridge {}", name(c)));
                }
                let (into, out) = (axes[k - 1], axes[k]);
                if into != out || into == Axis::Diagonal {
                    return Err(format!("{letter}: turns on bridge {}", name(c)));
                }
                usize::from(into == Axis::Column)
            } else {
                0
            };
            visits[c][slot] += 1;
            if visits[c][slot] > 1 {
                return Err(format!("{letter}: cell {} is used twice", name(c)));
            }
        }
    }
    for (c, cell) in p.cells.iter().enumerate() {
        let uncovered = if cell.bridge {
            visits[c] != [1, 1]
        } else {
            visits[c][0] != 1
        };
        if uncovered {
            return Err(format!("cell {} is not covered", name(c)));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flow::model::GridSpec;

    /// A . B
    /// A . B   on a 2x3 board: the only solution is two straight columns... plus the middle.
    fn two_by_three() -> Puzzle {
        GridSpec {
            rows: 2,
            cols: 3,
            flows: vec![('A', [0, 3]), ('B', [2, 5])],
            ..GridSpec::default()
        }
        .build()
        .unwrap()
    }

    fn cells(p: &Puzzle, rc: &[(usize, usize)]) -> Vec<usize> {
        rc.iter().map(|&(r, c)| p.cell_at(r, c).unwrap()).collect()
    }

    #[test]
    fn accepts_a_covering_solution_and_reports_each_broken_rule() {
        let p = two_by_three();
        let a = cells(&p, &[(0, 0), (0, 1), (1, 1), (1, 0)]);
        let b = cells(&p, &[(0, 2), (1, 2)]);
        assert_eq!(
            check(
                &p,
                &Solution {
                    paths: vec![a.clone(), b.clone()]
                }
            ),
            Ok(())
        );
        let short = cells(&p, &[(0, 0), (1, 0)]);
        let err = check(
            &p,
            &Solution {
                paths: vec![short, b.clone()],
            },
        )
        .unwrap_err();
        assert!(err.contains("not covered"), "{err}");
        let jump = cells(&p, &[(0, 0), (1, 1), (0, 1), (1, 0)]);
        let err = check(
            &p,
            &Solution {
                paths: vec![jump, b],
            },
        )
        .unwrap_err();
        assert!(err.contains("no link"), "{err}");
        let shared = cells(&p, &[(0, 2), (0, 1), (1, 1), (1, 2)]);
        let err = check(
            &p,
            &Solution {
                paths: vec![a, shared],
            },
        )
        .unwrap_err();
        assert!(err.contains("used twice"), "{err}");
    }

    #[test]
    fn bridges_must_be_crossed_straight_once_each_way() {
        // . A .
        // B * B
        // . A .   corners are holes
        let p = GridSpec {
            rows: 3,
            cols: 3,
            holes: vec![0, 2, 6, 8],
            bridges: vec![4],
            flows: vec![('A', [1, 7]), ('B', [3, 5])],
            ..GridSpec::default()
        }
        .build()
        .unwrap();
        let a = cells(&p, &[(0, 1), (1, 1), (2, 1)]);
        let b = cells(&p, &[(1, 0), (1, 1), (1, 2)]);
        assert_eq!(
            check(
                &p,
                &Solution {
                    paths: vec![a.clone(), b]
                }
            ),
            Ok(())
        );
        let err = check(
            &p,
            &Solution {
                paths: vec![a.clone(), a],
            },
        )
        .unwrap_err();
        assert!(err.contains("endpoints"), "{err}");
    }
}
