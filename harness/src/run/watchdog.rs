//! A hang is a failure: a key (or a floor's generation) whose processing runs
//! past a generous wall-clock budget is reported as a hang, with a recording
//! that reproduces it.
//!
//! Every [`crate::run::runner::Runner`] keeps its run's [`Trail`] (how it was
//! started and the keys pressed so far) where one watchdog thread can see it,
//! and marks the trail busy while the game works on a key. The watchdog
//! wakes a few times a second; a trail busy for longer than the budget is a
//! hang. The thread that hangs cannot be stopped, so the watchdog writes the
//! bug report itself: it replays the keys before the hanging one on a fresh
//! runner (they finished, so they finish again) to get their hashes, adds the
//! hanging key with a `Hang` failure, hands the recording to the process's
//! [`HangHandler`], and ends the process with exit code 4.
//!
//! Time only detects: it never reaches the game, whose state stays a pure
//! function of seed, content and keys. The budget is
//! [`DEFAULT_BUDGET`] unless `DEJA_HANG_SECONDS` or a command's
//! `--hang-seconds` says otherwise.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use game_core::{GameConfig, Key};

use crate::plumbing::exit::Exit;
use crate::plumbing::files::Destination;
use crate::recording::{Failure, FailureKind, RecordedOutcome, Recording};
use crate::run::settings::Settings;

/// How long one key may take before it is a hang. Keys take well under a
/// millisecond in a release build and a walk of a thousand steps some tens
/// of milliseconds; a debug build is ten times slower; a loaded CI machine
/// slower again.
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(10);
/// The environment variable that sets the budget, in whole seconds.
pub const BUDGET_VAR: &str = "DEJA_HANG_SECONDS";
/// How often the watchdog looks.
const POLL: Duration = Duration::from_millis(100);

/// How a run was started and what has been pressed: enough to replay it.
pub struct Trail {
    pub config: GameConfig,
    pub start_depth: u32,
    pub settings: Settings,
    keys: Mutex<Vec<Key>>,
    /// Nanoseconds since the watchdog's epoch when the current work began,
    /// plus one; 0 while idle.
    busy_since: AtomicU64,
    /// The work under way is the driver's (a bot choosing its next keys),
    /// not the game's.
    driving: AtomicBool,
    /// How the run is played again up to its hanging key, for the hang's
    /// recording: the runner's, which sits above this file and hands it
    /// in, so the watchdog never names the runner. `None` for a trail that
    /// only generates a floor, where no key is pressed.
    replay: Option<Replay>,
}

/// Plays a trail's `keys` but the last again and returns the recording that
/// ends with the last key failing with `failure`.
pub type Replay = fn(&Trail, &[Key], Failure) -> Recording;

impl Trail {
    /// A trail for a run, watched from now on.
    pub fn new(
        config: GameConfig,
        start_depth: u32,
        settings: Settings,
        keys: Vec<Key>,
        replay: Option<Replay>,
    ) -> Arc<Trail> {
        let trail = Arc::new(Trail {
            config,
            start_depth,
            settings,
            keys: Mutex::new(keys),
            busy_since: AtomicU64::new(0),
            driving: AtomicBool::new(false),
            replay,
        });
        watchdog().watch(&trail);
        trail
    }

    /// The keys pressed so far, the busy one included.
    pub fn keys(&self) -> Vec<Key> {
        self.lock().clone()
    }

    pub fn push(&self, key: Key) {
        self.lock().push(key);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Key>> {
        // The lock is only ever held to copy or push keys, which cannot
        // panic; a poisoned lock still holds good keys.
        self.keys.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Marks the trail busy until the guard is dropped (unwinding included).
    pub fn busy(&self) -> Busy<'_> {
        self.driving.store(false, Ordering::Release);
        let now = epoch().elapsed().as_nanos() as u64 + 1;
        self.busy_since.store(now, Ordering::Release);
        Busy { trail: self }
    }

    /// A run that failed before its first key (a floor that hangs when
    /// generated): a recording with no keys.
    pub fn recording_of_start_failure(&self, failure: Failure) -> Recording {
        let config = &self.config;
        Recording {
            game_name: game_core::GAME_NAME.into(),
            game_version: game_core::GAME_VERSION.into(),
            content: config.content.fingerprint(),
            seed: config.seed.0,
            start_depth: self.start_depth,
            map_width: config.width,
            map_height: config.height,
            frame: self.settings.frame,
            frame_every: self.settings.frame_every,
            oracle_every: self.settings.oracle_every,
            progress_limit: self.settings.progress_limit,
            canaries: config.canaries.list(),
            keys: Vec::new(),
            step_hashes: Vec::new(),
            part_digests: Vec::new(),
            checkpoints: Vec::new(),
            outcome: RecordedOutcome::Failed,
            note: format!("deja found this: {}", failure.kind),
            failure: Some(failure),
            origin: None,
            expect: Vec::new(),
        }
    }

    /// Marks the trail busy with the driver's work: a bot choosing keys.
    pub fn busy_driving(&self) -> Busy<'_> {
        let busy = self.busy();
        self.driving.store(true, Ordering::Release);
        busy
    }
}

