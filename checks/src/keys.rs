//! Every key does what the help promises: the key contracts.
//!
//! The help screen lists the commands and their keys (`render.rs`). This
//! module reads keys the way the help describes them, apart from the game's
//! own dispatch (`screens.rs`), and checks what a key did against what its
//! command promises when the conditions for it hold: a move key steps that
//! way (or attacks, or is refused for free against a wall), `o` takes a step
//! while there is somewhere left to explore, `i` opens the pack when there is
//! something in it, and so on. The same reading tells the harness which
//! command a key was and whether it worked, for the sweep's tally of
//! commands, so a command that never works shows.

use game_core::content::ItemEffect;
use game_core::game::events::{Event, Place, Who};
use game_core::game::screens::{PackMode, Purpose, Reticle, Screen};
use game_core::game::state::{MAX_STACK, PACK_SLOTS, RunStatus, letter_slot, slot_letter};
use game_core::game::{AUTO_EXPLORE_LIMIT, Game, RUN_LIMIT};
use game_core::geom::{Dir, Pos};
use game_core::keys::{Key, KeyCode, Mods};
use game_core::map::Tile;
use game_core::rules::{StepResult, THROW_RANGE};

use crate::catalogue::{Id, Violation, violation};
use crate::command::{Aiming, Command, MOVES, explore_has_target, map_command};
use crate::describe::{Words, describe_top, pack_verb};
use crate::oracle;
use crate::watch::TurnWatch;

/// What the key did, seen from the record and the state after it.
struct Seen<'a> {
    before: &'a TurnWatch,
    game: &'a Game,
    events: &'a [Event],
}

impl Seen<'_> {
    fn player_steps(&self) -> impl Iterator<Item = (Pos, Dir, StepResult)> + '_ {
        self.events.iter().filter_map(|e| match *e {
            Event::Step {
                who: Who::Player,
                from,
                dir,
                result,
                ..
            } => Some((from, dir, result)),
            _ => None,
        })
    }

    fn acted(&self) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, Event::PlayerActed { .. }))
            .count()
    }

    fn screens(&self) -> &[Screen] {
        &self.game.state().screens
    }

    fn any(&self, wanted: impl Fn(&Event) -> bool) -> bool {
        self.events.iter().any(wanted)
    }
}

/// Which command the key was and whether it worked (did what the command
/// does, rather than being refused); `None` for a key no command uses, or
/// pressed when the run was over.
pub fn key_effect(before: &TurnWatch, game: &Game, events: &[Event]) -> Option<(Command, bool)> {
    judge(before, game, events).map(|(command, worked, _)| (command, worked))
}

/// The key contracts, after a key.
pub(super) fn check_keys(
    before: &TurnWatch,
    game: &Game,
    events: &[Event],
    found: &mut Vec<Violation>,
) {
    if let Some(problem) = unbound_key(before, game, events) {
        found.push(violation(
            Id::KeyContract,
            format!("{} (no command's key): {problem}", before.key),
        ));
        return;
    }
    if let Some((command, _, Some(problem))) = judge(before, game, events) {
        found.push(violation(
            Id::KeyContract,
            format!("{} ({}): {problem}", before.key, command.name()),
        ));
    }
}

/// A key on the map that the help gives no command (another letter, Ctrl
/// or Alt with anything, a function key) must do nothing at all.
fn unbound_key(before: &TurnWatch, game: &Game, events: &[Event]) -> Option<String> {
    if !before.playing
        || before.queued_player
        || !before.screens.is_empty()
        || map_command(before.key).is_some()
    {
        return None;
    }
    let seen = Seen {
        before,
        game,
        events,
    };
    let acted = seen.acted();
    if acted > 0 || seen.player_steps().next().is_some() {
        Some(format!("it should do nothing, but it spent {acted} turns"))
    } else {
        seen.screens().last().map(|opened| {
            format!(
                "it should do nothing, but it opened {opened}",
                opened = opened.words()
            )
        })
    }
}

/// The command, whether it worked, and what broke its contract if anything.
fn judge(
    before: &TurnWatch,
    game: &Game,
    events: &[Event],
) -> Option<(Command, bool, Option<String>)> {
    if !before.playing || before.queued_player {
        return None;
    }
    let seen = Seen {
        before,
        game,
        events,
    };
    match before.screens.last() {
        None => {
            let command = map_command(before.key)?;
            let (worked, problem) = on_the_map(&seen, command);
            Some((command, worked, problem))
        }
        Some(screen) => {
            let (command, worked, problem) = on_a_screen(&seen, screen.clone())?;
            Some((command, worked, problem))
        }
    }
}

