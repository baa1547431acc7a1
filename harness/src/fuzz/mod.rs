//! The bodies of the fuzz targets. `fuzz/fuzz_targets/*.rs` are one-line
//! wrappers around these, so `cargo test` runs the committed corpus on stable
//! through exactly the code libFuzzer runs, and `deja from-fuzz` turns an
//! artifact into a recording through the same code again.
//!
//! Every body drives the game through [`Runner`] (every turn invariant after
//! every key, the floor catalogue on every floor, panics caught, stuck loops
//! reported) and returns the failure it met. The wrappers turn a failure into
//! a crash, which is how libFuzzer keeps an input. [`corpus`] runs a
//! committed corpus through them.

pub mod corpus;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use arbitrary::{Arbitrary, Unstructured};
use game_core::canary::{Canaries, Canary};
use game_core::content::{Content, EMBEDDED_ITEMS, EMBEDDED_MONSTERS, Source};
use game_core::game::screens::{Purpose, Screen};
use game_core::geom::Pos;
use game_core::map::{MAX_HEIGHT, MAX_WIDTH, MIN_HEIGHT, MIN_WIDTH};
use game_core::mapgen::{self, GeneratorKind, LAST_DEPTH};
use game_core::{Aim, Game, GameConfig, Intent, Key, Outcome, RunSeed, Slot};

use crate::recording::{self, Failure, FailureKind};
use crate::run::runner::{Runner, catch_panic};

/// The fuzz targets, as `cargo fuzz list` names them.
pub const TARGETS: [&str; 6] = ["intents", "keys", "mapgen", "recording", "content", "sight"];

/// Most intents one `intents` input plays: a bound on the work of one run.
pub const MAX_INTENTS: usize = 256;
/// Most keys one `keys` input presses.
pub const MAX_KEYS: usize = 1024;
/// Most keys of a fuzzed recording that are replayed.
pub const MAX_REPLAY_STEPS: u64 = 200;
/// Keys played on fuzzed content once it loads.
const CONTENT_KEYS: &str = "oooo....hjkl>>oooo;<Esc>iaa<Esc>m<End><Esc>?j<Esc>";

/// The environment variable a canary build reads to plant defects in fuzz
/// runs (comma-separated canary names), as `ci/canary.sh` does. Ignored in a
/// build without the `canary` feature.
pub const CANARIES_VAR: &str = "DEJA_FUZZ_CANARIES";

/// The canaries planted in this process's fuzz runs. Its first call also
/// makes a hang abort the process, which is how libFuzzer keeps an input.
pub fn planted() -> Canaries {
    static PLANTED: OnceLock<Canaries> = OnceLock::new();
    *PLANTED.get_or_init(|| {
        crate::run::watchdog::on_hang(Box::new(|hang| {
            if let Some(failure) = &hang.recording.failure {
                crate::plumbing::output::err(format_args!(
                    "deja fuzz target: failure at step {}: {}. Turn the artifact into a recording with deja from-fuzz",
                    failure.step, failure.kind
                ));
            }
            std::process::abort();
        }));
        if !Canaries::AVAILABLE {
            return Canaries::NONE;
        }
        let names = std::env::var(CANARIES_VAR).unwrap_or_default();
        let mut planted = Canaries::NONE;
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match Canary::from_name(name) {
                Some(canary) => planted = planted.with(canary),
                None => {
                    let known: Vec<&str> = Canary::ALL.iter().map(|c| c.name()).collect();
                    crate::plumbing::output::err(format_args!(
                        "{CANARIES_VAR}: unknown canary {name:?}; known: {}",
                        known.join(", ")
                    ));
                    std::process::exit(2);
                }
            }
        }
        planted
    })
}

fn embedded() -> Arc<Content> {
    Content::shared_embedded()
}

fn config(seed: u64, canaries: Canaries) -> GameConfig {
    GameConfig::new(seed).with_canaries(canaries)
}

// ----- intents -----

/// A seed and the intents to carry out on it.
#[derive(Clone, Debug, Arbitrary)]
pub struct IntentsInput {
    pub seed: u16,
    pub intents: Vec<Intent>,
}

