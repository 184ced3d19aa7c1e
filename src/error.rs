//! One error type for the library; `main.rs` maps it to exit codes in one place.

use crate::rect::Rect;
use std::fmt;

/// Where in a text input a problem sits. Lines and columns are 1-based; a one-line format (a
/// game ID) gives line 1 and the character's column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextPos {
    pub source: String,
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for TextPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.source, self.line, self.column)
    }
}

/// A rectangle in image pixels, used to say where in a picture something went wrong.
pub type Region = Rect<i32>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Malformed puzzle text.
    #[error("{pos}: {message}")]
    Parse { pos: TextPos, message: String },
    /// A picture that could not be read with confidence.
    #[error("{}: {message}", region.map(|r| format!("region {r}")).unwrap_or_else(|| "image".into()))]
    Vision {
        region: Option<Region>,
        message: String,
    },
    /// Bad arguments or a request that makes no sense (unknown window, game not built yet…).
    #[error("{0}")]
    Usage(String),
    /// The desktop (capture or input backend) failed.
    #[error("desktop: {0}")]
    Desktop(String),
    /// A planned point fell outside the recognised board: nothing was sent.
    #[error("guard: {0}")]
    Guard(String),
    /// The user took the mouse, or parked it in a corner: play stopped at once.
    #[error("fail-safe: {0}")]
    FailSafe(String),
    /// The board after play does not equal the solution.
    #[error("verify: {0}")]
    Verify(String),
    /// `reason` is part of the message and not a `source`, so a report that prints the error's
    /// chain does not say it twice.
    #[error("{path}: {reason}")]
    Io {
        path: String,
        reason: std::io::Error,
    },
}

impl Error {
    pub fn parse(source: &str, line: usize, column: usize, message: impl Into<String>) -> Self {
        Error::Parse {
            pos: TextPos {
                source: source.to_string(),
                line,
                column,
            },
            message: message.into(),
        }
    }

    pub fn vision(region: Option<Region>, message: impl Into<String>) -> Self {
        Error::Vision {
            region,
            message: message.into(),
        }
    }

    /// The same error with `what` in front of its message; its kind, and so its exit code,
    /// stays.
    pub fn context(self, what: &str) -> Error {
        let put = |m: String| format!("{what}: {m}");
        match self {
            Error::Parse { pos, message } => Error::Parse {
                pos,
                message: put(message),
            },
            Error::Vision { region, message } => Error::Vision {
                region,
                message: put(message),
            },
            Error::Usage(m) => Error::Usage(put(m)),
            Error::Desktop(m) => Error::Desktop(put(m)),
            Error::Guard(m) => Error::Guard(put(m)),
            Error::FailSafe(m) => Error::FailSafe(put(m)),
            Error::Verify(m) => Error::Verify(put(m)),
            Error::Io { path, reason } => Error::Io {
                path: put(path),
                reason,
            },
        }
    }

    /// Exit code for this error: 3 for a fail-safe abort, 2 for everything else.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::FailSafe(_) => 3,
            _ => 2,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
