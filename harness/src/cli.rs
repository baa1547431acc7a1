//! The `deja` command line: the top-level parser, the global flags
//! (`--quiet`, `--color`), `--version` and the dispatch. Each command's
//! arguments and its work live in its own file under `crate::commands`.

use clap::{Parser, Subcommand};

use crate::commands::{
    bench::BenchArgs, bless::BlessArgs, corpus::CorpusArgs, diff::DiffArgs,
    from_fuzz::FromFuzzArgs, map::MapArgs, play::PlayArgs, probe::ProbeArgs, replay::ReplayArgs,
    report::ReportArgs, show::ShowArgs, shrink::ShrinkArgs, sweep::MergeArgs, sweep::SweepArgs,
    when::WhenArgs,
};
use crate::plumbing::error::Error;
use crate::plumbing::exit::Exit;

#[derive(Parser)]
#[command(
    name = "deja",
    version,
    about = "Deterministic replay and fuzzing harness for the Undercroft roguelike",
    after_help = crate::plumbing::exit::table()
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Say less: no progress, no notes on what was written, and only the
    /// verdicts that are not "same" (results and errors are still said).
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// Colours (at the terminal, in --watch and --cast movies): `auto`
    /// colours unless the NO_COLOR environment variable is set.
    #[arg(long, value_enum, default_value = "auto", global = true)]
    pub color: crate::play::terminal::ColorChoice,
}

