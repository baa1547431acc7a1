//! What a player sees, as reviewed snapshots: `Frame::to_text()` of first
//! frames, of scenes reached by scripted keys, of one scene at three sizes,
//! and of the final frame of every recording in `recordings/`. The files are
//! in the top-level `snapshots/` folder. A change to generation, rules or
//! drawing fails these tests with insta's diff; review it with
//! `cargo insta review` (or `INSTA_UPDATE=always` and `git diff snapshots/`).
//!
//! Every scene is reached by pressing keys in a real game, started on its
//! floor with `Game::new_at_depth` (a fresh player on the floor the seed
//! builds there) and driven through the same runner `deja play` uses, which
//! checks every turn invariant after each key; no state is edited. Before
//! each snapshot the test asserts that the scene still shows what its name
//! says, so a rule change that moves a scene away fails with a sentence, not
//! only with a diff: then search for new seeds and keys rather than accept a
//! snapshot that no longer shows its scene.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use game_core::content::Content;
use game_core::game::screens::{PackMode, Purpose, Reticle, Screen};
use game_core::geom::Pos;
use game_core::{Game, GameConfig, Key, RunEnd};
use harness::recording;
use harness::replay;
use harness::run::runner::Runner;

/// The usual terminal: first frames, scenes and recordings are drawn at this.
const WIDTH: u16 = 80;
const HEIGHT: u16 = 24;

/// Seeds and floors of the first-frame snapshots.
const FIRST_FRAME_SEEDS: std::ops::RangeInclusive<u64> = 1..=10;
const FIRST_FRAME_DEPTHS: std::ops::RangeInclusive<u32> = 1..=6;

/// insta's `glob!` counts failures in one process-wide collector: while it
/// runs, a failing assertion on another test thread is counted there, and
/// printed instead of failing its own test. Every snapshot in this file is
/// taken under this lock, so nothing else asserts while the glob runs.
static SNAPSHOT_LOCK: Mutex<()> = Mutex::new(());

/// The lock, even after a failed assertion panicked while holding it.
fn snapshot_lock() -> MutexGuard<'static, ()> {
    SNAPSHOT_LOCK.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Stores `text` as `snapshots/<name>.snap`, with `description` in its header
/// saying how the frame was made (seed, starting depth, keys, size), so a
/// reviewer can make it again.
fn snapshot(name: &str, description: &str, text: &str) {
    let _lock = snapshot_lock();
    insta::with_settings!({
        snapshot_path => "../../snapshots",
        prepend_module_to_snapshot => false,
        description => description,
    }, {
        insta::assert_snapshot!(name, text);
    });
}

/// A fresh run of `seed` on floor `depth`, then `keys` (key notation) pressed
/// one by one through the runner, which fails the test on a panic, a broken
/// invariant or a stuck turn.
fn play(seed: u64, depth: u32, keys: &str) -> Game {
    let mut runner = Runner::new_at_depth(GameConfig::new(seed), depth)
        .unwrap_or_else(|e| panic!("seed {seed} depth {depth}: {e}"));
    if let Some(failure) = runner.failure() {
        panic!("seed {seed} depth {depth}: the starting state fails: {failure:?}");
    }
    for key in Key::parse_all(keys).unwrap_or_else(|e| panic!("keys {keys:?}: {e}")) {
        if let Err(failure) = runner.press(key) {
            panic!(
                "seed {seed} depth {depth} keys {keys:?}: step {} failed: {}",
                failure.step, failure.kind
            );
        }
    }
    runner.game().clone()
}

/// Snapshots a scene at 80x24, under a name and with a header that say
/// which seed, floor and keys make it.
fn snapshot_scene(name: &str, seed: u64, depth: u32, keys: &str, game: &Game) {
    let description =
        format!("{name}: seed {seed}, depth {depth}, keys {keys:?}, {WIDTH}x{HEIGHT}");
    snapshot(
        &format!("scene_{name}"),
        &description,
        &game.frame(WIDTH, HEIGHT).to_text(),
    );
}

fn top_screen(game: &Game) -> Option<&Screen> {
    game.state().screens.last()
}

/// The reticle on top of the screens, if any.
fn reticle(game: &Game) -> Option<Reticle> {
    match top_screen(game) {
        Some(Screen::Reticle(r)) => Some(*r),
        _ => None,
    }
}

/// The name of the item in pack slot `slot` (0 is a).
fn item_in_slot(game: &Game, slot: u8) -> Option<String> {
    let stack = game.state().player.pack.get(slot)?;
    Some(game.content().item(stack.item).name.clone())
}

/// The name of the monster at `pos`, if one stands there.
fn monster_at(game: &Game, pos: Pos) -> Option<String> {
    game.state()
        .monsters
        .iter()
        .find(|m| m.pos == pos)
        .map(|m| game.content().monster(m.kind).name.clone())
}

