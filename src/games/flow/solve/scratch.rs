//! The work arrays the two global rules keep between calls, so they allocate nothing: held by
//! the search state, filled by the rules (`colour`, `regions`).

/// No node.
pub(super) const NONE: u32 = u32::MAX;

/// Work arrays for the per-colour walk (`colour`), kept between calls so it allocates nothing.
#[derive(Default)]
pub(super) struct Scratch {
    /// Discovery time; a node is seen in this walk when its time is above the walk's base.
    pub(super) disc: Vec<u32>,
    pub(super) low: Vec<u32>,
    pub(super) parent: Vec<u32>,
    pub(super) parent_edge: Vec<u32>,
    /// The nearest ancestor-or-self whose tree edge opens its block.
    pub(super) opener: Vec<u32>,
    /// Walk number when the node lies on the tree path from `s` to `t`.
    pub(super) on_path: Vec<u32>,
    pub(super) order: Vec<u32>,
    pub(super) stack: Vec<(u32, u32)>,
    pub(super) clock: u32,
    pub(super) walks: u32,
}

impl Scratch {
    pub fn new(n: usize) -> Scratch {
        Scratch {
            disc: vec![0; n],
            low: vec![0; n],
            parent: vec![NONE; n],
            parent_edge: vec![NONE; n],
            opener: vec![NONE; n],
            on_path: vec![0; n],
            ..Scratch::default()
        }
    }
}

/// Work arrays for the region rule (`regions`), kept between calls.
#[derive(Default)]
pub(super) struct Regions {
    /// Walk number when the node is settled.
    pub(super) settled: Vec<u32>,
    /// Walk number when the node has been given a region.
    pub(super) seen: Vec<u32>,
    pub(super) region: Vec<u32>,
    pub(super) walks: u32,
    /// Colours each region allows.
    pub(super) allows: Vec<u64>,
    pub(super) queue: Vec<u32>,
}

impl Regions {
    pub fn new(n: usize) -> Regions {
        Regions {
            settled: vec![0; n],
            seen: vec![0; n],
            region: vec![NONE; n],
            ..Regions::default()
        }
    }
}