#[derive(Subcommand)]
pub enum Command {
    /// Play in the terminal (recording every key), or headlessly from
    /// scripted keys printing frames.
    #[command(after_help = concat!(
        "Examples:\n",
        "  deja play                                   play at the terminal, a fresh seed, recorded\n",
        "  deja play --seed 42 -o mine.ron             seed 42, recorded to mine.ron\n",
        "  deja play --from mine.ron --at 20           take control of a recording at step 20\n",
        "  deja play --seed 2700 --keys 'kkkk>'        scripted: four steps north, the stairs down; the last frame\n",
        "  deja play --seed 3 --keys-file run.keys -o run.ron --note 'what it shows'"
    ))]
    Play(PlayArgs),
    /// Replay recordings and compare them with what was recorded.
    #[command(after_help = concat!(
        "Examples:\n",
        "  deja replay run.ron                         exit 0 same, 3 drift, 4 failure reproduced\n",
        "  deja replay recordings/                     every recording in a directory, verdicts grouped\n",
        "  deja replay recordings/*.ron --format json  one JSON object per file\n",
        "  deja replay run.ron --to-step 4 --frames every\n",
        "  deja replay run.ron --watch                 step back and forth, take over with p\n",
        "  deja replay bug.ron --cast -o bug.cast      an asciicast v2 movie of it"
    ))]
    Replay(ReplayArgs),
    /// Re-run recordings with this build and rewrite their hashes, outcome
    /// and version, keeping seed, keys, note and expectations; refuse a file
    /// whose run would end differently or no longer shows its expect list.
    #[command(after_help = concat!(
        "Examples:\n",
        "  deja bless recordings/*.ron                 after an intended rule change\n",
        "  deja bless --accept-outcome fixed-bug.ron   rewrite a run that now ends differently"
    ))]
    Bless(BlessArgs),
    /// Replay two recordings of one seed side by side and show, field by
    /// field, how their states differ at the first step where they do.
    /// Runs that fail alike (the same key and failure at the same step)
    /// are the same: exit 0; runs that part exit 3.
    #[command(after_help = concat!(
        "Examples:\n",
        "  deja diff bug.ron small.ron                 a bug report against its shrunk form\n",
        "  deja diff run.ron run.ron --content-b my-mod/   what a content change does to a run"
    ))]
    Diff(DiffArgs),
    /// Show the frame (and with --state, every field of the state) at a step
    /// of a recording.
    #[command(after_help = concat!(
        "Examples:\n",
        "  deja show run.ron --at 4                    the frame after the fourth key\n",
        "  deja show run.ron --at 0 --state            the start, and every field of the state\n",
        "  deja show run.ron --at 0 --state --raw      the state as raw RON, as a save holds it"
    ))]
    Show(ShowArgs),
    /// The first step of a recording at which a condition on the state
    /// holds: its key, turn and frame, and what the key did to make it hold.
    #[command(
        after_help = crate::inspect::condition::short_help(),
        after_long_help = crate::inspect::condition::long_help()
    )]
    When(WhenArgs),
    /// Print a generated floor and its stats.
    #[command(after_help = concat!(
        "Examples:\n",
        "  deja map --seed 7 --depth 3 --reveal        the temple, with everything on it\n",
        "  deja map --seed 7 --map-size 40x20"
    ))]
    Map(MapArgs),
    /// Measure every speed figure and print one table: each figure's
    /// median, min and max over its runs, unit, and target where it has one
    /// (sweeps, floors, replay, the intents fuzz body, peak memory,
    /// recording cost, the viewer's step back). About a minute.
    #[command(after_help = concat!(
        "Examples:\n",
        "  deja bench                                  every figure, one table\n",
        "  deja bench --only replay,fuzz --runs 3      a quick subset\n",
        "  deja bench --format json -o bench.json      the table, and the JSON record of every row\n",
        "  deja bench --keys 100000 --sweep-runs 5 --explorer-seeds 1..401"
    ))]
    Bench(BenchArgs),
    /// Check every floor of a range of seeds, and play them with a bot,
    /// checking every invariant after every key.
    ///
    /// The summary says how every run ended (won, died, quit, out of keys,
    /// stuck, failed) and counts the deaths by killer: the kind of monster
    /// whose blow or poison the death was, as `deja report` counts them.
    #[command(after_help = concat!(
        "Examples:\n",
        "  deja sweep                                  seeds 1..201, every floor, the explorer bot\n",
        "  deja sweep --seeds 1..5001 --bot none       floors only: generate and check\n",
        "  deja sweep --seeds 1..2001 --bot random --save-failures failures/ --shrink\n",
        "  deja sweep --seeds 1..2001 --shard 2/4 --format json -o shard2.json\n",
        "  deja sweep --seeds 1..2001 --baseline baselines/sweep.ron"
    ))]
    Sweep(SweepArgs),
    /// Merge the JSON reports of sweep shards into the report of the whole.
    #[command(after_help = concat!(
        "Examples:\n",
        "  deja merge shard1.json shard2.json shard3.json shard4.json -o sweep.json"
    ))]
    Merge(MergeArgs),
    /// Draw the balance report of sweeps (one JSON report per bot): survival,
    /// deaths by killer (the kind of monster whose blow or poison the death
    /// was, as the sweep's summary counts them), danger met, hit points and
    /// items by depth, as charts in one SVG or in an HTML page with a table
    /// of the key figures.
    #[command(after_help = concat!(
        "Examples:\n",
        "  deja report explorer.json random.json -o balance.html   the page: charts and key figures\n",
        "  deja report explorer.json -o balance.svg    the charts alone, one SVG"
    ))]
    Report(ReportArgs),
    /// Turn an intents or keys fuzz artifact into a recording that reproduces
    /// its failure.
    #[command(after_help = concat!(
        "Examples:\n",
        "  deja from-fuzz intents fuzz/artifacts/intents/crash-1a2b -o failure.ron\n",
        "  deja from-fuzz keys crash-3c4d -o failure.ron --canary sticky-help"
    ))]
    FromFuzz(FromFuzzArgs),
    /// Shrink a failing recording while it still fails the same way.
    #[command(after_help = concat!(
        "Examples:\n",
        "  deja shrink failure.ron -o small.ron        the fewest keys that still fail the same way\n",
        "  deja shrink hang.ron -o small.ron --max-tries 500\n\n",
        "Standard error says how many runs it has tried and how many keys are left\n",
        "(none with --quiet). Ctrl-C or SIGTERM stops it at the next run: it writes the\n",
        "smallest failing recording found so far to -o and exits 130; shrinking that\n",
        "file goes on from there."
    ))]
    Shrink(ShrinkArgs),
    /// Run every committed fuzz input through its target's body.
    #[command(after_help = concat!(
        "Examples:\n",
        "  deja corpus                                 fuzz/corpus, every target\n",
        "  deja corpus fuzz/corpus"
    ))]
    Corpus(CorpusArgs),
    /// The harness's own dynamic checks, as one measure: sweeps with every
    /// bot against their baselines, and the fuzz corpus. Exit 4 when any
    /// finds something.
    #[command(after_help = concat!(
        "Examples:\n",
        "  deja probe                                  exit 0 when the harness finds nothing\n",
        "  deja probe --first-seed 40001               the same checks on other seeds\n",
        "  deja probe --bless                          after an intended change to balance"
    ))]
    Probe(ProbeArgs),
}

