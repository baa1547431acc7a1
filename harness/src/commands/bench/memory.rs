//! The memory rows: the peak of a random-bot sweep writing its JSON report,
//! at two sizes, each a child process measured by `wait4`.

use super::{
    BenchArgs, BenchFigure, FLAT_MIB, Row, SWEEP_JOBS, Scratch, Target, grouped, runs_text,
};
use crate::plumbing::error::Error;
use crate::plumbing::exit::Exit;

/// The peak memory of a random-bot sweep writing its JSON report, for
/// `--memory-seeds` seeds and a tenth of them.
#[cfg(unix)]
pub(super) fn memory_rows(args: &BenchArgs, scratch: &Scratch) -> Result<Vec<Row>, Error> {
    let many = args.memory_seeds;
    let few = (many / 10).max(1);
    let floor = own_peak_kib();
    crate::plumbing::output::note(format_args!(
        "bench: peak memory of sweeps of {} and {} seeds, {} each",
        grouped(few as f64, 0),
        grouped(many as f64, 0),
        runs_text(args.memory_runs)
    ));
    let ([few_peaks, many_peaks], found) = measure_peaks(args, scratch, [few, many])?;
    let small = Row::new(
        BenchFigure::Memory,
        format!("peak memory, {}-seed sweep", grouped(few as f64, 0)),
        "MiB",
        few_peaks,
        None,
        memory_note(few, found[0], floor),
    );
    let limit = small.median + FLAT_MIB;
    let target = Target {
        at_least: None,
        at_most: Some(limit),
        text: format!(
            "<= {} (flat: {}-seed peak + {FLAT_MIB:.0} MiB)",
            grouped(limit, 1),
            grouped(few as f64, 0)
        ),
    };
    let large = Row::new(
        BenchFigure::Memory,
        format!("peak memory, {}-seed sweep", grouped(many as f64, 0)),
        "MiB",
        many_peaks,
        Some(target),
        memory_note(many, found[1], floor),
    );
    Ok(vec![small, large])
}

/// The memory sweeps of each of `seeds`, `--memory-runs` times in turn:
/// each one's peaks in MiB, and how many of its sweeps found failures
/// (exit 4: its peak still counts).
#[cfg(unix)]
fn measure_peaks(
    args: &BenchArgs,
    scratch: &Scratch,
    seeds: [u64; 2],
) -> Result<([Vec<f64>; 2], [u32; 2]), Error> {
    let mut peaks = [Vec::new(), Vec::new()];
    let mut found = [0_u32, 0_u32];
    for _ in 0..args.memory_runs {
        for (i, seeds) in seeds.into_iter().enumerate() {
            let (code, kib) = peak_of_child(&memory_sweep_args(seeds), &scratch.dir)?;
            match code {
                code if code == Exit::Ok.code() => {}
                code if code == Exit::Failure.code() => found[i] += 1,
                code => {
                    return Err(format!(
                        "the memory sweep `deja {}` exited with {code}",
                        memory_sweep_args(seeds).join(" ")
                    )
                    .into());
                }
            }
            peaks[i].push(kib as f64 / 1024.0);
        }
    }
    Ok((peaks, found))
}

/// A memory row's note: the sweep measured, how, the floor under its peak
/// (this process's own peak in KiB when it began), and whether it found
/// failures (said on standard error too).
#[cfg(unix)]
fn memory_note(seeds: u64, found: u32, floor: u64) -> String {
    let command = memory_sweep_args(seeds).join(" ");
    let failures = if found > 0 {
        crate::plumbing::output::note(format_args!(
            "bench: `deja {command}` found failures (exit 4); its peak still counts"
        ));
        "; the sweep FOUND FAILURES (exit 4)"
    } else {
        ""
    };
    format!(
        "deja {command}, a child process; its peak resident memory (wait4's ru_maxrss); this process's own peak when it began was {:.1} MiB, a floor under it (Linux counts a child's peak from its parent's){failures}",
        floor as f64 / 1024.0
    )
}

#[cfg(not(unix))]
pub(super) fn memory_rows(_args: &BenchArgs, _scratch: &Scratch) -> Result<Vec<Row>, Error> {
    crate::plumbing::output::note(
        "bench: peak memory is measured on Unix only (wait4's rusage); left out",
    );
    Ok(Vec::new())
}

/// The arguments of a memory sweep of seeds 1..=`seeds`.
pub(super) fn memory_sweep_args(seeds: u64) -> Vec<String> {
    [
        "sweep",
        "--seeds",
        &format!("1..{}", u128::from(seeds) + 1),
        "--bot",
        "random",
        "--jobs",
        &SWEEP_JOBS.to_string(),
        "--format",
        "json",
        "-o",
        "memory-sweep.json",
        "-q",
    ]
    .map(String::from)
    .to_vec()
}

/// Runs this executable with `args` in `dir` to its end; its exit code and
/// its peak resident memory in KiB. The child is reaped by `wait4`, not
/// by `Child::wait`: wait4 gives its rusage.
#[cfg(unix)]
pub(super) fn peak_of_child(args: &[String], dir: &std::path::Path) -> Result<(u8, u64), Error> {
    use std::process::{Command, Stdio};
    let exe = std::env::current_exe().map_err(|e| format!("finding deja's own executable: {e}"))?;
    let child = Command::new(&exe)
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("{}: {e}", crate::plumbing::printable::path(&exe)))?;
    let pid = libc::pid_t::try_from(child.id()).map_err(|_| "a child's pid out of range")?;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: pid is our child, not yet waited for; both pointers are valid.
        let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if waited == pid {
            break;
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(format!("waiting for the memory sweep: {e}").into());
        }
    }
    if !libc::WIFEXITED(status) {
        return Err(format!(
            "the memory sweep `deja {}` did not exit: ended by signal {}",
            args.join(" "),
            libc::WTERMSIG(status)
        )
        .into());
    }
    let code = u8::try_from(libc::WEXITSTATUS(status)).unwrap_or(u8::MAX);
    Ok((code, max_rss_kib(usage.ru_maxrss)))
}

/// This process's peak resident memory so far, in KiB.
#[cfg(unix)]
pub(super) fn own_peak_kib() -> u64 {
    // SAFETY: a zeroed rusage is a valid value for getrusage to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a rusage.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0;
    }
    max_rss_kib(usage.ru_maxrss)
}

/// `ru_maxrss` in KiB: macOS gives bytes, the others KiB.
#[cfg(unix)]
pub(super) fn max_rss_kib(max_rss: libc::c_long) -> u64 {
    let value = u64::try_from(max_rss).unwrap_or(0);
    if cfg!(target_os = "macos") {
        value / 1024
    } else {
        value
    }
}