/// Plays the intents by pressing the keys each one stands for, until a
/// failure, the end of the run or [`MAX_INTENTS`].
pub fn play_intents(input: &IntentsInput, canaries: Canaries) -> Runner {
    let seed = u64::from(input.seed);
    play_intents_on(start(seed, canaries), input, FirstKey::Kept(seed, canaries))
}

/// [`play_intents`] with every step hashed, so the run can be written down:
/// `deja from-fuzz`.
pub fn play_intents_recorded(input: &IntentsInput, canaries: Canaries) -> Runner {
    play_intents_on(
        fresh(u64::from(input.seed), canaries),
        input,
        FirstKey::Pressed,
    )
}

/// Plays each intent by pressing its keys through the runner (every check
/// after every key), and holds the driver to what an intent means
/// (ARCHITECTURE.md, "intents are keys"):
/// - `Game::apply` does what pressing the keys does: a second game carried
///   along by `apply` ends each intent in the state the runner's game is
///   in, having said and spent the same;
/// - an aimed intent's reticle stands, when Enter is pressed, where the aim
///   points ([`aim_point`]).
///
/// A broken promise is the runner's failure at the step it showed at
/// (`intent.keys`, `intent.aim`): a failure of the fuzz driver, not of a key,
/// so a recording of the keys cannot show it; `deja from-fuzz` says so.
fn play_intents_on(mut runner: Runner, input: &IntentsInput, first_key: FirstKey) -> Runner {
    let mut applied = runner.game().clone();
    for intent in input.intents.iter().take(MAX_INTENTS) {
        if runner.game().is_over() {
            break;
        }
        let keys = runner.game().keys_for(intent);
        let mut pressed = Outcome::default();
        for (i, &key) in keys.iter().enumerate() {
            let last = i + 1 == keys.len();
            if last && key == Key::ENTER {
                if let Some(problem) = reticle_off_aim(runner.game(), intent) {
                    runner.fail(FailureKind::Invariant {
                        id: INTENT_AIM.into(),
                        message: problem,
                    });
                    return runner;
                }
            }
            match first_key.press(&mut runner, key) {
                Ok(outcome) => add_outcome(&mut pressed, outcome),
                Err(_) => return runner,
            }
        }
        let problem = match applied.apply(intent) {
            Err(stuck) => Some(format!(
                "Game::apply got stuck where its keys did not: {stuck}"
            )),
            Ok(outcome) => apply_differs(&outcome, &pressed, &applied, runner.game()),
        };
        if let Some(problem) = problem {
            runner.fail(FailureKind::Invariant {
                id: INTENT_KEYS.into(),
                message: format!("{}: {problem}", describe_intent(intent)),
            });
            return runner;
        }
    }
    runner
}

/// The failure ids of the intents driver's own promises.
pub const INTENT_KEYS: &str = "intent.keys";
pub const INTENT_AIM: &str = "intent.aim";

/// Whether `id` names a failure of the intents driver rather than of a key.
pub fn is_driver_failure(id: &str) -> bool {
    id == INTENT_KEYS || id == INTENT_AIM
}

/// The outcomes of an intent's keys summed, as `Game::apply` sums them.
fn add_outcome(total: &mut Outcome, outcome: Outcome) {
    total.turns += outcome.turns;
    total.messages.extend(outcome.messages);
    total.events.extend(outcome.events);
    total.ended = outcome.ended;
}

/// How `Game::apply`'s run and outcome differ from pressing the keys.
fn apply_differs(
    applied: &Outcome,
    pressed: &Outcome,
    by_apply: &Game,
    by_keys: &Game,
) -> Option<String> {
    if applied.turns != pressed.turns {
        Some(format!(
            "Game::apply spent {} turns; its keys spent {}",
            applied.turns, pressed.turns
        ))
    } else if applied.messages != pressed.messages {
        Some(format!(
            "Game::apply said {} lines; its keys said {}",
            applied.messages.len(),
            pressed.messages.len()
        ))
    } else if applied != pressed {
        Some("Game::apply recorded other events than its keys".into())
    } else if by_apply.state() != by_keys.state() {
        Some("Game::apply left another state than its keys".into())
    } else {
        None
    }
}