/// A key on the map: (worked, what broke the contract).
fn on_the_map(seen: &Seen, command: Command) -> (bool, Option<String>) {
    let before = seen.before;
    let key = MapKey {
        seen,
        steps: seen.player_steps().collect(),
        acted: seen.acted(),
        opened: seen.screens().last().cloned(),
        confused: before.player.confused > 0,
    };
    match command {
        Command::Move(dir) => key.moved(dir),
        Command::Run(dir) => key.ran(dir),
        Command::Wait => {
            let (acted, steps) = (key.acted, key.steps.len());
            let problem = (acted != 1 || steps != 0)
                .then(|| format!("waiting spent {acted} turns and took {steps} steps"));
            (acted == 1, problem)
        }
        Command::PickUp => key.picked_up(),
        Command::Descend => key.descended(),
        Command::Explore => key.explored(),
        Command::Inventory => key.pack_opens(PackMode::Browse, &|_| true),
        Command::Drop => key.pack_opens(PackMode::Drop, &|_| true),
        Command::Use => key.pack_opens(PackMode::Apply, &|_| true),
        Command::Throw => {
            key.pack_opens(PackMode::Throw, &|e| matches!(e, ItemEffect::Thrown { .. }))
        }
        Command::Wear => key.pack_opens(PackMode::Wear, &|e| {
            matches!(e, ItemEffect::Weapon { .. } | ItemEffect::Armour { .. })
        }),
        Command::Look => {
            let want = Screen::Reticle(Reticle {
                purpose: Purpose::Look,
                cursor: before.player.pos,
            });
            let problem = (key.opened.as_ref() != Some(&want)).then(|| {
                format!(
                    "the look reticle should open on the player, not {}",
                    describe_top(key.opened.as_ref())
                )
            });
            (key.opened.is_some(), key.free(problem))
        }
        Command::Help | Command::History | Command::Quit => {
            let want = match command {
                Command::Help => Screen::Help { top: 0 },
                Command::History => Screen::History { top: 0 },
                _ => Screen::QuitPrompt,
            };
            let problem = (key.opened.as_ref() != Some(&want)).then(|| {
                format!(
                    "the screen is {}, not {want}",
                    describe_top(key.opened.as_ref()),
                    want = want.words()
                )
            });
            (key.opened.is_some(), key.free(problem))
        }
        _ => (false, None),
    }
}

/// What a key on the map did, as its contract reads it: the player's steps,
/// the turns spent, the screen opened.
struct MapKey<'a, 'b> {
    seen: &'a Seen<'b>,
    steps: Vec<(Pos, Dir, StepResult)>,
    acted: usize,
    opened: Option<Screen>,
    confused: bool,
}

impl MapKey<'_, '_> {
    /// A key that only opens a screen or says no must spend nothing.
    fn free(&self, problem: Option<String>) -> Option<String> {
        let acted = self.acted;
        problem.or_else(|| {
            (acted > 0 || !self.steps.is_empty())
                .then(|| format!("it should open a screen or say no, but it spent {acted} turns"))
        })
    }

    /// A key that opens the pack to `mode`: it opens when the pack holds
    /// something `admits`, and says no otherwise.
    fn pack_opens(
        &self,
        mode: PackMode,
        admits: &dyn Fn(&ItemEffect) -> bool,
    ) -> (bool, Option<String>) {
        let before = self.seen.before;
        let opened = &self.opened;
        let any = before
            .pack
            .slots()
            .any(|(_, s)| admits(&self.seen.game.content().item(s.item).effect));
        let want = any.then_some(Screen::Pack(mode));
        let problem = (*opened != want).then(|| {
            format!(
                "the pack {} to {}, so the screen should be {}, not {}",
                if any {
                    "holds something"
                } else {
                    "holds nothing"
                },
                pack_verb(mode),
                describe_top(want.as_ref()),
                describe_top(opened.as_ref())
            )
        });
        (opened.is_some(), self.free(problem))
    }

    /// One step `dir` (any way when confused), a turn if it moved.
    fn moved(&self, dir: Dir) -> (bool, Option<String>) {
        let (before, steps, acted) = (self.seen.before, &self.steps, self.acted);
        let Some(&(from, stepped, result)) = steps.first() else {
            return (false, Some("the player did not step".into()));
        };
        let problem = if from != before.player.pos {
            Some(format!(
                "the step started at {from}, not at the player's {}",
                before.player.pos
            ))
        } else if !self.confused && stepped != dir {
            Some(format!("the player stepped {}", stepped.name()))
        } else if steps.len() != 1 {
            Some(format!("the player stepped {} times", steps.len()))
        } else if result == StepResult::Refused && acted > 0 {
            Some("a refused step spent a turn".into())
        } else if result != StepResult::Refused && acted != 1 {
            Some(format!("the step spent {acted} turns, not one"))
        } else {
            None
        };
        (result != StepResult::Refused, problem)
    }

    /// A run `dir`: refused with a monster in view or while confused, else
    /// moves that way a turn a step, and stops where the stop rule says.
    fn ran(&self, dir: Dir) -> (bool, Option<String>) {
        let (seen, steps, acted) = (self.seen, &self.steps, self.acted);
        let before = seen.before;
        let refused = before.monster_in_view || self.confused;
        let (dx, dy) = oracle::offset_of(dir);
        let first = Pos::new(before.player.pos.x + dx, before.player.pos.y + dy);
        let open = oracle::can_step(&seen.game.state().floor.map, before.player.pos, dx, dy)
            && !before.monsters.iter().any(|m| m.pos == first);
        let problem = if refused && !steps.is_empty() {
            Some("a run with a monster in view or while confused should not start".into())
        } else if steps
            .iter()
            .any(|&(_, d, r)| d != dir || r != StepResult::Move)
        {
            Some("a run took a step that was not a move in its direction".into())
        } else if !refused && open && before.depth == seen.game.state().depth && steps.is_empty() {
            Some(format!(
                "the way {} is open, but the player did not run",
                dir.name()
            ))
        } else if steps.len() != acted {
            Some(format!("{} steps spent {acted} turns", steps.len()))
        } else if let Some(problem) = walk_went_past_a_reason(seen, Some(dir)) {
            Some(problem)
        } else if !steps.is_empty() && steps.len() < RUN_LIMIT as usize {
            walk_stopped_without_reason(seen, Some(dir))
        } else {
            None
        };
        (
            !steps.is_empty(),
            problem.or_else(|| items_spotted_untold(seen)),
        )
    }