// 1. First frames: every floor of seeds 1 to 10 as the player first sees it.
//
// One snapshot per (seed, depth), e.g. `first_frame_seed03_depth5`, rather
// than one file per seed with six frames under headers: when generation or
// spawning changes for one depth, only that depth's files change, and the
// file name alone (in `cargo insta review`, `git diff --stat snapshots/`)
// says which floor it is. In a six-frame file a diff hunk would sit far
// from the header naming its depth.

#[test]
fn first_frames_of_seeds_1_to_10_at_every_depth() {
    for seed in FIRST_FRAME_SEEDS {
        for depth in FIRST_FRAME_DEPTHS {
            let game = Game::new_at_depth(GameConfig::new(seed), depth)
                .unwrap_or_else(|e| panic!("seed {seed} depth {depth}: {e}"));
            snapshot(
                &format!("first_frame_seed{seed:02}_depth{depth}"),
                &format!("seed {seed}, depth {depth}, no keys, {WIDTH}x{HEIGHT}"),
                &game.frame(WIDTH, HEIGHT).to_text(),
            );
        }
    }
}

// 2. Scenes reached by scripted keys. The seeds and keys of the later scenes
// were found by a throwaway search outside the repository (the explorer bot,
// and plain `o` presses, over thousands of seeds and every starting depth),
// keeping the shortest key sequence that showed the scene.

#[test]
fn inventory_open() {
    let (seed, depth, keys) = (1, 1, "i");
    let game = play(seed, depth, keys);
    assert_eq!(top_screen(&game), Some(&Screen::Pack(PackMode::Browse)));
    snapshot_scene("inventory", seed, depth, keys, &game);
}

#[test]
fn item_action_menu_for_the_darts() {
    // b is the darts in the starting kit: their menu offers throw too.
    let (seed, depth, keys) = (1, 1, "ib");
    let game = play(seed, depth, keys);
    assert_eq!(top_screen(&game), Some(&Screen::ItemMenu { slot: 1 }));
    assert_eq!(item_in_slot(&game, 1).as_deref(), Some("dart"));
    snapshot_scene("item_menu", seed, depth, keys, &game);
}

#[test]
fn a_dart_used_from_the_pack_or_its_menu_is_aimed_to_be_thrown() {
    // `a` then b (the darts), or i, b and the menu's use: the reticle's
    // hint names what Enter does, a throw, not the scrolls' read.
    for keys in ["oab", "oiba"] {
        let game = play(1, 1, keys);
        let reticle = reticle(&game).expect("the reticle is open");
        assert_eq!(reticle.purpose, Purpose::Use { slot: 1 }, "{keys}");
        let text = game.frame(80, 24).to_text();
        assert!(text.contains("Enter: throw"), "{keys}:\n{text}");
        assert!(!text.contains("Enter: read"), "{keys}:\n{text}");
    }
}

#[test]
fn throw_reticle_on_a_monster() {
    // `o` stops when a monster comes into view; t, b (the darts) opens the
    // reticle on it, with the flight path drawn as `*`.
    let (seed, depth, keys) = (1, 1, "otb");
    let game = play(seed, depth, keys);
    let reticle = reticle(&game).expect("the reticle is open");
    assert_eq!(reticle.purpose, Purpose::Throw { slot: 1 });
    assert_eq!(item_in_slot(&game, 1).as_deref(), Some("dart"));
    assert!(
        monster_at(&game, reticle.cursor).is_some(),
        "the reticle opens on the monster in view"
    );
    snapshot_scene("throw_reticle", seed, depth, keys, &game);
}

#[test]
fn look_mode_on_a_monster() {
    // `;` looks at the player's own tile; Tab moves to the monster in view.
    let (seed, depth, keys) = (1, 1, "o;<Tab>");
    let game = play(seed, depth, keys);
    let reticle = reticle(&game).expect("look mode is open");
    assert_eq!(reticle.purpose, Purpose::Look);
    assert!(
        monster_at(&game, reticle.cursor).is_some(),
        "Tab moves the look reticle to the monster in view"
    );
    snapshot_scene("look", seed, depth, keys, &game);
}

#[test]
fn help() {
    let (seed, depth, keys) = (1, 1, "?");
    let game = play(seed, depth, keys);
    assert_eq!(top_screen(&game), Some(&Screen::Help { top: 0 }));
    snapshot_scene("help", seed, depth, keys, &game);
}

#[test]
fn message_history() {
    // `o` explores until a kobold comes into view; the next three are
    // refused, one line with its count; `m` lists the log, newest first.
    let (seed, depth, keys) = (3, 1, "oooom");
    let game = play(seed, depth, keys);
    assert_eq!(top_screen(&game), Some(&Screen::History { top: 0 }));
    snapshot_scene("history", seed, depth, keys, &game);
}