/// Where an aimed intent points, from the state with its reticle open: the
/// nearest target (the reticle's opening choice, or the player with none),
/// Tab pressed n times from it (round the targets, nearest first), or the
/// tile at the offset from the player, held inside the map.
pub fn aim_point(game: &Game, purpose: Purpose, aim: Aim) -> Pos {
    let player = game.state().player.pos;
    let targets = game.targets(purpose);
    match aim {
        Aim::Nearest => targets.first().copied().unwrap_or(player),
        Aim::Cycle(_) if targets.is_empty() => player,
        Aim::Cycle(n) => targets[usize::from(n) % targets.len()],
        Aim::Offset { dx, dy } => {
            let map = &game.state().floor.map;
            Pos::new(
                (player.x + i32::from(dx)).clamp(0, map.width() - 1),
                (player.y + i32::from(dy)).clamp(0, map.height() - 1),
            )
        }
    }
}

/// Before an aimed intent's Enter: the open reticle's cursor against where
/// the intent aims.
fn reticle_off_aim(game: &Game, intent: &Intent) -> Option<String> {
    let (Intent::Use { aim, .. } | Intent::Throw { aim, .. }) = *intent else {
        return None;
    };
    let Some(Screen::Reticle(reticle)) = game.state().screens.last() else {
        return None;
    };
    let want = aim_point(game, reticle.purpose, aim);
    (reticle.cursor != want).then(|| {
        format!(
            "{}: the reticle is at {} when Enter is pressed; the aim points at {want}",
            describe_intent(intent),
            reticle.cursor
        )
    })
}

/// An intent in words, for a failure's message.
fn describe_intent(intent: &Intent) -> String {
    let aim = |aim: Aim| match aim {
        Aim::Nearest => "the nearest target".to_string(),
        Aim::Cycle(n) => format!("Tab {n} times"),
        Aim::Offset { dx, dy } => format!("the tile {dx:+}, {dy:+} from the player"),
    };
    let slot = |slot: Slot| game_core::game::state::slot_letter(slot.index());
    match *intent {
        Intent::Step(dir) => format!("step {}", dir.name()),
        Intent::Run(dir) => format!("run {}", dir.name()),
        Intent::Wait => "wait".into(),
        Intent::PickUp => "pick up".into(),
        Intent::Descend => "descend".into(),
        Intent::AutoExplore => "auto-explore".into(),
        Intent::Drop { slot: s } => format!("drop {}", slot(s)),
        Intent::Wear { slot: s } => format!("wear {}", slot(s)),
        Intent::Use { slot: s, aim: a } => format!("use {} at {}", slot(s), aim(a)),
        Intent::Throw { slot: s, aim: a } => format!("throw {} at {}", slot(s), aim(a)),
    }
}

pub fn intents(input: &IntentsInput) -> Result<(), Failure> {
    outcome(&play_intents(input, planted()))
}

/// A runner at the start of `seed`'s run. Starting a game (generating,
/// checking and populating floor 1) costs more than most inputs' play, and a
/// fuzzer starts the same seeds again and again, so started runners are kept
/// and copied: a copy of a fresh game is that fresh game, so this changes no
/// result. Kept without hashing: fuzz runs ask only whether they fail, and
/// `deja from-fuzz` replays an artifact with hashing to write it down.
fn start(seed: u64, canaries: Canaries) -> Runner {
    thread_local! {
        static STARTED: RefCell<Kept<(u64, Canaries), Runner>> = const { RefCell::new(Kept::new()) };
    }
    STARTED.with(|started| {
        let mut started = started.borrow_mut();
        if let Some(runner) = started.get(&(seed, canaries)) {
            return runner.clone();
        }
        let runner = fresh(seed, canaries).without_hashing();
        started.insert((seed, canaries), runner.clone());
        runner
    })
}

