//! What a sweep found, in words for people: its groups of failures, as
//! `deja sweep` and `deja probe` print them, and where those words go.

use crate::plumbing::error::Error;
use crate::sweep::FailureGroup;

/// The most failure groups printed; the JSON report holds them all.
pub const GROUPS_PRINTED: usize = 30;

/// Prints each group of failures: its signature, count and first seed, the
/// smallest case and the command that reproduces it. `name` says which
/// sweep (the probe runs several).
pub fn print_groups(name: &str, groups: &[FailureGroup], text: &Text) -> Result<(), Error> {
    // A merged report's signatures and commands are its file's text, and a
    // command names the directory given: each escaped where it is put.
    let escape = crate::plumbing::printable::escape;
    for group in groups.iter().take(GROUPS_PRINTED) {
        let f = &group.smallest;
        text.say(format!(
            "FAILURE {name}{}: {} {}, first at seed {}\n  smallest: seed {} depth {} step {}: {}\n  reproduce: {}",
            escape(&group.signature),
            group.count,
            if group.count == 1 { "time" } else { "times" },
            group.first_seed,
            f.seed,
            f.depth,
            f.step,
            f.kind,
            escape(&f.reproduce)
        ))?;
    }
    if groups.len() > GROUPS_PRINTED {
        text.say(format!(
            "FAILURE {name}and {} more kinds of failure (every group is in the JSON report)",
            groups.len() - GROUPS_PRINTED
        ))?;
    }
    Ok(())
}

/// Where a sweep's words for people go: standard output, or standard
/// error when the JSON report is on standard output.
pub struct Text {
    to_stderr: bool,
}

impl Text {
    /// Words on standard output.
    pub const STDOUT: Text = Text { to_stderr: false };

    /// Words on standard error.
    pub const STDERR: Text = Text { to_stderr: true };

    pub fn say(&self, line: impl std::fmt::Display) -> Result<(), Error> {
        if self.to_stderr {
            crate::plumbing::output::err(format_args!("{line}"));
            Ok(())
        } else {
            crate::plumbing::output::out(line)
        }
    }
}
