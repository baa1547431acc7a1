//! The `deja` command line: clap definitions and dispatch. Each command's
//! work lives in `crate::commands`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::play::frames::Frames;
use crate::plumbing::exit;

#[derive(Parser)]
#[command(
    name = "deja",
    version,
    about = "Deterministic replay and fuzzing harness for the Undercroft roguelike",
    after_help = exit::TABLE
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

#[derive(Args)]
pub struct CorpusArgs {
    /// The corpus: one folder per fuzz target.
    #[arg(default_value = "fuzz/corpus", value_name = "DIR")]
    pub dir: PathBuf,
}

#[derive(Args)]
pub struct ProbeArgs {
    /// The first seed of every sweep (the floor sweeps cover 2000 seeds from here, the bots' 400 to 1000; the probe prints each range).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=u64::MAX / 2))]
    pub first_seed: u64,
    /// The baselines the sweeps' figures are held to.
    #[arg(long, default_value = "baselines/sweep.ron", value_name = "FILE")]
    pub baselines: PathBuf,
    /// The fuzz corpus to run.
    #[arg(long, default_value = "fuzz/corpus", value_name = "DIR")]
    pub corpus: PathBuf,
    /// Rewrite the baselines from these sweeps (after an intended change).
    #[arg(long)]
    pub bless: bool,
    /// Stop at the first part that finds something (what a mutation run
    /// wants: a caught mutant needs no more).
    #[arg(long, conflicts_with = "bless")]
    pub fail_fast: bool,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
    /// Write a recording that reproduces each failure into this directory.
    #[arg(long, value_name = "DIR")]
    pub save_failures: Option<PathBuf>,
    /// Seconds one key may take before it is reported as a hang.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub hang_seconds: Option<u64>,
    #[command(flatten)]
    pub content: ContentArgs,
}

#[derive(Args)]
pub struct FromFuzzArgs {
    /// The fuzz target that found it.
    #[arg(value_name = "TARGET", value_enum)]
    pub target: FuzzTarget,
    /// The artifact file libFuzzer wrote (fuzz/artifacts/TARGET/crash-...).
    #[arg(value_name = "ARTIFACT")]
    pub artifact: PathBuf,
    /// Where to write the recording.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// The canaries the fuzz run planted (its DEJA_FUZZ_CANARIES). Repeatable.
    #[arg(long, value_name = "NAME", value_parser = parse_canary())]
    pub canary: Vec<game_core::canary::Canary>,
}

/// The fuzz targets (fuzz/fuzz_targets/), as `from-fuzz` takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FuzzTarget {
    /// A run of the game from a seed and intents: becomes a recording.
    Intents,
    /// A run of the game from a seed and raw keys: becomes a recording.
    Keys,
    /// Floor generation (not a run: reproduce with `cargo fuzz run mapgen ARTIFACT`).
    Mapgen,
    /// The recording reader (not a run: `cargo fuzz run recording ARTIFACT`).
    Recording,
    /// The content loader (not a run: `cargo fuzz run content ARTIFACT`).
    Content,
    /// Sight against its oracle (not a run: `cargo fuzz run sight ARTIFACT`).
    Sight,
}

impl FuzzTarget {
    /// The target's name, as cargo fuzz and fuzz/corpus/ spell it.
    pub fn name(self) -> &'static str {
        match self {
            FuzzTarget::Intents => "intents",
            FuzzTarget::Keys => "keys",
            FuzzTarget::Mapgen => "mapgen",
            FuzzTarget::Recording => "recording",
            FuzzTarget::Content => "content",
            FuzzTarget::Sight => "sight",
        }
    }
}

#[derive(Args)]
pub struct ShrinkArgs {
    /// A recording that fails (a bug report).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Where to write the shrunk recording.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Most candidate runs to try.
    #[arg(long, default_value_t = crate::replay::shrink::DEFAULT_MAX_TRIES, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_tries: u32,
    #[command(flatten)]
    pub content: ContentArgs,
}

/// Options every command that runs the game shares.
#[derive(Args, Clone)]
pub struct ContentArgs {
    /// Load monsters.ron and items.ron from this directory instead of the
    /// embedded content.
    #[arg(long, value_name = "DIR")]
    pub content: Option<PathBuf>,
}