/// How an input's first key is pressed.
#[derive(Clone, Copy)]
enum FirstKey {
    /// Through the runner, as every other key: a run that is written down.
    Pressed,
    /// From the runners kept after a first key on a started run of this
    /// seed ([`pressed_first`]): a fuzz run.
    Kept(u64, Canaries),
}

impl FirstKey {
    /// Presses `key` on `runner`: the kept result of pressing it on the
    /// started run when `runner` is that started run and this is a fuzz run.
    fn press(self, runner: &mut Runner, key: Key) -> Result<Outcome, Failure> {
        match self {
            FirstKey::Kept(seed, canaries) if runner.step() == 0 => {
                let (after, result) = pressed_first(seed, canaries, key);
                *runner = after;
                result
            }
            _ => runner.press(key),
        }
    }
}

/// A started run of `seed` after `key`, and what pressing it returned. The
/// first key is checked most closely of all (the oracles, the close reading
/// of the screen and the narrow frames read step 1 of every run, as of
/// every [`invariants::ORACLE_EVERY`]th), and that reading cost a 64-intent
/// input as much as the rest of its keys' checks. A fuzzer plays the same
/// seeds' first keys again and again, and the runner after a key is a
/// function of the runner before it and the key, so the runners after a
/// first key are kept and copied as the started ones are: the same
/// failures, found at the same steps, for less work.
fn pressed_first(seed: u64, canaries: Canaries, key: Key) -> (Runner, Result<Outcome, Failure>) {
    type Pressed = (Runner, Result<Outcome, Failure>);
    thread_local! {
        static PRESSED: RefCell<Kept<(u64, Canaries, Key), Pressed>> = const { RefCell::new(Kept::new()) };
    }
    PRESSED.with(|kept| {
        let mut kept = kept.borrow_mut();
        if let Some((runner, result)) = kept.get(&(seed, canaries, key)) {
            return (runner.clone(), result.clone());
        }
        let mut runner = start(seed, canaries);
        let result = runner.press(key);
        kept.insert((seed, canaries, key), (runner.clone(), result.clone()));
        (runner, result)
    })
}

/// Values kept by key, at most [`Kept::MOST`]; past that the one used
/// longest ago goes. Per thread, so a fuzzer's memory stays bounded: a
/// kept runner is a game of a few tens of kilobytes.
struct Kept<K, V> {
    entries: BTreeMap<K, (u64, V)>,
    clock: u64,
}

impl<K: Ord + Copy, V> Kept<K, V> {
    const MOST: usize = 512;

    const fn new() -> Self {
        Kept {
            entries: BTreeMap::new(),
            clock: 0,
        }
    }

    fn get(&mut self, key: &K) -> Option<&V> {
        self.clock += 1;
        let (used, value) = self.entries.get_mut(key)?;
        *used = self.clock;
        Some(value)
    }

    fn insert(&mut self, key: K, value: V) {
        self.clock += 1;
        if self.entries.len() >= Self::MOST
            && let Some(oldest) = self
                .entries
                .iter()
                .min_by_key(|(_, (used, _))| *used)
                .map(|(k, _)| *k)
        {
            self.entries.remove(&oldest);
        }
        self.entries.insert(key, (self.clock, value));
    }
}

// ----- keys -----

/// A seed and key notation text, read leniently: a token that is not a key
/// is skipped, so every input plays something.
#[derive(Clone, Debug)]
pub struct KeysInput {
    pub seed: u16,
    pub keys: String,
}

impl<'a> Arbitrary<'a> for KeysInput {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let seed = u16::arbitrary(u)?;
        let rest = u.bytes(u.len())?;
        Ok(KeysInput {
            seed,
            keys: String::from_utf8_lossy(rest).into_owned(),
        })
    }

    fn arbitrary_take_rest(mut u: Unstructured<'a>) -> arbitrary::Result<Self> {
        Self::arbitrary(&mut u)
    }
}