    /// Picking up: what lies underfoot, when the pack has room, for a turn;
    /// nothing and no turn otherwise.
    fn picked_up(&self) -> (bool, Option<String>) {
        let (seen, acted) = (self.seen, self.acted);
        let before = seen.before;
        let here = before.player.pos;
        let pile = before.items.iter().find(|&&(p, _, _)| p == here);
        let room = pile.is_some_and(|&(_, item, count)| {
            let stackable = seen.game.content().item(item).stackable;
            (0..PACK_SLOTS as u8).any(|s| match before.pack.get(s) {
                None => true,
                Some(st) => stackable && st.item == item && st.count + count <= MAX_STACK,
            })
        });
        let picked = seen.any(|e| {
            matches!(
                e,
                Event::Items {
                    from: Place::Floor(_),
                    to: Place::Pack(_),
                    ..
                }
            )
        });
        let problem = if room && (!picked || acted != 1) {
            Some(format!(
                "something lies at {here} and the pack has room, but nothing was picked up"
            ))
        } else if !room && (picked || acted > 0) {
            Some("there was nothing to pick up, or no room, yet it spent a turn".into())
        } else {
            None
        };
        (picked, problem)
    }

    /// Going down: from the stairs one floor down, from the way out a win,
    /// and nothing anywhere else.
    fn descended(&self) -> (bool, Option<String>) {
        let (seen, acted) = (self.seen, self.acted);
        let before = seen.before;
        let state = seen.game.state();
        let descended = seen.any(|e| matches!(e, Event::Descended { .. }));
        let won = matches!(state.status, RunStatus::Won { .. });
        let problem = match before.standing_on {
            Tile::StairsDown if !descended || state.depth != before.depth + 1 => {
                Some("the player stood on the stairs but did not go down".into())
            }
            Tile::Exit if !won => Some("the player stood on the way out but did not win".into()),
            Tile::StairsDown | Tile::Exit => None,
            _ if descended || won || acted > 0 || state.depth != before.depth => {
                Some("there are no stairs here, yet something happened".into())
            }
            _ => None,
        };
        (descended || won, problem)
    }

    /// Auto-explore: refused with a monster in view or while confused, else
    /// walks while there is somewhere to go, a turn a step, and stops where
    /// the stop rule says.
    fn explored(&self) -> (bool, Option<String>) {
        let (seen, steps, acted) = (self.seen, &self.steps, self.acted);
        let before = seen.before;
        let refused = before.monster_in_view || self.confused;
        let problem = if refused && (!steps.is_empty() || acted > 0) {
            Some("auto-explore should not start with a monster in view or while confused".into())
        } else if !refused && before.explore_target == Some(true) && steps.is_empty() {
            Some("there is somewhere left to explore, but the player did not move".into())
        } else if !refused && before.explore_target == Some(false) && !steps.is_empty() {
            Some("there is nowhere left to go, yet the player moved".into())
        } else if steps.is_empty() && said_nothing(seen) {
            // A walk that cannot start says why, as every refusal does.
            Some("auto-explore did not start, and said nothing of why".into())
        } else if steps.iter().filter(|s| s.2 != StepResult::Refused).count() != acted {
            Some(format!("{} steps spent {acted} turns", steps.len()))
        } else if let Some(problem) = walk_went_past_a_reason(seen, None) {
            Some(problem)
        } else if !steps.is_empty() && steps.len() < AUTO_EXPLORE_LIMIT as usize {
            walk_stopped_without_reason(seen, None)
        } else {
            None
        };
        (
            !steps.is_empty(),
            problem.or_else(|| items_spotted_untold(seen)),
        )
    }
}

/// Tab (or Shift-Tab, back) on the reticle: the cursor to the next target
/// nearest first, or stays with none; what broke that, if anything.
fn tabbed(seen: &Seen, reticle: Reticle, cursor_after: Option<Pos>) -> Option<String> {
    let key = seen.before.key;
    let targets = reticle_targets(seen.game, reticle.purpose);
    let back = key.mods == Mods::SHIFT;
    let want = match targets.iter().position(|&t| t == reticle.cursor) {
        _ if targets.is_empty() => reticle.cursor,
        Some(i) if back => targets[(i + targets.len() - 1) % targets.len()],
        Some(i) => targets[(i + 1) % targets.len()],
        None if back => targets[targets.len() - 1],
        None => targets[0],
    };
    (key.mods.without(Mods::SHIFT).is_empty() && cursor_after != Some(want)).then(|| {
        format!(
            "{} from {} should go to {want} ({} targets, nearest first), not {}",
            if back { "Shift-Tab" } else { "Tab" },
            reticle.cursor,
            targets.len(),
            cursor_text(cursor_after)
        )
    })
}