impl ContentArgs {
    /// The content files read, which no output may be written over.
    pub fn files(&self) -> Vec<PathBuf> {
        crate::plumbing::content_dir::files(self.content.as_deref())
    }
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("script").args(["keys", "keys_file"])))]
pub struct PlayArgs {
    /// The run's seed (default: 1 for scripted keys, a fresh one from the
    /// OS for a player at the terminal).
    #[arg(long, conflicts_with = "from")]
    pub seed: Option<u64>,
    /// Keys in key notation, e.g. 'llll>' or 'i<Esc>;<Tab><Enter>'. Without
    /// --keys or --keys-file the game opens in the terminal.
    #[arg(long)]
    pub keys: Option<String>,
    /// A file of key notation (line breaks are ignored; write <Enter>; `#`
    /// and the spaces before it start a comment to the end of the line: the
    /// key `#` is <U+23>, a space there <Space>); `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    pub keys_file: Option<PathBuf>,
    /// Take control of this recording: replay it (checked against its
    /// hashes) to --at, then go on from there.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// With --from: the step to take control at (default: its last good
    /// step).
    #[arg(long, value_name = "STEP", requires = "from")]
    pub at: Option<u64>,
    /// Which frames to print (scripted keys only).
    #[arg(long, value_enum, default_value = "last")]
    pub frames: Frames,
    /// Frame size, WIDTHxHEIGHT, that every key's frame is drawn and checked
    /// at, and that the recording keeps (the terminal shows the game at its
    /// own size). Default: 80x24, or with --from the recording's own.
    #[arg(long, value_parser = crate::play::frames::parse_frame_size)]
    pub size: Option<(u16, u16)>,
    /// Map size, WIDTHxHEIGHT.
    #[arg(long, default_value = "80x40", value_parser = crate::play::frames::parse_map_size, conflicts_with = "from")]
    pub map_size: (u16, u16),
    /// Write the run as a recording here (`-`: standard output, for a
    /// scripted run with --frames none). Scripted runs are written only when
    /// given (a failure is always written, here or to a default path); a run
    /// at the terminal is always recorded, by default to a new file in the
    /// platform's state directory, and the file is whole after every key.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The recording's note: what it shows.
    #[arg(long, default_value = "")]
    pub note: String,
    /// Switch on a planted defect (testing the harness; needs a build with
    /// the `canary` feature). Repeatable.
    #[arg(long, value_name = "NAME", value_parser = parse_canary(), conflicts_with = "from")]
    pub canary: Vec<game_core::canary::Canary>,
    #[command(flatten)]
    pub content: ContentArgs,
}

/// How replay reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Lines for people.
    Text,
    /// One JSON object per file (or one for a summary), for scripts.
    Json,
}

#[derive(Args)]
pub struct ReplayArgs {
    /// Recording files, or directories of them (every *.ron inside, sorted;
    /// a directory implies --summary).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Group the verdicts (same, drift and which parts, reproduced, fixed,
    /// new failure, unmet, unreadable) with counts and a few files each,
    /// for triaging a corpus, instead of a report per file.
    #[arg(long, conflicts_with_all = ["watch", "cast", "frames"])]
    pub summary: bool,
    /// Stop after this many keys.
    #[arg(long, value_name = "N")]
    pub to_step: Option<u64>,
    /// Which frames to print (text format only).
    #[arg(long, value_enum, default_value = "none")]
    pub frames: Frames,
    /// Frame size, WIDTHxHEIGHT.
    #[arg(long, default_value = "80x24", value_parser = crate::play::frames::parse_frame_size)]
    pub size: (u16, u16),
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Watch the recording in the terminal: pause, step back and forth, jump
    /// to a floor, a step, a turn or the failure, take control (? lists the
    /// keys). One file.
    #[arg(long, conflicts_with_all = ["format", "frames", "cast"])]
    pub watch: bool,
    /// Write the playback as an asciicast v2 movie (what asciinema plays) to
    /// -o: one frame per key, at --speed keys per second. One file.
    #[arg(long, conflicts_with_all = ["format", "frames"], requires = "output")]
    pub cast: bool,
    /// Keys per second for --cast, and where --watch starts.
    #[arg(long, default_value_t = crate::play::viewer::DEFAULT_SPEED, value_name = "KEYS", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub speed: u32,
    /// With --cast, where the movie goes (`-`: standard output); with
    /// --watch, where a run taken over (`p`) is recorded (default: a new
    /// file in the platform's state directory).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub content: ContentArgs,
}

#[derive(Args)]
pub struct BlessArgs {
    /// Recording files to rewrite.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Rewrite a recording even when its run would now end differently
    /// (won, died and of what, quit, failed): after reading why.
    #[arg(long)]
    pub accept_outcome: bool,
    #[command(flatten)]
    pub content: ContentArgs,
}

