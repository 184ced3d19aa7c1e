//! `capture` and `play`: the commands that capture the screen and move the mouse. The
//! `autoplayer` binary hands them here; the arguments are the same.

#[path = "../cli"]
mod cli {
    pub mod args;
    pub mod common;
    pub mod desktop;
}

use autoplayer::Error;
use cli::args::{Cli, Command};
use cli::common::exit_code;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::read();
    ExitCode::from(exit_code(match cli.command {
        Command::Capture(args) => cli::desktop::capture_to_file(args),
        Command::Play(args) => cli::desktop::play(args),
        Command::Scan(_) | Command::Calibrate(_) | Command::Solve(_) => Err(Error::Usage(
            "autoplayer-desktop runs capture and play; run the others with autoplayer".into(),
        )
        .into()),
    }))
}