/// What Tab cycles through on the reticle, as the help promises it: the
/// monsters in view (in reach, unless only looking), and for looking the
/// items in view too, nearest first by straight-line distance, ties in
/// reading order.
fn reticle_targets(game: &Game, purpose: Purpose) -> Vec<Pos> {
    let state = game.state();
    let map = &state.floor.map;
    let me = state.player.pos;
    let looking = purpose == Purpose::Look;
    let mut targets: Vec<Pos> = state
        .monsters
        .iter()
        .map(|m| m.pos)
        .filter(|&p| map.is_visible(p) && (looking || me.chebyshev(p) <= THROW_RANGE))
        .collect();
    if looking {
        targets.extend(
            state
                .items
                .iter()
                .map(|i| i.pos)
                .filter(|&p| map.is_visible(p)),
        );
    }
    let distance = |p: Pos| (p.x - me.x) * (p.x - me.x) + (p.y - me.y) * (p.y - me.y);
    targets.sort_by_key(|&p| (distance(p), p.y, p.x));
    targets.dedup();
    targets
}

/// Why a walk that took steps, short of its limit, may stop: the rules'
/// reasons, read off the state it left. A run (`run` is its direction) goes
/// on until the way ahead is blocked or taken, the walls beside it change
/// (an opening, a junction), or something happens; auto-explore until
/// something happens or there is nowhere left to go. Something happening is
/// the run being over, hit points, confusion, poison or the floor changing,
/// an item coming into view, a monster in view, or an item or the way down
/// underfoot. `None` when one of them holds; else what is wrong.
fn walk_stopped_without_reason(seen: &Seen, run: Option<Dir>) -> Option<String> {
    let before = seen.before;
    let game = seen.game;
    let state = game.state();
    let map = &state.floor.map;
    let here = state.player.pos;
    let p = &state.player;
    let happened = game.is_over()
        || p.hp != before.player.hp
        || p.statuses.is_confused() != (before.player.confused > 0)
        || p.statuses.is_poisoned() != before.player.poison.is_some()
        || state.depth != before.depth
        || state.items.iter().filter(|i| i.seen).count() != before.items_seen
        || state.monsters.iter().any(|m| map.is_visible(m.pos))
        || state.items.iter().any(|i| i.pos == here)
        || matches!(map.tile(here), Tile::StairsDown | Tile::Exit);
    if happened {
        return None;
    }
    let reason = match run {
        Some(dir) => {
            let (dx, dy) = oracle::offset_of(dir);
            let ahead = Pos::new(here.x + dx, here.y + dy);
            let blocked = !oracle::can_step(map, here, dx, dy)
                || state.monsters.iter().any(|m| m.pos == ahead);
            // The walls beside the way: every neighbour but the one ahead.
            let beside = |at: Pos| -> Vec<bool> {
                oracle::NEIGHBOURS
                    .iter()
                    .filter(|&&d| d != (dx, dy))
                    .map(|&(nx, ny)| map.is_walkable(Pos::new(at.x + nx, at.y + ny)))
                    .collect()
            };
            blocked || beside(here) != beside(before.player.pos)
        }
        None => !explore_has_target(game),
    };
    (!reason).then(|| {
        format!(
            "the walk stopped at {here} though nothing happened and {}",
            if run.is_some() {
                "the way ahead is open between the same walls"
            } else {
                "there is somewhere left to explore"
            }
        )
    })
}

/// Whether the key added nothing to the message log.
fn said_nothing(seen: &Seen) -> bool {
    seen.game.state().log.total() == seen.before.log_total
}

/// A walk that stops for an item coming into view says which, as it says
/// "You see a rat." for a monster: each pile not seen before the key and
/// seen after it, on the same floor, is named by a line the key said ("You
/// see 3 darts."). Unless the key said more lines than the log keeps, when
/// the first of them are gone.
fn items_spotted_untold(seen: &Seen) -> Option<String> {
    let before = seen.before;
    let game = seen.game;
    let state = game.state();
    if state.depth != before.depth {
        return None;
    }
    let said = usize::try_from(state.log.total().saturating_sub(before.log_total)).ok()?;
    let log = state.log.messages();
    if said > log.len() {
        return None;
    }
    let lines: Vec<&str> = log
        .iter()
        .rev()
        .take(said)
        .map(|m| m.text.as_str())
        .collect();
    let unseen_before = |pile: &(Pos, game_core::content::ItemId, u32)| {
        before.unseen_items.contains(&pile.0) && before.items.contains(pile)
    };
    state
        .items
        .iter()
        .filter(|i| i.seen && unseen_before(&(i.pos, i.item, i.count)))
        .map(|i| game.content().item(i.item).describe(i.count))
        .find(|name| !lines.contains(&format!("You see {name}.").as_str()))
        .map(|name| {
            format!(
                "{name} came into view and stopped the walk, but no \"You see {name}.\" was said"
            )
        })
}