#[derive(Args)]
pub struct DiffArgs {
    /// A recording (a bug report, a recording before bless).
    #[arg(value_name = "A")]
    pub a: PathBuf,
    /// Another recording of the same seed (its shrunk form, another
    /// player's run).
    #[arg(value_name = "B")]
    pub b: PathBuf,
    #[command(flatten)]
    pub content: ContentArgs,
    /// Replay B on the content in this directory instead (A keeps
    /// --content): what a content change does to a run, field by field.
    #[arg(long, value_name = "DIR")]
    pub content_b: Option<PathBuf>,
    /// text: the fields that differ in words, the player first, monsters
    /// by name and id, bit grids as tiles. json: one object with the raw
    /// serde paths and values, for scripts.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Args)]
pub struct ShowArgs {
    /// A recording file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The step to show: 0 is the start, N is after the N-th key.
    #[arg(long, value_name = "STEP")]
    pub at: u64,
    /// Also print the game state: every field in the words `deja diff`
    /// uses and `deja when` conditions name.
    #[arg(long)]
    pub state: bool,
    /// With --state: the whole state as raw RON instead (what a save
    /// holds: bit grids as words, kinds as numbers).
    #[arg(long, requires = "state")]
    pub raw: bool,
    /// Frame size, WIDTHxHEIGHT.
    #[arg(long, default_value = "80x24", value_parser = crate::play::frames::parse_frame_size)]
    pub size: (u16, u16),
    #[command(flatten)]
    pub content: ContentArgs,
}

#[derive(Args)]
pub struct WhenArgs {
    /// A recording file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// What to look for, over the field paths `deja diff` and `deja show
    /// --state` print: 'player.hp <= 5', 'monsters[kind=orc].awake'
    /// (--help says the whole syntax).
    #[arg(value_name = "CONDITION")]
    pub condition: String,
    /// List every step at which the condition comes to hold, not only the
    /// first (without frames).
    #[arg(long)]
    pub all: bool,
    /// Frame size, WIDTHxHEIGHT.
    #[arg(long, default_value = "80x24", value_parser = crate::play::frames::parse_frame_size)]
    pub size: (u16, u16),
    #[command(flatten)]
    pub content: ContentArgs,
}

#[derive(Args)]
pub struct MapArgs {
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Which floor, 1 to 6.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=6))]
    pub depth: u32,
    /// Show the whole floor with everything on it, not only what the player
    /// sees on arrival.
    #[arg(long)]
    pub reveal: bool,
    /// Map size, WIDTHxHEIGHT.
    #[arg(long, default_value = "80x40", value_parser = crate::play::frames::parse_map_size)]
    pub map_size: (u16, u16),
    #[command(flatten)]
    pub content: ContentArgs,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Keys in the runs that are replayed, at most ten million (the replay,
    /// recording and viewer figures use these runs).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub keys: u64,
    /// How many times each quick figure is measured (replay, the fuzz body,
    /// each autosave); the median is reported with the min and max.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub runs: u32,
    /// How many times each sweep runs (the explorer's and the floors'):
    /// fewer than --runs, as they take seconds each.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub sweep_runs: u32,
    /// How many times each memory sweep runs: once, as a 10,000-seed sweep
    /// takes half a minute and its peak hardly moves from run to run.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub memory_runs: u32,
    /// The first seed of the replayed runs and of the viewer's long run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seeds of the explorer-bot sweep, START..END or START..=LAST.
    #[arg(long, default_value = "1..201", value_parser = parse_seed_range)]
    pub explorer_seeds: (u64, u128),
    /// Seeds of the floors-only sweep (`--bot none`, depths 1..=6).
    #[arg(long, default_value = "1..2001", value_parser = parse_seed_range)]
    pub floor_seeds: (u64, u128),
    /// Seeds of the larger random-bot sweep whose peak memory is measured;
    /// the smaller one has a tenth of them.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(10..=10_000_000))]
    pub memory_seeds: u64,
    /// `intents` inputs (of 64 intents each, the fuzz bench's first ones)
    /// the fuzz body runs per measure, each run once first as a fuzzer's
    /// started games are kept.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub fuzz_inputs: u64,
    /// Measure only these figures (comma-separated; default: all).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "FIGURES")]
    pub only: Vec<BenchFigure>,
    /// `text`, the table on standard output; or `json` as well: every row
    /// (name, unit, median, min, max, runs, samples, target, met) as the
    /// JSON record, written to -o.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Where the JSON record goes (`-`: standard output, the default, and
    /// the table then goes to standard error).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write the JSON record to FILE and the table to standard output: the
    /// same as `--format json -o FILE`.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["format", "output"])]
    pub json: Option<PathBuf>,
}

