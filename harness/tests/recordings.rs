//! The regression corpus: every recording in `recordings/` replays exactly as
//! it was recorded, and each required scenario still shows what its note
//! says, checked against the game's own state and message log rather than
//! trusted to the note.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use game_core::content::Content;
use game_core::game::screens::{Purpose, Screen};
use game_core::map::Tile;
use game_core::{Game, Key, RunEnd};
use harness::recording::{self, Recording};
use harness::replay::{self, Verdict};

/// The corpus, at the workspace root.
const RECORDINGS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../recordings");

/// The scenarios the corpus must always hold, one file each.
const REQUIRED: [&str; 6] = [
    "death-by-poison",
    "confused-stumble-into-wall",
    "throw-at-monster",
    "read-every-scroll",
    "auto-explore-a-floor",
    "descend-to-depth-3",
];

fn content() -> Arc<Content> {
    Arc::new(Content::embedded())
}

/// Every `*.ron` file in the corpus, sorted so failures read the same way
/// on every machine.
fn corpus() -> Vec<PathBuf> {
    let entries = std::fs::read_dir(RECORDINGS_DIR)
        .unwrap_or_else(|e| panic!("reading {RECORDINGS_DIR}: {e}"));
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "ron"))
        .collect();
    files.sort();
    files
}