/// The trail is busy while this lives.
pub struct Busy<'a> {
    trail: &'a Trail,
}

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.trail.busy_since.store(0, Ordering::Release);
    }
}

/// A hang, written down.
pub struct Hang {
    /// The recording that reproduces it: every key up to and including the
    /// one that hung, with a `Hang` failure at that step.
    pub recording: Recording,
    pub seconds: u64,
}

/// What the process does with a hang before it exits with code 4: write the
/// bug report where the command writes its reports and say how to replay it.
pub type HangHandler = Box<dyn Fn(&Hang) + Send + Sync>;

/// Sets what this process does with a hang (the last call wins).
pub fn on_hang(handler: HangHandler) {
    let mut slot = watchdog().handler.lock().unwrap_or_else(|e| e.into_inner());
    *slot = Some(handler);
}

/// The default handler: the bug report goes to `./deja-hang-seedN-stepM.ron`
/// (see [`default_report`]).
pub fn write_to_working_directory(hang: &Hang) {
    report_written(hang, &default_report(hang));
}

/// Where a hang's bug report goes when nobody named a file: a new file in
/// the working directory, under a name nothing has yet (`-2`, `-3`, ...).
pub fn default_report(hang: &Hang) -> Destination {
    let recording = &hang.recording;
    let step = recording.failure.as_ref().map_or(0, |f| f.step);
    Destination::New {
        dir: PathBuf::from("."),
        stem: format!("deja-hang-seed{}-step{step}", recording.seed),
        extension: "ron",
    }
}

/// Writes the hang's recording where `to` says and says so on standard
/// error, naming the file written (or why it could not be).
pub fn report_written(hang: &Hang, to: &Destination) {
    let failure = hang
        .recording
        .failure
        .as_ref()
        .map_or_else(String::new, |f| format!("step {}: {}", f.step, f.kind));
    crate::plumbing::output::err(format_args!(
        "FAILURE seed {} {failure}",
        hang.recording.seed
    ));
    match crate::recording::write_to(to, &hang.recording) {
        Ok(path) => crate::plumbing::output::err(format_args!(
            "  reproduce: deja replay {}",
            crate::plumbing::printable::path(&path)
        )),
        Err(message) => crate::plumbing::output::err(format_args!(
            "  the bug report could not be written: {message}"
        )),
    }
}

/// The budget this process uses.
pub fn budget() -> Duration {
    *watchdog().budget.get_or_init(|| {
        std::env::var(BUDGET_VAR)
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
            .filter(|&s| (1..=86_400).contains(&s))
            .map_or(DEFAULT_BUDGET, Duration::from_secs)
    })
}

/// Sets the budget, before any run starts (a command's `--hang-seconds`).
pub fn set_budget(seconds: u64) {
    let _ = watchdog().budget.set(Duration::from_secs(seconds));
}

struct Watchdog {
    trails: Mutex<Vec<Weak<Trail>>>,
    handler: Mutex<Option<HangHandler>>,
    budget: OnceLock<Duration>,
    reporting: AtomicBool,
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn watchdog() -> &'static Watchdog {
    static WATCHDOG: OnceLock<Watchdog> = OnceLock::new();
    static STARTED: std::sync::Once = std::sync::Once::new();
    let dog = WATCHDOG.get_or_init(|| Watchdog {
        trails: Mutex::new(Vec::new()),
        handler: Mutex::new(None),
        budget: OnceLock::new(),
        reporting: AtomicBool::new(false),
    });
    STARTED.call_once(|| {
        epoch();
        let spawned = std::thread::Builder::new()
            .name("deja-watchdog".into())
            .spawn(|| watchdog().patrol());
        if let Err(e) = spawned {
            // Without the thread a hang is only a hang; say so once.
            crate::plumbing::output::err(format_args!(
                "warning: no watchdog thread ({e}): a hanging key will not be reported"
            ));
        }
    });
    dog
}