/// The other half of a walk's contract: it stops at the first place a
/// reason to stop holds. After every step but the last, read from the
/// record and the map: the player was hurt or healed, a status changed, an
/// item or the way down lay underfoot, a monster stood in view or an item
/// not seen before came into view (by the reference field of view from
/// where the player stood, with the monsters where the record had moved
/// them when the player's next turn came), or (for a run) the walls beside
/// the way changed.
fn walk_went_past_a_reason(seen: &Seen, run: Option<Dir>) -> Option<String> {
    let before = seen.before;
    let state = seen.game.state();
    let map = &state.floor.map;
    if state.depth != before.depth {
        return None; // the steps were on a floor left behind
    }
    let start_shape = run.map(|dir| walls_beside(map, before.player.pos, dir));
    let moves = player_moves(seen.events);
    // What the walk watches, as at its start: hit points, and whether the
    // player is poisoned or confused.
    let start = (
        before.player.hp,
        before.player.poison.is_some(),
        before.player.confused > 0,
    );
    let mut watch = start;
    let mut at = before.player.pos;
    // The monsters as the record moves them: (who, where, alive).
    let mut monsters: Vec<(Who, Pos, bool)> = before
        .monsters
        .iter()
        .map(|m| (m.who, m.pos, m.alive))
        .collect();
    for (n, &i) in moves.iter().enumerate() {
        let Event::Step { dir, .. } = seen.events[i] else {
            continue;
        };
        let (dx, dy) = oracle::offset_of(dir);
        at = Pos::new(at.x + dx, at.y + dy);
        let Some(&next) = moves.get(n + 1) else {
            break; // the last step: walk_stopped_without_reason's part
        };
        follow(&seen.events[i..next], &mut watch, &mut monsters);
        let happened = (watch != start).then_some("the player's hit points or statuses changed");
        let underfoot = (before.items.iter().any(|&(p, _, _)| p == at)
            || state.items.iter().any(|i| i.pos == at))
        .then_some("an item lay underfoot");
        let stairs = matches!(map.tile(at), Tile::StairsDown | Tile::Exit)
            .then_some("the way down lay underfoot");
        let opening = match (run, &start_shape) {
            (Some(dir), Some(shape)) => {
                (walls_beside(map, at, dir) != *shape).then_some("the walls beside the way changed")
            }
            _ => None,
        };
        let in_view = in_view_from(
            map,
            at,
            monsters.iter().filter(|m| m.2).map(|m| m.1),
            before.unseen_items.iter().copied(),
        );
        if let Some(reason) = happened.or(underfoot).or(stairs).or(in_view).or(opening) {
            return Some(format!(
                "the walk went on from {at} after step {} though {reason} there",
                n + 1
            ));
        }
    }
    None
}

/// Whether each neighbour of `at` but the one ahead going `dir` is
/// walkable: the shape of the walls beside a run, which it stops at when
/// that changes.
fn walls_beside(map: &game_core::map::Map, at: Pos, dir: Dir) -> Vec<bool> {
    let ahead = oracle::offset_of(dir);
    oracle::NEIGHBOURS
        .iter()
        .filter(|&&d| d != ahead)
        .map(|&(nx, ny)| map.is_walkable(Pos::new(at.x + nx, at.y + ny)))
        .collect()
}

/// The indices in `events` of the player's steps that moved.
fn player_moves(events: &[Event]) -> Vec<usize> {
    events
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            matches!(
                e,
                Event::Step {
                    who: Who::Player,
                    result: StepResult::Move,
                    ..
                }
            )
        })
        .map(|(i, _)| i)
        .collect()
}

/// What a walk watches, followed through the events between two of its
/// steps: the player's hit points and whether poisoned or confused
/// (`watch`), and the monsters as the record moves them (who, where, alive).
fn follow(events: &[Event], watch: &mut (i32, bool, bool), monsters: &mut [(Who, Pos, bool)]) {
    for event in events {
        use game_core::game::events::StatusChange;
        match *event {
            Event::HitPoints {
                who: Who::Player,
                after,
                ..
            } => watch.0 = after,
            Event::Status {
                who: Who::Player,
                change,
            } => match change {
                StatusChange::Poisoned { .. } => watch.1 = true,
                StatusChange::Cured => watch.1 = false,
                StatusChange::Confused { .. } => watch.2 = true,
            },
            Event::Step {
                who: who @ Who::Monster(_),
                dir,
                result: StepResult::Move,
                ..
            } => {
                if let Some(m) = monsters.iter_mut().find(|m| m.0 == who) {
                    let (dx, dy) = oracle::offset_of(dir);
                    m.1 = Pos::new(m.1.x + dx, m.1.y + dy);
                }
            }
            Event::Died { who } => {
                if let Some(m) = monsters.iter_mut().find(|m| m.0 == who) {
                    m.2 = false;
                }
            }
            _ => {}
        }
    }
}