/// The keys of `text`, skipping anything that is not a key (a bad bracket
/// token, a control character), at most [`MAX_KEYS`].
pub fn lenient_keys(text: &str) -> Vec<Key> {
    let mut keys = Vec::new();
    let mut rest = text;
    while keys.len() < MAX_KEYS {
        let Some(c) = rest.chars().next() else { break };
        // A bracketed token runs from this '<' to the next '>', unless another
        // '<' comes first (then this one is a stray).
        let closing = || {
            rest[1..]
                .find(['<', '>'])
                .map(|at| at + 1)
                .filter(|&at| rest[at..].starts_with('>') && at <= 16)
        };
        if c == '<'
            && let Some(end) = closing()
        {
            // A bracketed token: a key if it parses, skipped whole if not.
            if let Ok(key) = rest[..=end].parse::<Key>() {
                keys.push(key);
            }
            rest = &rest[end + 1..];
            continue;
        }
        if !c.is_control() && c != '<' {
            keys.push(Key::char(c));
        }
        rest = &rest[c.len_utf8()..];
    }
    keys
}

pub fn play_keys(input: &KeysInput, canaries: Canaries) -> Runner {
    let seed = u64::from(input.seed);
    play_keys_on(start(seed, canaries), input, FirstKey::Kept(seed, canaries))
}

/// [`play_keys`] with every step hashed: `deja from-fuzz`.
pub fn play_keys_recorded(input: &KeysInput, canaries: Canaries) -> Runner {
    play_keys_on(
        fresh(u64::from(input.seed), canaries),
        input,
        FirstKey::Pressed,
    )
}

fn play_keys_on(mut runner: Runner, input: &KeysInput, first_key: FirstKey) -> Runner {
    for key in lenient_keys(&input.keys) {
        if runner.game().is_over() || first_key.press(&mut runner, key).is_err() {
            break;
        }
    }
    runner
}

pub fn keys(input: &KeysInput) -> Result<(), Failure> {
    outcome(&play_keys(input, planted()))
}

// ----- mapgen -----

/// A floor to build: a seed, a depth, a generator and a size, each mapped
/// into its documented bounds (depth 1 to 6; width 20 to 256; height 10 to
/// 256).
#[derive(Clone, Debug, Arbitrary)]
pub struct MapgenInput {
    pub seed: u64,
    pub depth: u8,
    pub generator: GeneratorKind,
    pub width: u8,
    pub height: u8,
}

impl MapgenInput {
    pub fn depth(&self) -> u32 {
        1 + u32::from(self.depth) % LAST_DEPTH
    }

    pub fn size(&self) -> (i32, i32) {
        let span = |min: i32, max: i32, n: u8| min + i32::from(n) % (max - min + 1);
        (
            span(MIN_WIDTH, MAX_WIDTH, self.width),
            span(MIN_HEIGHT, MAX_HEIGHT, self.height),
        )
    }
}

/// Builds the floor with the chosen generator (when it fits) and as the game
/// would at that depth, and checks every floor invariant on both.
pub fn mapgen(input: &MapgenInput) -> Result<(), Failure> {
    let canaries = planted();
    let (width, height) = input.size();
    let depth = input.depth();
    let seed = RunSeed(input.seed);
    let checked = catch_panic(|| {
        let builder = mapgen::generator(input.generator);
        let mut found = Vec::new();
        if builder.fits(width, height) {
            let mut rng = seed.stream("mapgen", u64::from(depth));
            let floor = builder.build_planted(width, height, &mut rng, canaries);
            found.extend(checks::check_floor(&floor, false));
        }
        let floor = mapgen::generate_floor_planted(seed, depth, width, height, canaries);
        found.extend(checks::check_floor(&floor, depth == LAST_DEPTH));
        found.into_iter().next()
    });
    match checked {
        Err(kind) => Err(Failure { step: 0, kind }),
        Ok(Some(v)) => Err(Failure {
            step: 0,
            kind: FailureKind::Invariant {
                id: v.id.to_string(),
                message: v.message,
            },
        }),
        Ok(None) => Ok(()),
    }
}

// ----- sight -----

