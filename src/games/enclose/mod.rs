//! enclose.horse: formats, solver, checker, generator, recognition.

pub mod vision;