/// Why a walk at `at` must stop for what it sees, by the reference field of
/// view: a monster in view, or an item the player had not seen. Only
/// computed when one stands within sight's reach.
fn in_view_from(
    map: &game_core::map::Map,
    at: Pos,
    monsters: impl Iterator<Item = Pos>,
    unseen_items: impl Iterator<Item = Pos>,
) -> Option<&'static str> {
    let near = |p: &Pos| map.in_bounds(*p) && oracle::within_sight(at, *p);
    let monsters: Vec<Pos> = monsters.filter(near).collect();
    let items: Vec<Pos> = unseen_items.filter(near).collect();
    if monsters.is_empty() && items.is_empty() {
        return None;
    }
    // Only as deep as the farthest of them: the scan costs the square of
    // its depth.
    let rows = monsters
        .iter()
        .chain(&items)
        .map(|p| p.chebyshev(at))
        .max()
        .unwrap_or(0);
    let view = oracle::field_of_view_within(map, at, game_core::fov::SIGHT_RADIUS, rows);
    let seen = |p: &Pos| view.get(map.xy_idx(*p));
    if monsters.iter().any(seen) {
        Some("a monster stood in view")
    } else if items.iter().any(seen) {
        Some("an item came into view")
    } else {
        None
    }
}

/// A key on a screen: (command, worked, what broke the contract), or `None`
/// for a key the screen ignores.
fn on_a_screen(seen: &Seen, screen: Screen) -> Option<(Command, bool, Option<String>)> {
    let before = seen.before;
    let key = before.key;
    let after = seen.screens();
    let depth = before.screens.len();
    if key == Key::ESC {
        // screen.escapable holds Esc to its promise; here it is only tallied.
        return Some((Command::Close, after.len() + 1 == depth, None));
    }
    let plain = key.mods == Mods::NONE;
    let acted = seen.acted();
    let unchanged = after == before.screens.as_slice() && acted == 0;
    match screen {
        Screen::Help { top } | Screen::History { top } => {
            on_a_scrolling_screen(seen, screen, top, plain)
        }
        Screen::QuitPrompt => answer(seen, acted),
        Screen::Pack(mode) => {
            let KeyCode::Char(c) = key.code else {
                return None;
            };
            let slot = letter_slot(c).filter(|_| plain)?;
            Some(pick(seen, mode, slot, c))
        }
        Screen::ItemMenu { slot } => on_the_item_menu(seen, slot, plain, unchanged),
        Screen::Reticle(reticle) => aim(seen, reticle),
    }
}

/// A key on the help or the history, `top` its first row shown: its own
/// key, Space or Enter closes it; others scroll it.
fn on_a_scrolling_screen(
    seen: &Seen,
    screen: Screen,
    top: u16,
    plain: bool,
) -> Option<(Command, bool, Option<String>)> {
    let key = seen.before.key;
    let after = seen.screens();
    let depth = seen.before.screens.len();
    let (own, rows) = match screen {
        Screen::Help { .. } => ('?', game_core::game::HELP.len()),
        _ => ('m', seen.game.state().log.messages().len()),
    };
    let closes = plain
        && (matches!(key.code, KeyCode::Char(' ') | KeyCode::Enter)
            || key.code == KeyCode::Char(own));
    if closes {
        let worked = after.len() + 1 == depth;
        return Some((
            Command::Close,
            worked,
            (!worked).then(|| format!("{key} should close {screen}", screen = screen.words())),
        ));
    }
    scroll(seen, &screen, top, rows)
}

/// A key on the quit prompt: `y` quits, `n` closes the prompt, others are
/// ignored.
fn answer(seen: &Seen, acted: usize) -> Option<(Command, bool, Option<String>)> {
    let key = seen.before.key;
    let after = seen.screens();
    let depth = seen.before.screens.len();
    let KeyCode::Char(c) = key.code else {
        return None;
    };
    let (worked, problem) = match c {
        'y' | 'Y' => {
            let quit = matches!(seen.game.state().status, RunStatus::Quit { .. });
            (quit, (!quit).then(|| "answering y should quit".to_string()))
        }
        'n' | 'N' => {
            let closed = after.len() + 1 == depth && acted == 0;
            (
                closed,
                (!closed).then(|| "answering n should close the prompt".to_string()),
            )
        }
        _ => return None,
    };
    Some((Command::Answer, worked, problem))
}

/// A key on the item menu of `slot`. Each of the menu's keys does what the
/// pack picked to that end does with the item: the same promise, from
/// another door.
fn on_the_item_menu(
    seen: &Seen,
    slot: u8,
    plain: bool,
    unchanged: bool,
) -> Option<(Command, bool, Option<String>)> {
    let key = seen.before.key;
    let mode = match key.code {
        KeyCode::Char('a' | 'u') => PackMode::Apply,
        KeyCode::Char('d') => PackMode::Drop,
        KeyCode::Char('t') => PackMode::Throw,
        KeyCode::Char('w') => PackMode::Wear,
        _ => return None,
    };
    if !plain {
        // The menu reads its letters plain: with Ctrl or Alt held,
        // a letter is no command there, and does nothing.
        return (!unchanged).then(|| {
            let problem = format!(
                "{key} on the item menu of slot {} should do nothing: the menu's keys are plain letters",
                slot_letter(slot)
            );
            (Command::ItemMenu, false, Some(problem))
        });
    }
    let (_, _, problem) = pick(seen, mode, slot, slot_letter(slot));
    let problem = problem.map(|p| format!("on the item menu of slot {}: {p}", slot_letter(slot)));
    Some((Command::ItemMenu, !unchanged, problem))
}