/// The figures `deja bench` measures, in the order of its table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum BenchFigure {
    /// Explorer-bot sweep, bot turns per second, 2 jobs.
    Explorer,
    /// Floors generated and validated per second (a sweep without a bot), 2 jobs.
    Floors,
    /// Replay with the state hash checked at every step, steps per second.
    Replay,
    /// The `intents` fuzz target's body, natively, 64-intent inputs, execs per second.
    Fuzz,
    /// Peak memory of random-bot sweeps of --memory-seeds seeds and a tenth of them (child processes).
    Memory,
    /// A played run's recording: bytes per key, and the autosave per key at 1k, 10k and 100k keys.
    Recording,
    /// The viewer's step back, in a 100,000-key recording and in the replayed runs' longest.
    Viewer,
}

impl BenchFigure {
    /// Every figure, in the table's order.
    pub const ALL: [BenchFigure; 7] = [
        BenchFigure::Explorer,
        BenchFigure::Floors,
        BenchFigure::Replay,
        BenchFigure::Fuzz,
        BenchFigure::Memory,
        BenchFigure::Recording,
        BenchFigure::Viewer,
    ];

    /// The name `--only` takes.
    pub fn name(self) -> &'static str {
        match self {
            BenchFigure::Explorer => "explorer",
            BenchFigure::Floors => "floors",
            BenchFigure::Replay => "replay",
            BenchFigure::Fuzz => "fuzz",
            BenchFigure::Memory => "memory",
            BenchFigure::Recording => "recording",
            BenchFigure::Viewer => "viewer",
        }
    }
}

/// `--canary NAME`: one of the planted defects, each listed with its line
/// in `--help`.
fn parse_canary() -> impl clap::builder::TypedValueParser<Value = game_core::canary::Canary> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    use game_core::canary::Canary;
    PossibleValuesParser::new(
        Canary::ALL.map(|canary| PossibleValue::new(canary.name()).help(canary.defect())),
    )
    .map(|name| Canary::from_name(&name).expect("clap passes only the names listed"))
}

#[derive(Args)]
pub struct SweepArgs {
    /// Seeds to sweep, START..END (END excluded) or START..=LAST (LAST may
    /// be 18446744073709551615).
    #[arg(long, default_value = "1..201", value_parser = parse_seed_range)]
    pub seeds: (u64, u128),
    /// Floors to generate and check for each seed, FIRST..=LAST.
    #[arg(long, default_value = "1..=6", value_parser = parse_depth_range)]
    pub depths: (u32, u32),
    /// The bot that plays each seed from the start.
    #[arg(long, value_enum, default_value = "explorer")]
    pub bot: crate::sweep::bots::BotKind,
    /// Most keys the bot presses per seed (`--turns`, its old name, still
    /// works).
    #[arg(long, alias = "turns", default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=crate::sweep::MOST_KEYS))]
    pub keys: u64,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
    /// Run only part I of N of the seeds, e.g. 2/4.
    #[arg(long, value_parser = parse_shard)]
    pub shard: Option<(u32, u32)>,
    /// The report: `text`, the summary for people (on standard output), or
    /// `json`, every seed's result and the summary for scripts and `merge`.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Where the JSON report goes (`-`: standard output, the default, and
    /// the summary then goes to standard error).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write a recording that reproduces each failure into this directory.
    #[arg(long, value_name = "DIR")]
    pub save_failures: Option<PathBuf>,
    /// Shrink the smallest case of each group of failures (as `deja
    /// shrink` does) and save it beside its recording as NAME-shrunk.ron.
    #[arg(long, requires = "save_failures")]
    pub shrink: bool,
    /// Stop at the lowest failing seed: seeds above a failure are skipped,
    /// seeds below it still run, and the report covers the seeds up to it,
    /// so it is the same whatever --jobs is.
    #[arg(long)]
    pub fail_fast: bool,
    /// The most keys in a row a bot may press without revealing ground,
    /// changing floor, fighting, moving an item or coming nearer the unknown
    /// or the way down (default: 200 for the explorer, 1500 for the random
    /// bot).
    #[arg(long, value_name = "KEYS", value_parser = clap::value_parser!(u64).range(1..=crate::sweep::MOST_KEYS))]
    pub progress_limit: Option<u64>,
    /// Compare the sweep's figures with this baseline file's entry for the
    /// same kind of sweep; a figure outside its band fails the sweep.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write this sweep's figures into the baseline file as the entry for its
    /// kind of sweep (after an intended change to the game).
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    pub bless_baseline: Option<PathBuf>,
    /// Seconds one key may take before it is reported as a hang.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub hang_seconds: Option<u64>,
    /// Map size, WIDTHxHEIGHT.
    #[arg(long, default_value = "80x40", value_parser = crate::play::frames::parse_map_size)]
    pub map_size: (u16, u16),
    /// Switch on a planted defect in every run (testing the harness; needs a
    /// build with the `canary` feature). Repeatable.
    #[arg(long, value_name = "NAME", value_parser = parse_canary())]
    pub canary: Vec<game_core::canary::Canary>,
    #[command(flatten)]
    pub content: ContentArgs,
}

