//! The fuzz row: the `intents` target's body natively, on the inputs
//! `cargo bench -p harness --bench fuzz` uses.

use std::time::Instant;

use super::{BenchArgs, BenchFigure, Row, Target, grouped, runs_text};
use crate::plumbing::error::Error;

/// The `intents` target's body on 64-intent inputs, natively on this
/// thread, as `cargo bench -p harness --bench fuzz` runs it: every input
/// once first (a fuzzer's started games are kept), then timed.
pub(super) fn fuzz_row(args: &BenchArgs) -> Result<Row, Error> {
    use crate::fuzz::bench::{INTENTS_EACH, SEEDS, intents_inputs};
    let count = usize::try_from(args.fuzz_inputs).map_err(|_| "--fuzz-inputs is too large here")?;
    crate::plumbing::output::note(format_args!(
        "bench: the intents fuzz body, {} inputs, {}",
        grouped(count as f64, 0),
        runs_text(args.runs)
    ));
    let inputs = intents_inputs(count, INTENTS_EACH);
    // The body's first call makes a hang abort the process, as a fuzzer
    // wants; here a hang is reported as every other command reports it.
    let _ = crate::fuzz::planted();
    crate::run::watchdog::on_hang(Box::new(crate::run::watchdog::write_to_working_directory));
    let mut failed = 0_u64;
    for input in &inputs {
        failed += u64::from(crate::fuzz::intents(input).is_err());
    }
    let mut rates = Vec::new();
    for _ in 0..args.runs {
        let started = Instant::now();
        for input in &inputs {
            std::hint::black_box(crate::fuzz::intents(input).is_err());
        }
        rates.push(count as f64 / started.elapsed().as_secs_f64().max(1e-9));
    }
    let failures = if failed > 0 {
        crate::plumbing::output::note(format_args!(
            "bench: {failed} of the fuzz inputs fail; the figure still counts"
        ));
        format!("; {failed} of the inputs FAIL")
    } else {
        String::new()
    };
    Ok(Row::new(
        BenchFigure::Fuzz,
        "intents fuzz body, 64 intents",
        "execs/s",
        rates,
        Some(Target::at_least(3_000.0, " (5,000 under libFuzzer)")),
        format!(
            "harness::fuzz::intents natively on one thread over {} inputs of {INTENTS_EACH} intents on {SEEDS} seeds, each run once first (as cargo bench -p harness --bench fuzz); libFuzzer's figure is lower, its coverage instrumentation costing (docs/fuzzing.md), so this is its ceiling and met says whether the ceiling reaches the target{failures}",
            grouped(count as f64, 0),
        ),
    ))
}