/// Parses the command line, with `--version` saying what a bug report
/// needs: the game's version, the formats this build reads and writes, the
/// embedded content's fingerprint and the build's features.
pub fn parse() -> Cli {
    use clap::{CommandFactory, FromArgMatches};
    // clap keeps `&'static str`s; the text is made once per process.
    let long_version: &'static str = Box::leak(version_text().into_boxed_str());
    let matches = Cli::command().long_version(long_version).get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// The text after `deja ` for `deja --version`.
pub fn version_text() -> String {
    let features = if game_core::canary::Canaries::AVAILABLE {
        "canary (planted defects can be switched on)"
    } else {
        "none"
    };
    let build = if cfg!(debug_assertions) {
        "debug (debug assertions on)"
    } else {
        "release"
    };
    format!(
        "{}\ngame: {} {}\nrecording format: {} (reads {} to {})\nsweep report format: {}\ncontent: {:016x} (embedded)\nfeatures: {features}\nbuild: {build}, overflow checks on",
        env!("CARGO_PKG_VERSION"),
        game_core::GAME_NAME,
        game_core::GAME_VERSION,
        crate::recording::FORMAT_VERSION,
        crate::recording::OLDEST_FORMAT,
        crate::recording::FORMAT_VERSION,
        crate::sweep::REPORT_FORMAT,
        game_core::content::Content::shared_embedded().fingerprint(),
    )
}

/// Runs a parsed command line; returns the exit code.
pub fn run(cli: Cli) -> u8 {
    // Every command ends with 130 on SIGINT or SIGTERM; those with work to
    // keep take the signals over.
    crate::plumbing::interrupt::end_at_once();
    crate::plumbing::output::set_quiet(cli.quiet);
    crate::plumbing::output::set_colors(cli.color.decide());
    let result = match cli.command {
        Command::Play(args) => crate::commands::play::run(args),
        Command::Replay(args) => crate::commands::replay::run(args),
        Command::Bless(args) => crate::commands::bless::run(args),
        Command::Diff(args) => crate::commands::diff::run(args),
        Command::Show(args) => crate::commands::show::run(args),
        Command::When(args) => crate::commands::when::run(args),
        Command::Map(args) => crate::commands::map::run(args),
        Command::Bench(args) => crate::commands::bench::run(args),
        Command::Sweep(args) => crate::commands::sweep::run(args),
        Command::Merge(args) => crate::commands::sweep::merge(args),
        Command::Report(args) => crate::commands::report::run(args),
        Command::FromFuzz(args) => crate::commands::from_fuzz::run(args),
        Command::Shrink(args) => crate::commands::shrink::run(args),
        Command::Corpus(args) => crate::commands::corpus::run(args),
        Command::Probe(args) => crate::commands::probe::run(args),
    };
    match result {
        Ok(exit) => exit.code(),
        Err(Error::OutputClosed) => Exit::Ok.code(),
        Err(error) => {
            crate::plumbing::output::err(format_args!("error: {error}"));
            error.exit().code()
        }
    }
}
