//! Reading an enclose.horse board off a picture (helper-owned).