#[test]
fn quit_prompt() {
    let (seed, depth, keys) = (1, 1, "Q");
    let game = play(seed, depth, keys);
    assert_eq!(top_screen(&game), Some(&Screen::QuitPrompt));
    snapshot_scene("quit_prompt", seed, depth, keys, &game);
}

#[test]
fn poisoned_and_confused_status_line() {
    // On depth 6 a dart is thrown (t, b, Enter) at a basilisk; the player
    // closes in and fights it (y, h), and as its venom burns a will-o'-wisp
    // comes alongside and its touch confuses them.
    let (seed, depth, keys) = (2476, 6, "otb<Enter>yhhhyh");
    let game = play(seed, depth, keys);
    let statuses = &game.state().player.statuses;
    assert!(
        statuses.is_poisoned() && statuses.is_confused(),
        "{statuses:?}"
    );
    assert!(!game.is_over());
    snapshot_scene("poisoned_and_confused", seed, depth, keys, &game);
}

#[test]
fn tombstone_names_the_cause() {
    // A fresh player on depth 6 meets a troll, drinks the potion of healing
    // (a, a) and dies fighting it.
    let (seed, depth, keys) = (32, 6, "oyyyyyaayyyy");
    let game = play(seed, depth, keys);
    assert_eq!(
        game.run_end(),
        Some(RunEnd::Died {
            cause: "killed by a troll".to_string()
        })
    );
    snapshot_scene("tombstone", seed, depth, keys, &game);
}

#[test]
fn victory_screen() {
    // Depth 6 has the way out: `o` explores until it stands on it, and `>`
    // takes it.
    let (seed, depth, keys) = (1944, 6, "o>");
    let game = play(seed, depth, keys);
    assert_eq!(game.run_end(), Some(RunEnd::Won));
    snapshot_scene("victory", seed, depth, keys, &game);
}

#[test]
fn farewell_after_quitting() {
    let (seed, depth, keys) = (1, 1, "Qy");
    let game = play(seed, depth, keys);
    assert_eq!(game.run_end(), Some(RunEnd::Quit));
    snapshot_scene("farewell", seed, depth, keys, &game);
}

// 3. One scene at three sizes, near the map's top-right corner so the
// camera's clamp shows: at 40x15 the view stops at the map's right and top
// edges instead of centring the player; at 80x24 the map is exactly as wide
// as the view; at 120x50 the whole 80x40 map fits, drawn from the top left.

#[test]
fn one_scene_at_three_sizes_shows_the_camera_clamp() {
    // Auto-explore twice on depth 2 ends at (76, 4), a monster in view.
    let (seed, depth, keys) = (142, 2, "oo");
    let game = play(seed, depth, keys);
    let map = &game.state().floor.map;
    let player = game.state().player.pos;
    assert!(
        player.x >= map.width() - 5 && player.y <= 4,
        "the player is near the top-right corner, at {player:?}"
    );
    for (width, height) in [(40u16, 15u16), (80, 24), (120, 50)] {
        let frame = game.frame(width, height);
        // Centred, the player would be drawn in the middle column; clamped
        // at the right edge, they are drawn right of it.
        let column = (0..frame.height())
            .find_map(|y| frame.row_text(y).chars().position(|c| c == '@'))
            .expect("the player is drawn");
        assert!(
            column > usize::from(width / 2),
            "{width}x{height}: the player is drawn at column {column}, not clamped right of the middle"
        );
        snapshot(
            &format!("camera_clamp_{width}x{height}"),
            &format!(
                "seed {seed}, depth {depth}, keys {keys:?}, {width}x{height}: the player at {},{} near the top-right corner",
                player.x, player.y
            ),
            &frame.to_text(),
        );
    }
}

// 4. The final frame of every recording in `recordings/`, one snapshot each
// (`final_frame@<file>.snap`), so a rule change shows as a reviewed diff
// next to `deja bless`.

#[test]
fn final_frame_of_every_recording() {
    let content = Arc::new(Content::embedded());
    let _lock = snapshot_lock();
    insta::with_settings!({
        snapshot_path => "../../snapshots",
        prepend_module_to_snapshot => false,
    }, {
        insta::glob!("../../recordings", "*.ron", |path| {
            let recording = recording::read(path).unwrap_or_else(|e| panic!("{e}"));
            let last_step = recording.keys.len() as u64;
            let game = replay::game_at(&recording, content.clone(), last_step)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            insta::assert_snapshot!("final_frame", game.frame(WIDTH, HEIGHT).to_text());
        });
    });
}
