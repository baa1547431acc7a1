//! The commands of the help screen, and which a key names on the map, read
//! as the help describes them, apart from the game's own dispatch.

use game_core::game::Game;
use game_core::geom::{Dir, Pos};
use game_core::keys::{Key, KeyCode, Mods};
use game_core::map::{BitGrid, Map, Tile};

use crate::oracle;

/// A command of the help screen (and the screens' own keys), as the help
/// names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Command {
    Move(Dir),
    Run(Dir),
    Wait,
    PickUp,
    Descend,
    Explore,
    Inventory,
    Use,
    Throw,
    Wear,
    Drop,
    Look,
    Help,
    /// `m`: the message history.
    History,
    Quit,
    /// Esc, on any screen.
    Close,
    /// A pack letter on a pack listing.
    PickItem,
    /// A pack letter on the `use` pack: what kind of item was used.
    UseKind(&'static str),
    /// A key on the item menu (`a` use, `d` drop, `t` throw, `w` wear).
    ItemMenu,
    /// Moving the reticle, Tab to the next target, Enter to do what it is
    /// aimed for.
    Aim(Aiming),
    /// Scrolling the help or the message history.
    Scroll,
    /// `y` or `n` at the quit prompt.
    Answer,
}

impl Command {
    /// The name the sweep's tally prints.
    pub fn name(self) -> String {
        match self {
            Command::Move(dir) => format!("move {}", dir.name()),
            Command::Run(dir) => format!("run {}", dir.name()),
            Command::Wait => "wait".into(),
            Command::PickUp => "pick up".into(),
            Command::Descend => "descend".into(),
            Command::Explore => "auto-explore".into(),
            Command::Inventory => "inventory".into(),
            Command::Use => "use".into(),
            Command::Throw => "throw".into(),
            Command::Wear => "wear or wield".into(),
            Command::Drop => "drop".into(),
            Command::Look => "look".into(),
            Command::Help => "help".into(),
            Command::History => "message history".into(),
            Command::Quit => "quit".into(),
            Command::Close => "close a screen (Esc)".into(),
            Command::PickItem => "pick from the pack".into(),
            Command::UseKind(kind) => format!("use: {kind}"),
            Command::ItemMenu => "item menu".into(),
            Command::Aim(aiming) => format!("aim: {}", aiming.verb()),
            Command::Scroll => "scroll a screen".into(),
            Command::Answer => "answer the quit prompt".into(),
        }
    }

    /// The help's commands on the map, for tallies that list each even when
    /// nobody pressed it.
    pub fn on_the_map() -> Vec<Command> {
        let mut all: Vec<Command> = Dir::ALL.iter().map(|&d| Command::Move(d)).collect();
        all.extend(Dir::ALL.iter().map(|&d| Command::Run(d)));
        all.extend([
            Command::Wait,
            Command::PickUp,
            Command::Descend,
            Command::Explore,
            Command::Inventory,
            Command::Use,
            Command::Throw,
            Command::Wear,
            Command::Drop,
            Command::Look,
            Command::Help,
            Command::History,
            Command::Quit,
        ]);
        all
    }
}

/// What the reticle is aimed for: what Enter on it will do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Aiming {
    Look,
    /// A missile, thrown or used from the pack.
    Throw,
    /// A scroll read at a target.
    Read,
}

impl Aiming {
    /// What Enter does, as the reticle's hint says it.
    pub fn verb(self) -> &'static str {
        match self {
            Aiming::Look => "look",
            Aiming::Throw => "throw",
            Aiming::Read => "read",
        }
    }
}

/// The move keys as the help lists them: vi keys, numpad digits, and the
/// arrows and numpad navigation keys.
pub(crate) const MOVES: [(Dir, char, char, KeyCode); 8] = [
    (Dir::N, 'k', '8', KeyCode::Up),
    (Dir::NE, 'u', '9', KeyCode::PageUp),
    (Dir::E, 'l', '6', KeyCode::Right),
    (Dir::SE, 'n', '3', KeyCode::PageDown),
    (Dir::S, 'j', '2', KeyCode::Down),
    (Dir::SW, 'b', '1', KeyCode::End),
    (Dir::W, 'h', '4', KeyCode::Left),
    (Dir::NW, 'y', '7', KeyCode::Home),
];

/// The command a key gives on the map, read as the help describes it.
pub fn map_command(key: Key) -> Option<Command> {
    let plain = key.mods == Mods::NONE;
    for (dir, vi, digit, nav) in MOVES {
        match key.code {
            KeyCode::Char(c) if plain && (c == vi || c == digit) => {
                return Some(Command::Move(dir));
            }
            KeyCode::Char(c) if plain && c == vi.to_ascii_uppercase() => {
                return Some(Command::Run(dir));
            }
            code if code == nav && plain => return Some(Command::Move(dir)),
            code if code == nav && key.mods == Mods::SHIFT => return Some(Command::Run(dir)),
            _ => {}
        }
    }
    if !plain {
        return None;
    }
    let KeyCode::Char(c) = key.code else {
        return None;
    };
    Some(match c {
        '.' | '5' => Command::Wait,
        'g' | ',' => Command::PickUp,
        '>' => Command::Descend,
        'o' => Command::Explore,
        'i' => Command::Inventory,
        'a' => Command::Use,
        't' => Command::Throw,
        'w' => Command::Wear,
        'd' => Command::Drop,
        ';' => Command::Look,
        '?' => Command::Help,
        'm' => Command::History,
        'Q' => Command::Quit,
        _ => return None,
    })
}