/// Picking slot `slot` (letter `c`) on the pack opened to `mode`, or the
/// item menu's key for that end: (command, worked, what broke the
/// contract). An item the mode does not admit is refused and nothing
/// changes; else drop drops it, wear puts it on, throw aims it, use uses it
/// or aims it, browse opens its menu.
fn pick(seen: &Seen, mode: PackMode, slot: u8, c: char) -> (Command, bool, Option<String>) {
    let before = seen.before;
    let after = seen.screens();
    let acted = seen.acted();
    let unchanged = after == before.screens.as_slice() && acted == 0;
    let stack = before.pack.get(slot);
    let effect = stack.map(|s| seen.game.content().item(s.item).effect.clone());
    if !admits(effect.as_ref(), mode) {
        let problem = (!unchanged).then(|| {
            format!(
                "slot {c} cannot be picked to {}, yet something happened",
                pack_verb(mode)
            )
        });
        return (Command::PickItem, false, problem);
    }
    let effect = effect.expect("admitted means the slot holds something");
    let problem = match mode {
        PackMode::Browse => (after.last() != Some(&Screen::ItemMenu { slot })).then(|| {
            format!(
                "picking {c} should open its menu, not {}",
                describe_top(after.last())
            )
        }),
        PackMode::Drop => {
            let dropped = seen.any(|e| {
                matches!(e, Event::Items { from: Place::Pack(s), to: Place::Floor(_), .. } if *s == slot)
            });
            (!dropped || !after.is_empty() || acted != 1)
                .then(|| format!("picking {c} to drop it should drop it and close the pack"))
        }
        PackMode::Wear => {
            let equipped = seen.any(|e| matches!(e, Event::Equipped { slot: s, .. } if *s == slot));
            let already = before.wielded == Some(slot) || before.worn == Some(slot);
            (equipped == already || !after.is_empty())
                .then(|| format!("picking {c} to wear it should put it on (unless it is on already) and close the pack"))
        }
        PackMode::Throw => {
            let aiming = matches!(after.last(), Some(Screen::Reticle(r)) if r.purpose == Purpose::Throw { slot });
            (!aiming).then(|| {
                format!(
                    "picking {c} to throw should open the reticle, not {}",
                    describe_top(after.last())
                )
            })
        }
        PackMode::Apply => used_wrongly(seen, slot, c, &effect, acted),
    };
    let command = match mode {
        PackMode::Apply => Command::UseKind(kind_of(&effect)),
        _ => Command::PickItem,
    };
    (command, problem.is_none(), problem)
}

/// Whether the pack opened to `mode` admits the item of `effect`: any item
/// to browse, drop or use, a missile to throw, equipment to wear; nothing
/// in an empty slot.
fn admits(effect: Option<&ItemEffect>, mode: PackMode) -> bool {
    match (effect, mode) {
        (None, _) => false,
        (Some(_), PackMode::Browse | PackMode::Drop | PackMode::Apply) => true,
        (Some(e), PackMode::Throw) => matches!(e, ItemEffect::Thrown { .. }),
        (Some(e), PackMode::Wear) => {
            matches!(e, ItemEffect::Weapon { .. } | ItemEffect::Armour { .. })
        }
    }
}

/// What broke the contract of using slot `slot` (letter `c`), which holds
/// an item of `effect`, after `acted` turns: an item used at something
/// opens the reticle; another is used and the pack closes.
fn used_wrongly(
    seen: &Seen,
    slot: u8,
    c: char,
    effect: &ItemEffect,
    acted: usize,
) -> Option<String> {
    let before = seen.before;
    let after = seen.screens();
    let aimed = effect.needs_target();
    let aiming =
        matches!(after.last(), Some(Screen::Reticle(r)) if r.purpose == Purpose::Use { slot });
    // Using what is already on puts it on again: refused, free.
    let on_already = before.wielded == Some(slot) || before.worn == Some(slot);
    let used = acted == usize::from(!on_already) && after.is_empty();
    if aimed {
        (!aiming).then(|| {
            format!(
                "using {c} should open the reticle, not {}",
                describe_top(after.last())
            )
        })
    } else {
        (!used).then(|| format!("using {c} should use it and close the pack"))
    }
}

/// A key on a screen that scrolls (the help, the history), which has
/// `rows` rows, the first shown `top`: as the footer promises, `j` or Down
/// shows one row further, `k` or Up one back, PgDn and PgUp five, Home the
/// first row and End the last, never past either end; nothing else moves.
fn scroll(
    seen: &Seen,
    screen: &Screen,
    top: u16,
    rows: usize,
) -> Option<(Command, bool, Option<String>)> {
    let key = seen.before.key;
    if key.mods != Mods::NONE {
        return None;
    }
    let last = rows.saturating_sub(1) as i64;
    let from = i64::from(top).min(last);
    let want = match key.code {
        KeyCode::Char('j') | KeyCode::Down => from + 1,
        KeyCode::Char('k') | KeyCode::Up => from - 1,
        KeyCode::PageDown => from + 5,
        KeyCode::PageUp => from - 5,
        KeyCode::Home => 0,
        KeyCode::End => last,
        _ => return None,
    }
    .clamp(0, last.max(0));
    let after = seen.screens();
    let moved_to = match after.last() {
        Some(Screen::Help { top } | Screen::History { top })
            if after.len() == seen.before.screens.len() =>
        {
            Some(i64::from(*top))
        }
        _ => None,
    };
    let problem = (moved_to != Some(want) || seen.acted() > 0).then(|| {
        format!(
            "{key} on {screen} at row {from} of {rows} should show row {want} first, but {}",
            match moved_to {
                Some(row) => format!("it shows row {row} first"),
                None => format!("the top screen is {}", describe_top(after.last())),
            },
            screen = screen.words()
        )
    });
    Some((Command::Scroll, moved_to != Some(i64::from(top)), problem))
}

