//! The region rule. Call a node settled when it lies on a chain of edges on that starts at an
//! endpoint (heads included), and free otherwise. A colour still to be joined joins its two
//! heads through free nodes only, and free nodes joined by edges not off form regions, so its
//! missing piece lies inside one region. Every free node is covered by some colour, so:
//!
//! * each region needs a colour of its own: regions and unfinished colours must admit a
//!   matching that gives every region a distinct colour it allows (else the branch is dead);
//! * a region that allows a single colour owns it: every other region loses that colour.
//!
//! The per-colour rule cannot see this, since it looks at one colour at a time: two pockets
//! that only colour A can fill each look fine to A.

use super::scratch::{Regions, NONE};
use super::state::{Conflict, State, Step, OFF, ON};

impl State<'_> {
    /// Applies the rule (see the module note).
    pub(super) fn region_rule(&mut self) -> Step {
        let mut r = std::mem::take(&mut self.regions);
        let out = self.region_rule_with(&mut r);
        self.regions = r;
        out
    }

    fn region_rule_with(&mut self, r: &mut Regions) -> Step {
        let g = self.g;
        let n = g.nodes();
        if r.walks == u32::MAX {
            r.settled.iter_mut().for_each(|x| *x = 0);
            r.seen.iter_mut().for_each(|x| *x = 0);
            r.walks = 0;
        }
        r.walks += 1;
        let walk = r.walks;

        let mut open = 0u64;
        for (k, &(s, t)) in g.terminals.iter().enumerate() {
            if self.end[s as usize] != t {
                open |= 1 << k;
            }
            for a in [s, t] {
                // Follow the chain from the endpoint to its head.
                let (mut prev, mut x) = (NONE, a);
                loop {
                    r.settled[x as usize] = walk;
                    let next = g.adj(x as usize).iter().find(|&&(e, y)| {
                        y != prev && self.edge[e as usize] == ON && r.settled[y as usize] != walk
                    });
                    match next {
                        Some(&(_, y)) => (prev, x) = (x, y),
                        None => break,
                    }
                }
            }
        }

        r.allows.clear();
        for a in 0..n {
            if r.settled[a] == walk || r.seen[a] == walk {
                continue;
            }
            let id = r.allows.len() as u32;
            let mut allows = 0u64;
            r.queue.clear();
            r.queue.push(a as u32);
            r.seen[a] = walk;
            while let Some(x) = r.queue.pop() {
                let x = x as usize;
                r.region[x] = id;
                allows |= self.colours[x];
                for &(e, y) in g.adj(x) {
                    let y = y as usize;
                    if self.edge[e as usize] != OFF && r.settled[y] != walk && r.seen[y] != walk {
                        r.seen[y] = walk;
                        r.queue.push(y as u32);
                    }
                }
            }
            r.allows.push(allows & open);
        }
        if r.allows.is_empty() {
            return Ok(());
        }
        if !matches_every_region(&r.allows) {
            return Err(Conflict);
        }

        // Colours owned by a region that allows nothing else.
        let mut owner = [NONE; 64];
        let mut owned = 0u64;
        for (i, &c) in r.allows.iter().enumerate() {
            if c.count_ones() == 1 {
                owned |= c;
                owner[c.trailing_zeros() as usize] = i as u32;
            }
        }
        if owned == 0 {
            return Ok(());
        }
        for x in 0..n {
            let mut lose = self.colours[x] & owned;
            if r.settled[x] == walk || lose == 0 {
                continue;
            }
            let mut c = lose;
            while c != 0 {
                let k = c.trailing_zeros() as usize;
                c &= c - 1;
                if owner[k] == r.region[x] {
                    lose &= !(1u64 << k);
                }
            }
            self.set_colours(x, self.colours[x] & !lose)?;
        }
        Ok(())
    }
}

/// Whether every region can be given its own colour among those it allows (Kuhn's
/// augmenting paths; there are at most 64 colours and rarely more than a few regions).
fn matches_every_region(allows: &[u64]) -> bool {
    let mut holder = [NONE; 64];
    for i in 0..allows.len() {
        let mut tried = 0u64;
        if !augment(i, allows, &mut holder, &mut tried) {
            return false;
        }
    }
    true
}

fn augment(i: usize, allows: &[u64], holder: &mut [u32; 64], tried: &mut u64) -> bool {
    let mut c = allows[i] & !*tried;
    while c != 0 {
        let k = c.trailing_zeros() as usize;
        c &= c - 1;
        *tried |= 1 << k;
        if holder[k] == NONE || augment(holder[k] as usize, allows, holder, tried) {
            holder[k] = i as u32;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::matches_every_region;

    #[test]
    fn regions_need_distinct_colours() {
        assert!(matches_every_region(&[0b01, 0b11]));
        assert!(!matches_every_region(&[0b01, 0b01]));
        assert!(!matches_every_region(&[0b011, 0b011, 0b011]));
        assert!(matches_every_region(&[0b011, 0b110, 0b001]));
        assert!(!matches_every_region(&[0]));
    }
}
