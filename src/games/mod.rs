//! The games autoplayer knows.

pub mod enclose;
pub mod hashi;