/// What kind of item an effect makes, for the tally of uses.
fn kind_of(effect: &ItemEffect) -> &'static str {
    match effect {
        ItemEffect::Heal { .. } => "healing",
        ItemEffect::CurePoison => "antidote",
        ItemEffect::Confuse { .. } => "confusion",
        ItemEffect::MagicMapping => "magic mapping",
        ItemEffect::Teleport => "teleportation",
        ItemEffect::Thrown { .. } => "a missile",
        ItemEffect::Weapon { .. } | ItemEffect::Armour { .. } => "equipment",
    }
}

/// Where the reticle ended up: its tile, or that it closed.
fn cursor_text(cursor: Option<Pos>) -> String {
    cursor.map_or_else(|| "a closed reticle".into(), |at| at.to_string())
}

/// A key on the targeting reticle.
fn aim(seen: &Seen, reticle: Reticle) -> Option<(Command, bool, Option<String>)> {
    let before = seen.before;
    let key = before.key;
    let plain = key.mods == Mods::NONE;
    let after = seen.screens();
    let map = &seen.game.state().floor.map;
    let cursor_after = match after.last() {
        Some(Screen::Reticle(r)) => Some(r.cursor),
        _ => None,
    };
    let aiming = Command::Aim(aiming(seen, reticle));
    let step = MOVES
        .iter()
        .find_map(|&(dir, vi, digit, nav)| match key.code {
            KeyCode::Char(c) if plain && (c == vi || c == digit) => Some(dir),
            code if plain && code == nav => Some(dir),
            _ => None,
        });
    if let Some(dir) = step {
        let (dx, dy) = oracle::offset_of(dir);
        let next = Pos::new(reticle.cursor.x + dx, reticle.cursor.y + dy);
        let want = if map.in_bounds(next) {
            next
        } else {
            reticle.cursor
        };
        let problem = (cursor_after != Some(want)).then(|| {
            format!(
                "moving the reticle {} from {} should put it on {want}, not {}",
                dir.name(),
                reticle.cursor,
                cursor_text(cursor_after)
            )
        });
        return Some((aiming, cursor_after != Some(reticle.cursor), problem));
    }
    if key.code == KeyCode::Tab {
        return Some((
            aiming,
            cursor_after != Some(reticle.cursor),
            tabbed(seen, reticle, cursor_after),
        ));
    }
    if key != Key::ENTER {
        return None;
    }
    let slot = match reticle.purpose {
        Purpose::Look => {
            let closed = after.len() + 1 == before.screens.len();
            return Some((
                aiming,
                closed,
                (!closed).then(|| "Enter should close the look reticle".into()),
            ));
        }
        Purpose::Throw { slot } | Purpose::Use { slot } => slot,
    };
    let (fired, problem) = fire(seen, reticle, slot);
    Some((aiming, fired, problem))
}

/// What Enter will do on `reticle`, as its hint names it: a missile flies
/// however it was chosen, another aimed item is read.
fn aiming(seen: &Seen, reticle: Reticle) -> Aiming {
    let missile = |slot: u8| {
        seen.before.pack.get(slot).is_some_and(|s| {
            matches!(
                seen.game.content().item(s.item).effect,
                ItemEffect::Thrown { .. }
            )
        })
    };
    match reticle.purpose {
        Purpose::Look => Aiming::Look,
        Purpose::Throw { .. } => Aiming::Throw,
        Purpose::Use { slot } if missile(slot) => Aiming::Throw,
        Purpose::Use { .. } => Aiming::Read,
    }
}

/// Enter on `reticle` aiming the item in `slot`: (whether it fired, what
/// broke the contract). At a tile that can be aimed at (not the player's,
/// in view, in reach) it fires, and a throw throws; at another it does
/// nothing.
fn fire(seen: &Seen, reticle: Reticle, slot: u8) -> (bool, Option<String>) {
    let before = seen.before;
    let after = seen.screens();
    let player = before.player.pos;
    let target = reticle.cursor;
    let can = target != player && before.cursor_visible && player.chebyshev(target) <= THROW_RANGE;
    let fired = seen.acted() > 0 || !after.iter().any(|s| matches!(s, Screen::Reticle(_)));
    let problem = if !can && fired {
        Some(format!(
            "aiming at {target}, which cannot be aimed at from {player}, still did something"
        ))
    } else if can
        && matches!(reticle.purpose, Purpose::Throw { .. })
        && !seen.any(|e| matches!(e, Event::Thrown { slot: s, .. } if *s == slot))
    {
        Some(format!(
            "throwing at {target} in view and in reach threw nothing"
        ))
    } else {
        None
    };
    (fired, problem)
}