/// A small map of arbitrary walls and a viewpoint on it: the fast field of
/// view, distances, chase map and A* against the slow references
/// (`checks::reference`), where the generators never go.
#[derive(Clone, Debug, Arbitrary)]
pub struct SightInput {
    /// 4 to 43 wide, 4 to 33 high.
    pub width: u8,
    pub height: u8,
    pub origin: (u8, u8),
    /// 0 to 15.
    pub radius: u8,
    /// One bit per cell, row by row: 1 is rock. Cells past the bits are
    /// open floor; the viewpoint is always open.
    pub rock: Vec<u8>,
}

impl SightInput {
    pub fn map(&self) -> (game_core::map::Map, game_core::geom::Pos, i32) {
        use game_core::geom::Pos;
        use game_core::map::{Map, Tile};
        let (w, h) = (
            4 + i32::from(self.width % 40),
            4 + i32::from(self.height % 30),
        );
        let mut map = Map::new(w, h);
        for i in 0..(w * h) as usize {
            let rock = self.rock.get(i / 8).is_some_and(|b| b >> (i % 8) & 1 == 1);
            if !rock {
                map.set(map.idx_pos(i), Tile::Floor);
            }
        }
        let origin = Pos::new(i32::from(self.origin.0) % w, i32::from(self.origin.1) % h);
        map.set(origin, Tile::Floor);
        (map, origin, i32::from(self.radius % 16))
    }
}

/// The sight and path oracles on the input's map, and sight's symmetry:
/// every open tile seen from the viewpoint sees it back.
pub fn sight(input: &SightInput) -> Result<(), Failure> {
    use game_core::fov;
    use game_core::map::BitGrid;
    let (map, origin, radius) = input.map();
    let checked = catch_panic(|| {
        let mut visible = BitGrid::new(map.len());
        fov::compute(&map, origin, radius, &mut visible);
        let mut found: Vec<checks::Violation> = checks::check_view(&map, origin, radius, &visible)
            .into_iter()
            .collect();
        let corners = [
            game_core::geom::Pos::new(0, 0),
            game_core::geom::Pos::new(map.width() - 1, map.height() - 1),
        ];
        found.extend(checks::check_paths(&map, origin, &corners));
        let one_way = visible
            .iter_ones()
            .map(|i| map.idx_pos(i))
            .find(|&p| map.is_walkable(p) && !fov::can_see(&map, p, origin, radius));
        if let Some(p) = one_way {
            found.push(checks::Violation {
                id: checks::Id::FovSymmetric,
                message: format!("{origin} sees {p}, which cannot see it back"),
            });
        }
        found.into_iter().next()
    });
    match checked {
        Err(kind) => Err(Failure { step: 0, kind }),
        Ok(Some(v)) => Err(Failure {
            step: 0,
            kind: FailureKind::Invariant {
                id: v.id.to_string(),
                message: v.message,
            },
        }),
        Ok(None) => Ok(()),
    }
}

// ----- any target, from bytes -----

/// Runs `target`'s body on `bytes`, decoded exactly as libfuzzer-sys decodes
/// them (`Arbitrary::arbitrary_take_rest` over the whole input): `None` when
/// they decode to no input (libFuzzer skips those too), or for an unknown
/// target.
pub fn run_bytes(target: &str, bytes: &[u8]) -> Option<Result<(), Failure>> {
    fn typed<T: for<'a> Arbitrary<'a>>(bytes: &[u8]) -> Option<T> {
        T::arbitrary_take_rest(Unstructured::new(bytes)).ok()
    }
    Some(match target {
        "intents" => intents(&typed::<IntentsInput>(bytes)?),
        "keys" => keys(&typed::<KeysInput>(bytes)?),
        "mapgen" => mapgen(&typed::<MapgenInput>(bytes)?),
        "sight" => sight(&typed::<SightInput>(bytes)?),
        "recording" => recording(bytes),
        "content" => content(bytes),
        _ => return None,
    })
}

// ----- recording -----

