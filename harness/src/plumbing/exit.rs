//! Exit codes, the same for every command: one table, from which the
//! codes, the table under `--help` and the README's table come (a test
//! holds the README's rows to [`Exit::ALL`]).

use std::fmt::Write;

/// How a command ended, as its exit code says. Ordered by code: where a
/// command meets several (replay of many files, bless), it ends with the
/// highest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// As expected.
    Ok,
    /// An error: unreadable file, bad arguments beyond clap's own.
    Error,
    /// Clap's own code for bad usage.
    Usage,
    /// A replay's state differs from its recording (or another of the
    /// differences the table names).
    Drift,
    /// A failure was found: panic, broken invariant, stuck or hung turn, or
    /// figures out of their band.
    Failure,
    /// Ended by Ctrl-C, SIGINT or SIGTERM, whatever the command, as shells
    /// report SIGINT (see `crate::plumbing::interrupt`).
    Interrupted,
}

impl Exit {
    /// Every exit, in the order of its code.
    pub const ALL: [Exit; 6] = [
        Exit::Ok,
        Exit::Error,
        Exit::Usage,
        Exit::Drift,
        Exit::Failure,
        Exit::Interrupted,
    ];

    /// The process's exit code.
    pub const fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::Error => 1,
            Exit::Usage => 2,
            Exit::Drift => 3,
            Exit::Failure => 4,
            Exit::Interrupted => 130,
        }
    }

    /// What the code means, as `--help` and the README say it.
    pub const fn meaning(self) -> &'static str {
        match self {
            Exit::Ok => "as expected",
            Exit::Error => "error (unreadable file, bad arguments)",
            Exit::Usage => "bad usage (from the argument parser)",
            Exit::Drift => {
                "drift: a replay's state differs from its recording, or the run no longer \
                 shows its expect list (bless: refused, the outcome would change; when: the \
                 condition never holds; diff: the two runs differ)"
            }
            Exit::Failure => {
                "failure found: panic, broken invariant, stuck or hung turn (sweep and \
                 probe: also figures out of their band; bless: refused, a new failure)"
            }
            Exit::Interrupted => "ended by Ctrl-C or a signal (the work done so far is kept)",
        }
    }
}

/// The table printed under `--help`: each code and its meaning, wrapped
/// at 80 columns under the meaning's first column.
pub fn table() -> String {
    let mut text = String::from("Exit codes:");
    for exit in Exit::ALL {
        let code = exit.code().to_string();
        let indent = " ".repeat(2 + code.len() + 2);
        let mut line = format!("  {code}  ");
        for word in exit.meaning().split(' ') {
            if line.len() + 1 + word.len() > 80 && line.trim_end().len() > indent.len() {
                let _ = write!(text, "\n{}", line.trim_end());
                line = indent.clone();
            } else if !line.ends_with(' ') {
                line.push(' ');
            }
            line.push_str(word);
        }
        let _ = write!(text, "\n{}", line.trim_end());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_rise_in_the_order_of_the_table() {
        let codes: Vec<u8> = Exit::ALL.iter().map(|e| e.code()).collect();
        assert!(codes.windows(2).all(|pair| pair[0] < pair[1]), "{codes:?}");
        assert!(Exit::ALL.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn the_help_table_names_every_code_within_80_columns() {
        let table = table();
        for exit in Exit::ALL {
            let start = format!("\n  {}  ", exit.code());
            assert!(table.contains(&start), "{}: {table}", exit.code());
        }
        assert!(table.lines().all(|line| line.len() <= 80), "{table}");
        let words: String = table.split_whitespace().collect::<Vec<_>>().join(" ");
        for exit in Exit::ALL {
            assert!(words.contains(exit.meaning()), "{}", exit.meaning());
        }
    }
}
