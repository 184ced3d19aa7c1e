//! The one integration-test binary: every test module shares `support` and is compiled once.

mod auto;
mod batch;
mod calibrate;
mod enclose;
mod enclose_desktop;
mod flow;
mod flow_desktop;
mod formats;
mod harness;
mod hashi;
mod hashi_desktop;
mod help;
mod loopgame;
mod loopgame_desktop;
mod solution;
mod support;