impl Watchdog {
    fn watch(&self, trail: &Arc<Trail>) {
        let mut trails = self.trails.lock().unwrap_or_else(|e| e.into_inner());
        // Forget finished runs now and then, so the list stays the size of
        // the runs alive.
        if trails.len() >= 64 && trails.len().is_power_of_two() {
            trails.retain(|t| t.strong_count() > 0);
        }
        trails.push(Arc::downgrade(trail));
    }

    fn patrol(&self) {
        loop {
            std::thread::sleep(POLL);
            let budget = budget();
            let now = epoch().elapsed().as_nanos() as u64 + 1;
            let hung = {
                let mut trails = self.trails.lock().unwrap_or_else(|e| e.into_inner());
                trails.retain(|t| t.strong_count() > 0);
                trails.iter().filter_map(Weak::upgrade).find(|t| {
                    let since = t.busy_since.load(Ordering::Acquire);
                    since != 0 && now.saturating_sub(since) > budget.as_nanos() as u64
                })
            };
            if let Some(trail) = hung
                && !self.reporting.swap(true, Ordering::AcqRel)
            {
                self.report(trail, budget);
            }
        }
    }

    fn report(&self, trail: Arc<Trail>, budget: Duration) -> ! {
        let keys = trail.keys();
        let seconds = budget.as_secs();
        // Replaying the keys before the hang may hang too, when what hangs
        // came before them (starting the run): that replay gets a budget of
        // its own, on a thread of its own, and when it runs out the recording
        // keeps the keys and fails at the start.
        let (sender, receiver) = std::sync::mpsc::channel();
        let (replayed_trail, replayed_keys) = (Arc::clone(&trail), keys.clone());
        let spawned = std::thread::Builder::new()
            .name("deja-watchdog-replay".into())
            .spawn(move || {
                let _ = sender.send(reproduce(&replayed_trail, &replayed_keys, seconds));
            });
        let replayed = spawned.ok().and_then(|_| {
            receiver
                .recv_timeout(budget.max(Duration::from_secs(10)))
                .ok()
        });
        let recording = replayed.unwrap_or_else(|| {
            let failure = Failure {
                step: 0,
                kind: FailureKind::Hang {
                    message: format!(
                        "the run hung, and replaying the {} keys before the hang hung too (within {seconds} s of starting)",
                        keys.len().saturating_sub(1)
                    ),
                },
            };
            let mut recording = trail.recording_of_start_failure(failure);
            recording.keys = keys;
            recording
        });
        let hang = Hang { recording, seconds };
        let handler = self.handler.lock().unwrap_or_else(|e| e.into_inner());
        match handler.as_ref() {
            Some(handle) => handle(&hang),
            None => write_to_working_directory(&hang),
        }
        std::process::exit(i32::from(Exit::Failure.code()))
    }
}

/// The recording of a hang: the keys before the hanging one replayed for
/// their hashes, then the hanging key with the failure.
fn reproduce(trail: &Trail, keys: &[Key], seconds: u64) -> Recording {
    let step = keys.len() as u64;
    let what = match keys.last() {
        // The game finished the last key; the bot then never chose the next.
        Some(_) if trail.driving.load(Ordering::Acquire) => {
            format!("the driver (the bot choosing its next key after step {step})")
        }
        Some(key) => format!("key {key} at step {step}"),
        None if trail.driving.load(Ordering::Acquire) => {
            "the driver (the bot choosing its first key)".to_string()
        }
        None => format!("generating floor {}", trail.start_depth),
    };
    let kind = FailureKind::Hang {
        message: format!("{what} ran for more than {seconds} s"),
    };
    let failure = Failure { step, kind };
    // The start itself hung: a recording with no keys, failing at step 0.
    // (Starting the run again here would hang this thread too.)
    match trail.replay {
        Some(replay) if !keys.is_empty() => replay(trail, keys, failure),
        _ => trail.recording_of_start_failure(failure),
    }
}