/// Bytes as a recording file: the reader must answer with a recording or an
/// error, never a panic; a recording that reads is replayed (its first
/// [`MAX_REPLAY_STEPS`] keys) and the game must not fail. Drift is fine.
pub fn recording(bytes: &[u8]) -> Result<(), Failure> {
    let text = String::from_utf8_lossy(bytes);
    let parsed =
        catch_panic(|| recording::from_text(&text)).map_err(|kind| Failure { step: 0, kind })?;
    let Ok(recording) = parsed else {
        return Ok(());
    };
    let replayed = catch_panic(|| {
        crate::replay::replay(&recording, embedded(), Some(MAX_REPLAY_STEPS), |_, _, _| {})
    })
    .map_err(|kind| Failure { step: 0, kind })?;
    match replayed {
        // A configuration this build refuses (canaries in a plain build).
        Err(_) => Ok(()),
        Ok(report) => match report.verdict {
            crate::replay::Verdict::NewFailure { failure }
            | crate::replay::Verdict::Reproduced { failure } => Err(failure),
            _ => Ok(()),
        },
    }
}

// ----- content -----

/// Bytes as a monsters file and as an items file: loading answers with
/// content or errors, never a panic; content that loads must survive a
/// short game.
pub fn content(bytes: &[u8]) -> Result<(), Failure> {
    let text = String::from_utf8_lossy(bytes);
    for as_monsters in [true, false] {
        let (monsters, items) = if as_monsters {
            (text.as_ref(), EMBEDDED_ITEMS)
        } else {
            (EMBEDDED_MONSTERS, text.as_ref())
        };
        let loaded = catch_panic(|| {
            Content::parse(
                Source {
                    file: "monsters.ron",
                    text: monsters,
                },
                Source {
                    file: "items.ron",
                    text: items,
                },
            )
        })
        .map_err(|kind| Failure { step: 0, kind })?;
        let Ok(content) = loaded else { continue };
        let config = GameConfig::new(1)
            .with_content(Arc::new(content))
            .with_canaries(planted());
        let mut runner = Runner::new(config).map_err(|error| Failure {
            step: 0,
            kind: FailureKind::Panic {
                message: error.to_string(),
                location: None,
            },
        })?;
        for key in Key::parse_all(CONTENT_KEYS).expect("valid notation") {
            if runner.game().is_over() || runner.press(key).is_err() {
                break;
            }
        }
        outcome(&runner)?;
    }
    Ok(())
}

/// A new runner at the start of `seed`'s run, hashing every step.
fn fresh(seed: u64, canaries: Canaries) -> Runner {
    Runner::new(config(seed, canaries)).expect("the fuzz configuration is valid")
}

fn outcome(runner: &Runner) -> Result<(), Failure> {
    match runner.failure() {
        Some(failure) => Err(failure.clone()),
        None => Ok(()),
    }
}

/// What a fuzz wrapper panics with, so the crash names the failure and the
/// next step: a recording for the game-playing targets (with the canaries
/// this run planted), the artifact itself for the others and for a failure
/// of the intents driver, which no recording of keys can show.
pub fn crash_message(target: &str, failure: &Failure) -> String {
    let of_the_driver =
        matches!(&failure.kind, FailureKind::Invariant { id, .. } if is_driver_failure(id));
    let next = if (target == "intents" || target == "keys") && !of_the_driver {
        let canaries: String = Canary::ALL
            .iter()
            .filter(|&&c| planted().has(c))
            .map(|c| format!(" --canary {}", c.name()))
            .collect();
        format!(
            "Turn the artifact into a recording with: deja from-fuzz {target} <artifact>{canaries} -o failure.ron"
        )
    } else {
        format!("Reproduce it with: cargo fuzz run {target} <artifact>")
    };
    format!(
        "deja fuzz target {target}: failure at step {}: {}. {next}",
        failure.step, failure.kind
    )
}

/// The inputs the fuzz bodies are measured with, natively: by `cargo bench
/// -p harness --bench fuzz` and by `deja bench`, so both time the same games.
/// Every input is decoded from a fixed byte stream: every run plays the same.
pub mod bench {
    use arbitrary::{Arbitrary, Unstructured};
    use game_core::{Intent, RunSeed};

    use super::IntentsInput;

