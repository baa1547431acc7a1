//! The harness's one error type: what stopped a command, in words that
//! name the place (a file, its line and column, a step) and say what to do,
//! and the exit code it ends the command with.
//!
//! A command returns how it ended ([`crate::plumbing::exit::Exit`]) or an
//! [`Error`]; `cli::run` prints the error and exits with its code. Every
//! message is written for a person and shown through
//! `plumbing::printable`, so text from a file cannot break a line.

use crate::plumbing::exit::Exit;

/// What stopped a command.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Standard output's reader went away (`deja map | head`): there is no
    /// one to tell, and what was asked for was read; the command ends
    /// quietly with exit 0, as ripgrep does.
    #[error("the output was closed")]
    OutputClosed,
    /// A signal asked the command to stop (Ctrl-C, SIGTERM): what stopped
    /// returns this in place of its result, for the command to say how far
    /// it got; it ends with exit 130.
    #[error("interrupted by a signal")]
    Interrupted,
    /// A file, an argument or a state the command cannot use; the message
    /// names the place and what to do.
    #[error("{0}")]
    Refused(String),
    /// A place in a text (`LINE:COLUMN: what is wrong there`), and in a
    /// file once the reader of the file names it (`PATH:LINE:COLUMN: ...`,
    /// the path as `printable::path` writes it).
    #[error("{}{line}:{column}: {message}", path.as_deref().map(|p| format!("{p}:")).unwrap_or_default())]
    At {
        path: Option<String>,
        line: usize,
        column: usize,
        message: String,
    },
}

impl Error {
    /// The exit code the error ends its command with.
    pub fn exit(&self) -> Exit {
        match self {
            Error::OutputClosed => Exit::Ok,
            Error::Interrupted => Exit::Interrupted,
            Error::Refused(_) | Error::At { .. } => Exit::Error,
        }
    }

    /// An error at a line and column of a text.
    pub fn at(line: usize, column: usize, message: impl Into<String>) -> Error {
        Error::At {
            path: None,
            line,
            column,
            message: message.into(),
        }
    }

    /// The error, said of the file `path` (as `printable::path` writes it):
    /// a place in a text becomes a place in the file, and any other refusal
    /// is prefixed with the file's name.
    pub fn in_file(self, path: &str) -> Error {
        match self {
            Error::At {
                path: None,
                line,
                column,
                message,
            } => Error::At {
                path: Some(path.to_string()),
                line,
                column,
                message,
            },
            Error::Refused(message) => Error::Refused(format!("{path}: {message}")),
            other => other,
        }
    }
}

/// A message is an error that refuses what the command was given.
impl From<String> for Error {
    fn from(message: String) -> Error {
        Error::Refused(message)
    }
}

impl From<&str> for Error {
    fn from(message: &str) -> Error {
        Error::Refused(message.to_string())
    }
}

/// What a command returns: how it ended, or what stopped it.
pub type CommandResult = Result<Exit, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_output_ends_quietly_and_the_rest_as_errors() {
        assert_eq!(Error::OutputClosed.exit(), Exit::Ok);
        assert_eq!(Error::from("no such file").exit(), Exit::Error);
        let at = Error::at(3, 7, "bad key");
        assert_eq!(at.exit(), Exit::Error);
        assert_eq!(at.to_string(), "3:7: bad key");
        assert_eq!(at.in_file("keys.txt").to_string(), "keys.txt:3:7: bad key");
    }
}