#[derive(Args)]
pub struct MergeArgs {
    /// Shard reports (from `sweep --format json -o FILE`).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the merged report here instead of standard output.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

#[derive(Args)]
pub struct ReportArgs {
    /// Sweep reports (from `sweep --format json -o FILE`), typically one per
    /// bot.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Where the report goes: a name ending .html (a page with the charts
    /// and a table of key figures) or .svg (the charts alone).
    #[arg(short, long, value_name = "OUT", value_parser = parse_report_output)]
    pub output: PathBuf,
}

/// What `deja report` writes, by the name of its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    Svg,
    Html,
}

impl ReportFormat {
    /// The format a file name's extension asks for, in any case.
    pub fn of(path: &std::path::Path) -> Option<ReportFormat> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "svg" => Some(ReportFormat::Svg),
            "html" | "htm" => Some(ReportFormat::Html),
            _ => None,
        }
    }
}

fn parse_report_output(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    match ReportFormat::of(&path) {
        Some(_) => Ok(path),
        None => Err(crate::commands::report::OUTPUT_NAMES.to_string()),
    }
}

/// `START..END` (END excluded) or `START..=LAST`, LAST up to u64::MAX: the
/// start and one past the last seed.
fn parse_seed_range(text: &str) -> Result<(u64, u128), String> {
    let (a, b) = text.split_once("..").ok_or_else(|| {
        format!("{text:?} is not a range; write START..END or START..=LAST, e.g. 1..1001")
    })?;
    let (b, inclusive) = match b.strip_prefix('=') {
        Some(last) => (last, true),
        None => (b, false),
    };
    let number = |s: &str| {
        s.parse::<u64>().map_err(|_| {
            format!(
                "{s:?} in {text:?} is not a seed (a whole number from 0 to {})",
                u64::MAX
            )
        })
    };
    let (a, b) = (number(a)?, number(b)?);
    let end = u128::from(b) + u128::from(inclusive);
    if u128::from(a) >= end {
        return Err(format!(
            "{text:?} is empty; write {a}..={a} for one seed, or START..END with END above START"
        ));
    }
    Ok((a, end))
}

fn parse_depth_range(text: &str) -> Result<(u32, u32), String> {
    let (a, b) = text
        .split_once("..=")
        .ok_or_else(|| format!("{text:?} is not a range; write FIRST..=LAST, e.g. 1..=6"))?;
    let number = |s: &str| {
        s.parse::<u32>()
            .ok()
            .filter(|d| (1..=game_core::mapgen::LAST_DEPTH).contains(d))
            .ok_or_else(|| {
                format!(
                    "{s:?} in {text:?} is not a depth from 1 to {}",
                    game_core::mapgen::LAST_DEPTH
                )
            })
    };
    let (a, b) = (number(a)?, number(b)?);
    if a > b {
        return Err(format!("{text:?} is empty"));
    }
    Ok((a, b))
}

fn parse_shard(text: &str) -> Result<(u32, u32), String> {
    use crate::sweep::MOST_SHARDS;
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| format!("{text:?} is not a shard; write I/N, e.g. 2/4"))?;
    let (i, n) = (i.parse::<u32>(), n.parse::<u32>());
    match (i, n) {
        (Ok(i), Ok(n)) if (1..=n).contains(&i) && n <= MOST_SHARDS => Ok((i, n)),
        _ => Err(format!(
            "{text:?}: a shard is I/N with 1 <= I <= N <= {MOST_SHARDS}"
        )),
    }
}

/// Runs a parsed command line; returns the exit code.
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

pub fn run(cli: Cli) -> u8 {
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
        Ok(code) => code,
        // The reader of our output went away: nothing to say, and no one
        // to say it to.
        Err(message) if message == crate::plumbing::output::OUTPUT_CLOSED => exit::ERROR,
        Err(message) => {
            crate::plumbing::output::err(format_args!("error: {message}"));
            exit::ERROR
        }
    }
}