    /// How many different inputs a bench cycles through: enough seeds that
    /// the kept started games are a realistic mix of new and reused.
    pub const INPUTS: usize = 2000;
    /// Seeds the inputs use, as a fuzzer's inputs do (`seed` is a u16).
    pub const SEEDS: u64 = 200;
    /// Intents in each `intents` input of the measure its aim is set for.
    pub const INTENTS_EACH: usize = 64;

    /// Bytes from a fixed stream: the raw material of every input.
    pub fn bytes(index: usize, len: usize) -> Vec<u8> {
        let mut rng = RunSeed(index as u64).stream("bench-fuzz", 0);
        (0..len)
            .map(|_| u8::try_from(rng.below(256)).expect("below 256"))
            .collect()
    }

    /// `count` `intents` inputs of `intents_each` intents, their seeds
    /// cycling through [`SEEDS`].
    pub fn intents_inputs(count: usize, intents_each: usize) -> Vec<IntentsInput> {
        (0..count)
            .map(|i| {
                let raw = bytes(i, 64 * intents_each);
                let mut u = Unstructured::new(&raw);
                let intents = (0..intents_each)
                    .map(|_| Intent::arbitrary(&mut u).expect("enough bytes for an intent"))
                    .collect();
                IntentsInput {
                    seed: u16::try_from(i as u64 % SEEDS).expect("SEEDS fits in a u16"),
                    intents,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kept first key plays as the key pressed: the same failure at the
    /// same step and the same state as a run that presses every key, the
    /// first time an input's first key is met and when it is kept, for
    /// intents and keys inputs, and for a failure at the first key itself (a
    /// planted help screen that Esc cannot close).
    #[test]
    fn a_kept_first_key_plays_as_a_pressed_one() {
        let same = |kept: &Runner, pressed: &Runner, what: &str| {
            assert_eq!(kept.failure(), pressed.failure(), "{what}");
            assert_eq!(kept.step(), pressed.step(), "{what}");
            assert!(kept.game().state() == pressed.game().state(), "{what}");
        };
        // 300 inputs on 200 seeds: some seeds twice, with other intents.
        for (i, input) in bench::intents_inputs(300, 6).iter().enumerate() {
            let pressed = play_intents_recorded(input, Canaries::NONE);
            for round in 0..2 {
                let kept = play_intents(input, Canaries::NONE);
                same(
                    &kept,
                    &pressed,
                    &format!("intents input {i}, round {round}"),
                );
            }
        }
        let sticky = Canaries::NONE.with(Canary::StickyHelp);
        for (keys, failing_step) in [
            ("?", Some(1)),
            ("?j", Some(1)),
            ("j?", Some(2)),
            ("jk", None),
        ] {
            let input = KeysInput {
                seed: 3,
                keys: keys.into(),
            };
            let pressed = play_keys_recorded(&input, sticky);
            for round in 0..2 {
                let kept = play_keys(&input, sticky);
                assert_eq!(kept.failure().map(|f| f.step), failing_step, "{keys}");
                same(&kept, &pressed, &format!("keys {keys:?}, round {round}"));
            }
        }
    }

    #[test]
    fn lenient_keys_skip_what_is_not_a_key() {
        let keys = lenient_keys("l<Bogus>l<Esc>\u{7}<<Tab>");
        assert_eq!(Key::format_all(&keys), "ll<Esc><Tab>");
        // Found by the keys fuzzer: text that opens with a character of more
        // than one byte.
        let keys = lenient_keys("\u{fffd}l<\u{fffd}>l");
        assert_eq!(Key::format_all(&keys), "\u{fffd}ll");
    }

    #[test]
    fn mapgen_inputs_map_into_their_bounds() {
        for n in [0u8, 1, 236, 237, 255] {
            let input = MapgenInput {
                seed: 1,
                depth: n,
                generator: GeneratorKind::Rooms,
                width: n,
                height: n,
            };
            let (w, h) = input.size();
            assert!((MIN_WIDTH..=MAX_WIDTH).contains(&w) && (MIN_HEIGHT..=MAX_HEIGHT).contains(&h));
            assert!((1..=LAST_DEPTH).contains(&input.depth()));
        }
    }
}