fn read(path: &Path) -> Recording {
    recording::read(path).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_recording_replays_the_same_and_says_what_it_shows() {
    let files = corpus();
    assert!(
        files.len() >= 6,
        "the corpus holds {} recordings, fewer than 6: {files:?}",
        files.len()
    );
    let mut problems = Vec::new();
    for path in &files {
        let recording = read(path);
        if recording.note.trim().is_empty() {
            problems.push(format!("{}: the note is empty", path.display()));
        }
        match replay::replay(&recording, content(), None, |_, _, _| {}) {
            Ok(report) if report.verdict == Verdict::Same => {}
            Ok(report) => problems.push(format!(
                "{}: {:?} (re-record it, or if the change is intended, `deja bless` it)",
                path.display(),
                report.verdict
            )),
            Err(e) => problems.push(format!("{}: {e}", path.display())),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_required_scenario_has_its_file() {
    for name in REQUIRED {
        let path = Path::new(RECORDINGS_DIR).join(format!("{name}.ron"));
        assert!(path.is_file(), "{} is missing", path.display());
    }
}

/// A recording replayed step by step: the game after each step (index 0 is
/// the start) and the messages each step said.
struct Played {
    keys: Vec<Key>,
    games: Vec<Game>,
    /// (step, message) in the order they were said.
    messages: Vec<(usize, String)>,
}

impl Played {
    fn of(name: &str) -> Played {
        let path = Path::new(RECORDINGS_DIR).join(format!("{name}.ron"));
        let recording = read(&path);
        let mut games: Vec<Game> = Vec::new();
        let mut messages = Vec::new();
        let report = replay::replay(&recording, content(), None, |step, _, game| {
            let log = &game.state().log;
            let before = games.last().map_or(0, |g| g.state().log.total());
            messages.extend(log.since(before).map(|m| (step as usize, m.text.clone())));
            games.push(game.clone());
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(report.verdict, Verdict::Same, "{name}");
        assert_eq!(games.len(), recording.keys.len() + 1, "{name}");
        Played {
            keys: recording.keys,
            games,
            messages,
        }
    }

    fn last(&self) -> &Game {
        self.games.last().expect("step 0 is always there")
    }

    /// The messages said at `step`.
    fn said_at(&self, step: usize) -> Vec<&str> {
        self.messages
            .iter()
            .filter(|(s, _)| *s == step)
            .map(|(_, m)| m.as_str())
            .collect()
    }

    /// The steps at which a message containing `text` was said.
    fn steps_saying(&self, text: &str) -> Vec<usize> {
        let mut steps: Vec<usize> = self
            .messages
            .iter()
            .filter(|(_, m)| m.contains(text))
            .map(|(s, _)| *s)
            .collect();
        steps.dedup();
        steps
    }

    /// The first step at which a message containing `text` was said.
    fn first_saying(&self, text: &str) -> usize {
        *self
            .steps_saying(text)
            .first()
            .unwrap_or_else(|| panic!("nothing said {text:?}; the log: {:#?}", self.messages))
    }
}

/// Every monster name in the content, for "the dart hits the ..." lines.
fn monster_names(game: &Game) -> Vec<String> {
    game.content()
        .monsters()
        .iter()
        .map(|m| m.name.clone())
        .collect()
}

#[test]
fn death_by_poison_ends_in_a_death_from_poison() {
    let played = Played::of("death-by-poison");
    let last = played.last();
    match last.run_end() {
        Some(RunEnd::Died { cause }) => {
            assert!(
                cause.starts_with("died of poison from "),
                "the cause is {cause:?}"
            );
        }
        other => panic!("the run ended {other:?}, not in a death"),
    }
    let death = played.first_saying("You die...");
    assert_eq!(death, played.keys.len(), "the death is the last step");
    // Poisoned going into the last step, or by a bite in it; either way the
    // poison's burn, not the bite, took the last hit points.
    let before = &played.games[death - 1];
    assert!(
        before.state().player.statuses.is_poisoned()
            || played.said_at(death).contains(&"You are poisoned!"),
        "the player was poisoned by the last step: {:?}",
        played.said_at(death)
    );
    assert!(
        played
            .said_at(death)
            .iter()
            .any(|m| m.starts_with("The poison burns")),
        "the poison burned in the last step: {:?}",
        played.said_at(death)
    );
}

#[test]
fn a_confused_stumble_into_a_wall_spends_the_turn() {
    let played = Played::of("confused-stumble-into-wall");
    let confused = played.first_saying("You are confused!");
    let stumbles = played.steps_saying("You stumble into the wall.");
    assert!(!stumbles.is_empty(), "no stumble into a wall");
    for step in stumbles {
        assert!(step > confused, "a stumble at {step} before confusion");
        let (before, after) = (&played.games[step - 1], &played.games[step]);
        assert!(
            before.state().player.statuses.is_confused(),
            "confused before step {step}"
        );
        assert!(
            game_core::game::screens::direction_of(played.keys[step - 1]).is_some(),
            "step {step} was a move key"
        );
        assert_eq!(
            after.state().turns_taken,
            before.state().turns_taken + 1,
            "the stumble at step {step} spent the turn"
        );
        assert_eq!(
            after.state().player.pos,
            before.state().player.pos,
            "the stumble at step {step} went nowhere"
        );
        assert!(played.said_at(step).contains(&"You stumble."));
    }
    // Confusion is not there from the start: a monster's hit brought it.
    assert!(!played.games[0].state().player.statuses.is_confused());
    assert!(
        played
            .said_at(confused)
            .iter()
            .any(|m| m.contains("hits you")),
        "confused by a hit: {:?}",
        played.said_at(confused)
    );
}

#[test]
fn darts_are_thrown_at_a_monster_through_the_reticle() {
    let played = Played::of("throw-at-monster");
    let names = monster_names(played.last());
    let throws = played.steps_saying("You throw a dart.");
    assert!(!throws.is_empty(), "no dart thrown");
    let mut hits = 0;
    for step in throws {
        let before = &played.games[step - 1];
        assert_eq!(played.keys[step - 1], Key::ENTER, "thrown with Enter");
        assert!(
            matches!(
                before.state().screens.last(),
                Some(Screen::Reticle(r)) if matches!(r.purpose, Purpose::Throw { .. })
            ),
            "the throwing reticle was up before step {step}"
        );
        let said = played.said_at(step);
        let at_a_monster = said.iter().any(|m| {
            names.iter().any(|n| {
                *m == format!("The dart misses the {n}.")
                    || m.starts_with(&format!("The dart hits the {n} for "))
            })
        });
        assert!(at_a_monster, "step {step} said {said:?}");
        hits += said
            .iter()
            .filter(|m| m.starts_with("The dart hits"))
            .count();
    }
    assert!(hits > 0, "no dart hit");
}

#[test]
fn every_scroll_is_read_in_one_run() {
    let played = Played::of("read-every-scroll");

    let confusion = played.first_saying("You read a scroll of confusion at the ");
    let after = played.games[confusion].state();
    assert!(
        after.monsters.iter().any(|m| m.statuses.is_confused()),
        "a monster is confused after step {confusion}"
    );
    assert!(
        played
            .said_at(confusion)
            .iter()
            .any(|m| m.ends_with("looks confused."))
    );

    let mapping = played.first_saying("You read a scroll of magic mapping.");
    let map = &played.games[mapping].state().floor.map;
    assert!(
        map.walkable_cells().all(|p| map.is_revealed(p)),
        "magic mapping at step {mapping} revealed the floor"
    );

    let teleport = played.first_saying("You read a scroll of teleportation.");
    assert!(
        played
            .said_at(teleport)
            .contains(&"You are yanked elsewhere.")
    );
    assert_ne!(
        played.games[teleport].state().player.pos,
        played.games[teleport - 1].state().player.pos,
        "the teleport at step {teleport} moved the player"
    );
}

#[test]
fn auto_explore_explores_the_whole_floor_and_ends_on_the_stairs() {
    let played = Played::of("auto-explore-a-floor");
    for (i, key) in played.keys.iter().enumerate() {
        let explore_or_fight = *key == Key::char('o')
            || *key == Key::char('.')
            || game_core::game::screens::direction_of(*key).is_some();
        assert!(explore_or_fight, "key {} is {key}", i + 1);
    }
    let state = played.last().state();
    assert_eq!(state.depth, 1);
    assert_eq!(state.player.pos, state.floor.goal, "on the stairs");
    assert_eq!(state.floor.map.tile(state.player.pos), Tile::StairsDown);
    let map = &state.floor.map;
    let hidden: Vec<_> = map
        .walkable_cells()
        .filter(|&p| !map.is_revealed(p))
        .collect();
    assert!(hidden.is_empty(), "walkable tiles never seen: {hidden:?}");
    assert_eq!(
        played.said_at(played.keys.len()),
        vec!["There is nothing left to explore here."]
    );
    // Auto-explore did the walking: most of the turns came from `o`.
    let explore_turns: u32 = (1..=played.keys.len())
        .filter(|&step| played.keys[step - 1] == Key::char('o'))
        .map(|step| {
            played.games[step].state().turns_taken - played.games[step - 1].state().turns_taken
        })
        .sum();
    assert!(
        explore_turns * 2 > state.turns_taken,
        "{explore_turns} of {} turns",
        state.turns_taken
    );
}

#[test]
fn the_run_reaches_depth_three() {
    let played = Played::of("descend-to-depth-3");
    let arrival = played.first_saying("You descend to depth 3.");
    assert_eq!(played.keys[arrival - 1], Key::char('>'));
    assert_eq!(played.games[arrival].state().depth, 3);
    assert!(played.last().state().depth >= 3);
    assert!(!played.last().is_over(), "still alive at the end");
}

#[test]
fn the_won_run_takes_the_way_out_on_the_last_floor() {
    let played = Played::of("win");
    assert_eq!(played.last().run_end(), Some(RunEnd::Won));
    assert_eq!(played.last().state().depth, game_core::mapgen::LAST_DEPTH);
    assert_eq!(played.keys.last(), Some(&Key::char('>')));
    let before = played.games[played.keys.len() - 1].state();
    assert_eq!(before.floor.map.tile(before.player.pos), Tile::Exit);
}
