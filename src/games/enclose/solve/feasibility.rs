//! A quick look for *some* answer, without optimising: does a legal pen exist within the
//! budget? The generator uses it to draw only levels that have one, as every published level
//! does. For the main and costly-walls rounds the test is exact (the fewest walls that cut the
//! horse off the border fit the budget); for the two-animal rounds it is a sufficient
//! condition, one concrete construction that fits.

use super::maxflow::island::{island_cells, Net, Residual, DEAD, IN_X, NIL};
use crate::games::enclose::model::{Level, Variant};

/// The horse's island as a flow network, with the flow of one probe.
struct Probe {
    cells: Vec<usize>,
    net: Net,
    cap: Vec<i32>,
    flags: Vec<u8>,
    res: Residual,
}

impl Probe {
    fn new(level: &Level) -> Probe {
        let cells = island_cells(level);
        let net = Net::new(level, &cells);
        Probe {
            cap: net.cap0.clone(),
            flags: vec![0; net.m],
            res: Residual {
                vis: vec![0; 2 * net.m + 1],
                par: vec![NIL; 2 * net.m + 1],
                stamp: 0,
                queue: Vec::new(),
            },
            cells,
            net,
        }
    }

    fn cell(&self, g: usize) -> Option<usize> {
        self.cells.binary_search(&g).ok()
    }

    /// The fewest walls that cut the cells flagged `IN_X` off the border, if at most `limit`.
    fn fewest_walls(&mut self, limit: usize) -> Option<usize> {
        self.cap.copy_from_slice(&self.net.cap0);
        let mut walls = 0;
        while self.net.augment(&mut self.cap, &self.flags, &mut self.res) {
            walls += 1;
            if walls > limit {
                return None;
            }
        }
        Some(walls)
    }

    /// After `fewest_walls`: the smallest pen of that cut, as (pen cells, wall cells): the
    /// nodes the forced cells still reach in the residual network.
    fn nearest_pen(&self) -> (Vec<usize>, Vec<usize>) {
        let net = &self.net;
        let mut seen = vec![false; 2 * net.m + 1];
        let mut queue: Vec<usize> = (0..net.m)
            .filter(|&c| self.flags[c] & IN_X != 0)
            .map(|c| 2 * c)
            .collect();
        queue.iter().for_each(|&x| seen[x] = true);
        while let Some(x) = queue.pop() {
            for a in net.start[x] as usize..net.start[x + 1] as usize {
                let y = net.to[a] as usize;
                if self.cap[a] > 0 && !seen[y] && y != net.t() && self.flags[y / 2] & DEAD == 0 {
                    seen[y] = true;
                    queue.push(y);
                }
            }
        }
        let pen = (0..net.m).filter(|&c| seen[2 * c + 1]).collect();
        let walls = (0..net.m)
            .filter(|&c| seen[2 * c] && !seen[2 * c + 1])
            .collect();
        (pen, walls)
    }

    /// The wall cells of the smallest pen around a shortest path from `a` to `b`, if it needs
    /// at most `limit` walls.
    fn pen_joining(&mut self, a: usize, b: usize, limit: usize) -> Option<Vec<usize>> {
        let path = self.path(a, b)?;
        path.iter().for_each(|&c| self.flags[c] |= IN_X);
        self.fewest_walls(limit)?;
        Some(self.nearest_pen().1)
    }

    /// The cells of a shortest path between two cells (both ends included).
    fn path(&self, from: usize, to: usize) -> Option<Vec<usize>> {
        let mut parent = vec![NIL; self.net.m];
        parent[from] = from as u32;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(c) = queue.pop_front() {
            if c == to {
                let mut path = vec![to];
                let mut x = to;
                while x != from {
                    x = parent[x] as usize;
                    path.push(x);
                }
                return Some(path);
            }
            for &d in self.net.nbrs(c) {
                if parent[d as usize] == NIL {
                    parent[d as usize] = c as u32;
                    queue.push_back(d as usize);
                }
            }
        }
        None
    }
}