/// What auto-explore may head for, by the reference: a revealed tile other
/// than the player's, reached over revealed ground by legal steps, that
/// borders the unknown; or, with the floor explored, the way down when it is
/// known and a known route leads there.
pub(crate) fn explore_has_target(game: &Game) -> bool {
    let state = game.state();
    has_target(&state.floor.map, state.player.pos, state.floor.goal)
}

/// [`explore_has_target`] on `map`, from `from`, with the way down at `goal`.
fn has_target(map: &Map, from: Pos, goal: Pos) -> bool {
    let revealed = |p: Pos| map.in_bounds(p) && map.revealed.get(map.xy_idx(p));
    let mut visited = BitGrid::new(map.len());
    visited.insert(map.xy_idx(from));
    // A plain list read from a moving head rather than a ring buffer: the
    // flood is small and stops early, and is asked for before most
    // auto-explore keys.
    let mut queue = Vec::with_capacity(64);
    queue.push(from);
    let mut head = 0;
    while let Some(&here) = queue.get(head) {
        head += 1;
        for (dx, dy) in oracle::NEIGHBOURS {
            let next = Pos::new(here.x + dx, here.y + dy);
            if !map.in_bounds(next) {
                continue;
            }
            let index = map.xy_idx(next);
            if !map.revealed.get(index) {
                if here != from {
                    return true;
                }
                continue;
            }
            if !visited.get(index) && oracle::can_step(map, here, dx, dy) {
                visited.insert(index);
                queue.push(next);
            }
        }
    }
    if from == goal || !revealed(goal) {
        return false;
    }
    // A known route to the way down, over known ground only (what is not
    // revealed counts as rock), is a route of the flood just made, which
    // therefore need not be made again. Every cell it reached but the start
    // has all its neighbours revealed (or it would have stopped there), and
    // the two cells a diagonal step passes between neighbour both ends of
    // it, so they are revealed and open exactly when known and open: the
    // flood's steps are the known steps. Only the start may be unknown
    // ground, from which no known route leads.
    let known_start = revealed(from) && map.tile(from) != Tile::Wall;
    known_start && visited.get(map.xy_idx(goal))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`has_target`] the plain way: the flood, then, with nothing unknown
    /// in reach, a second search over known ground for the way down.
    fn has_target_by_two_floods(map: &Map, from: Pos, goal: Pos) -> bool {
        let revealed = |p: Pos| map.in_bounds(p) && map.revealed.get(map.xy_idx(p));
        let mut visited = BitGrid::new(map.len());
        visited.insert(map.xy_idx(from));
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(here) = queue.pop_front() {
            for (dx, dy) in oracle::NEIGHBOURS {
                let next = Pos::new(here.x + dx, here.y + dy);
                if !map.in_bounds(next) {
                    continue;
                }
                if !revealed(next) {
                    if here != from {
                        return true;
                    }
                    continue;
                }
                if !visited.get(map.xy_idx(next)) && oracle::can_step(map, here, dx, dy) {
                    visited.insert(map.xy_idx(next));
                    queue.push_back(next);
                }
            }
        }
        if from == goal || !revealed(goal) {
            return false;
        }
        let known = |x: i32, y: i32| {
            let p = Pos::new(x, y);
            revealed(p) && map.tile(p) != Tile::Wall
        };
        oracle::distances_over(map, from, known, Some(goal))[map.xy_idx(goal)]
            != game_core::paths::UNREACHABLE
    }

    /// Random maps, mostly revealed, with the start and the way down
    /// anywhere on them (on rock, on unknown ground, on the same cell).
    #[test]
    fn one_flood_finds_what_two_floods_find() {
        let (mut answers, mut explored) = ([0; 2], [0; 2]);
        for seed in 0..3000u64 {
            let mut rng = game_core::rng::RunSeed(seed).stream("explore-target-test", 0);
            let (w, h) = (1 + rng.below(10) as i32, 1 + rng.below(8) as i32);
            let mut map = Map::new(w, h);
            let hidden = rng.below(12);
            for p in map.bounds().cells() {
                if rng.below(3) > 0 {
                    map.set(p, Tile::Floor);
                }
                if rng.below(100) >= hidden {
                    let index = map.xy_idx(p);
                    map.revealed.insert(index);
                }
            }
            let mut somewhere = || Pos::new(rng.below(w as u32) as i32, rng.below(h as u32) as i32);
            let (from, goal) = (somewhere(), somewhere());
            let want = has_target_by_two_floods(&map, from, goal);
            assert_eq!(has_target(&map, from, goal), want, "seed {seed}");
            answers[usize::from(want)] += 1;
            // With nothing hidden the answer is the search for the way down.
            if hidden == 0 && from != goal {
                explored[usize::from(want)] += 1;
            }
        }
        assert!(answers.iter().all(|&n| n > 300), "{answers:?}");
        assert!(explored.iter().all(|&n| n > 30), "{explored:?}");
    }
}
