//! enclose.horse (helper-owned; see issue 11).