/// The new walls of one legal lovebirds pen within the budget, if this construction finds one:
/// the smallest pen around a shortest path between horse and unicorn (connected, it holds both).
pub(super) fn lovebirds_walls(level: &Level) -> Option<Vec<usize>> {
    let mut p = Probe::new(level);
    let k = level.budget.saturating_sub(level.preplaced_walls()) as usize;
    let horse = p.cell(level.horse())?;
    let unicorn = p.cell(level.unicorn()?)?;
    let walls = p.pen_joining(horse, unicorn, k)?;
    Some(walls.into_iter().map(|c| p.cells[c]).collect())
}

/// Whether the level has a legal answer within its budget (see the module note: exact for the
/// one-animal rounds, a sufficient test for lovebirds and quarrel).
pub fn has_answer(level: &Level) -> bool {
    let mut p = Probe::new(level);
    let k = level.budget.saturating_sub(level.preplaced_walls()) as usize;
    let Some(horse) = p.cell(level.horse()) else {
        return false;
    };
    let unicorn = level.unicorn().and_then(|u| p.cell(u));
    match (level.variant, unicorn) {
        (Variant::Main | Variant::CostlyWalls, _) => {
            p.flags[horse] |= IN_X;
            p.fewest_walls(k).is_some()
        }
        (Variant::Lovebirds, Some(u)) => p.pen_joining(horse, u, k).is_some(),
        // The horse's smallest pen, walled off, then a pen for the unicorn in what is left.
        (Variant::Quarrel, Some(u)) => {
            p.flags[horse] |= IN_X;
            let Some(first) = p.fewest_walls(k) else {
                return false;
            };
            let (pen, walls) = p.nearest_pen();
            if pen.contains(&u) {
                return false;
            }
            p.flags[horse] = 0;
            pen.iter().chain(&walls).for_each(|&c| p.flags[c] |= DEAD);
            p.flags[u] |= IN_X;
            p.fewest_walls(k - first).is_some()
        }
        (Variant::Lovebirds | Variant::Quarrel, None) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::enclose::format::parse;

    fn level(text: &str) -> Level {
        parse(text, "t", None).unwrap()
    }

    #[test]
    fn the_horse_needs_its_walls() {
        let open = |b: u32| level(&format!("budget: {b}\n.....\n.....\n..H..\n.....\n.....\n"));
        assert!(!has_answer(&open(3)));
        assert!(has_answer(&open(4)));
        assert!(has_answer(&level("budget: 0\n~~~~\n~H.~\n~~~~\n")));
    }

    #[test]
    fn two_animal_rounds() {
        // Two rooms, each closed by one wall, over a corridor that five walls close off.
        let map = "~~~~~~~\n~H~~~U~\n~.~.~.~\n~.....~\n.......\n";
        let with =
            |variant: &str, b: u32| level(&format!("budget: {b}\nvariant: {variant}\n{map}"));
        assert!(!has_answer(&with("quarrel", 1)));
        assert!(has_answer(&with("quarrel", 2)));
        assert!(!has_answer(&with("lovebirds", 4)));
        assert!(has_answer(&with("lovebirds", 5)));
        let walls = lovebirds_walls(&with("lovebirds", 5)).unwrap();
        let rc: Vec<[usize; 2]> = walls.iter().map(|&g| [g / 7, g % 7]).collect();
        let score = crate::games::enclose::check::score(&with("lovebirds", 5), &rc);
        assert_eq!(score, Ok(10), "{rc:?}");
        // Without the wall row, the corridor is the map's edge: no pen holds both.
        let edge = "budget: 9\nvariant: lovebirds\n~~~~~~~\n~H~~~U~\n~.~.~.~\n.......\n";
        assert!(!has_answer(&level(edge)));
    }
}
