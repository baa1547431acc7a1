//! Starting a run and arriving on a floor: generation, spawning, the queue.
//!
//! A floor depends only on the seed and its depth: the map comes from
//! ("mapgen", depth) and what lives on it from ("spawn", depth), so two runs
//! of one seed meet the same floor 4 however differently they played 1 to 3.

use crate::geom::Pos;
use crate::mapgen::{self, BuiltFloor, LAST_DEPTH};
use crate::rng::Stream;
use crate::rules;
use crate::spawn;

use super::state::{
    Floor, FloorItem, GameState, MessageLog, Monster, MonsterRef, Pack, Player, RunStatus, Statuses,
};
use super::turn::{Actor, TurnQueue};
use super::{Cache, ConfigError, Game, GameConfig};

/// Extra monsters per floor on top of one per depth (plus up to two more).
pub const BASE_MONSTERS: u32 = 3;
/// Items per floor: this many plus up to two more.
pub const BASE_ITEMS: u32 = 3;
/// Tries to find a free tile in a chosen region before giving that spawn up.
const PLACEMENT_TRIES: u32 = 10;
/// No monster spawns within this many steps of the start (region 0 alone
/// is not enough on caverns and the Big Room, whose regions are small chunks).
pub const START_CLEARANCE: i32 = 6;

impl Game {
    /// Starts a run: floor 1 generated from the seed, the player at its start
    /// with the starting kit.
    pub fn new(config: GameConfig) -> Result<Game, ConfigError> {
        Game::new_at_depth(config, 1)
    }

    /// A run that starts on floor `depth` (1 to [`LAST_DEPTH`]) with a fresh
    /// player: the floor, its monsters and its items exactly as a player
    /// descending to it would find them, since a floor depends only on the
    /// seed and its depth. For tools that inspect floors (`deja map`, sweeps).
    pub fn new_at_depth(config: GameConfig, depth: u32) -> Result<Game, ConfigError> {
        if !(1..=LAST_DEPTH).contains(&depth) {
            return Err(ConfigError::Depth { depth });
        }
        config.check()?;
        let built = crate::mapgen::generate_floor_planted(
            config.seed,
            depth,
            config.width,
            config.height,
            config.canaries,
        );
        Ok(start_run(config, depth, &built))
    }

    /// Like [`Game::new_at_depth`], on a floor already generated: for a sweep
    /// that has just generated and checked the floor and wants what spawns on
    /// it without generating it twice. `built` must be
    /// `mapgen::generate_floor_planted(config.seed, depth, config.width, config.height, config.canaries)`
    /// (debug builds check it); a floor of another size is refused.
    pub fn new_on_floor(
        config: GameConfig,
        depth: u32,
        built: &crate::mapgen::BuiltFloor,
    ) -> Result<Game, ConfigError> {
        if !(1..=LAST_DEPTH).contains(&depth) {
            return Err(ConfigError::Depth { depth });
        }
        config.check()?;
        if built.map.width() != config.width || built.map.height() != config.height {
            return Err(ConfigError::MapSize {
                width: built.map.width(),
                height: built.map.height(),
            });
        }
        debug_assert_eq!(
            built,
            &crate::mapgen::generate_floor_planted(
                config.seed,
                depth,
                config.width,
                config.height,
                config.canaries
            ),
            "new_on_floor was handed a floor the seed and depth do not make"
        );
        Ok(start_run(config, depth, built))
    }
}

/// A fresh player with the starting kit on floor `depth` (1 for a new run;
/// deeper for tools that look at a floor as the player arrives on it).
/// `built` is floor `depth` of the seed, as `mapgen::generate_floor` made it.
pub(super) fn start_run(config: GameConfig, depth: u32, built: &BuiltFloor) -> Game {
    let GameConfig {
        seed,
        content,
        canaries,
        ..
    } = config;
    let mut pack = Pack::default();
    for (item, count) in content.starting_kit() {
        let stackable = content.item(item).stackable;
        // The kit is a handful of items; a pack of 26 always has room.
        if let Some(slot) = pack.slot_for(item, count, stackable) {
            pack.add(slot, item, count);
        }
    }
    let player = Player {
        pos: built.start,
        hp: rules::PLAYER_MAX_HP,
        max_hp: rules::PLAYER_MAX_HP,
        statuses: Statuses::default(),
        pack,
        wielded: None,
        worn: None,
    };
    let state = GameState {
        seed,
        content_fingerprint: content.fingerprint(),
        canaries,
        depth,
        floor: floor_from(built),
        player,
        monsters: Vec::new(),
        items: Vec::new(),
        clock: TurnQueue::new(),
        rng: seed.stream("play", 0),
        screens: Vec::new(),
        log: MessageLog::default(),
        status: RunStatus::Playing,
        next_monster_id: 0,
        turns_taken: 0,
        kills: 0,
    };
    let mut game = Game {
        state,
        content,
        cache: Cache::default(),
        events: Vec::new(),
    };
    game.planted_shared_dice();
    game.populate(built);
    game.say(format!(
        "Welcome to the Undercroft. Find the way out on depth {LAST_DEPTH}. Press ? for help."
    ));
    game.refresh_view();
    game
}

fn floor_from(built: &BuiltFloor) -> Floor {
    Floor {
        map: built.map.clone().into(),
        generator: built.generator,
        start: built.start,
        goal: built.goal,
        rooms: built.rooms,
        vault: built.vault,
    }
}

impl Game {
    /// Takes the stairs: the next floor, with the player at its start.
    pub(super) fn descend(&mut self) {
        let depth = self.state.depth + 1;
        let map = &self.state.floor.map;
        let built = mapgen::generate_floor_planted(
            self.state.seed,
            depth,
            map.width(),
            map.height(),
            self.state.canaries,
        );
        self.state.depth = depth;
        self.state.floor = floor_from(&built);
        self.state.player.pos = built.start;
        self.state.monsters.clear();
        self.state.items.clear();
        self.state.clock.clear_monsters();
        self.cache = Cache::default();
        self.populate(&built);
        self.record(super::events::Event::Descended { depth });
        let arrival = if depth == LAST_DEPTH {
            format!("You descend to depth {depth}. The way out is somewhere on this floor.")
        } else {
            format!("You descend to depth {depth}.")
        };
        self.say(arrival);
        self.refresh_view();
    }

    /// Spawns the floor's monsters and items from ("spawn", depth). Nothing
    /// spawns in region 0, which holds the start.
    fn populate(&mut self, built: &BuiltFloor) {
        let depth = self.state.depth;
        let mut rng = self.state.seed.stream("spawn", u64::from(depth));
        let spawn_regions = &built.regions[built.regions.len().min(1)..];
        if spawn_regions.is_empty() {
            return;
        }
        let monsters = BASE_MONSTERS + depth + rng.below(3);
        for n in 0..monsters {
            let chosen = spawn::choose_monster(&self.content, depth, &mut rng);
            let Some(kind) = chosen.map(|kind| self.planted_spawn_kind(kind)) else {
                continue;
            };
            let Some(pos) = self.free_tile_in(spawn_regions, built, START_CLEARANCE, &mut rng)
            else {
                continue;
            };
            let pos = self.planted_spawn_pos(n, depth, built, pos);
            let def = self.content.monster(kind);
            let id = MonsterRef(self.state.next_monster_id);
            self.state.next_monster_id += 1;
            self.state.monsters.push(Monster {
                id,
                kind,
                pos,
                hp: def.max_hp,
                statuses: Statuses::default(),
                awake: false,
            });
            // A fresh floor gives the player one turn's grace: its monsters
            // first act a turn after the player arrives.
            let at = self.state.clock.now()
                + rules::BASE_ACTION_COST
                + rules::scaled_cost(rules::BASE_ACTION_COST, def.speed);
            self.state.clock.schedule(Actor::Monster(id), at);
        }
        let items = BASE_ITEMS + rng.below(3);
        for _ in 0..items {
            let Some(item) = spawn::choose_item(&self.content, depth, &mut rng) else {
                continue;
            };
            let Some(pos) = self.free_tile_in(spawn_regions, built, 0, &mut rng) else {
                continue;
            };
            self.state.items.push(FloorItem {
                item,
                count: 1,
                pos,
                seen: false,
            });
        }
    }

    /// A random tile of a random region that is not the start, the goal, or
    /// already taken by a monster or an item, and more than `clearance` steps
    /// (Chebyshev) from the start.
    fn free_tile_in(
        &self,
        regions: &[mapgen::Region],
        built: &BuiltFloor,
        clearance: i32,
        rng: &mut Stream,
    ) -> Option<Pos> {
        for _ in 0..PLACEMENT_TRIES {
            let region = rng.pick(regions)?;
            let Some(&pos) = rng.pick(&region.cells) else {
                continue;
            };
            let taken = pos.chebyshev(built.start) <= clearance
                || pos == built.start
                || pos == built.goal
                || self.state.monsters.iter().any(|m| m.pos == pos)
                || self.state.items.iter().any(|i| i.pos == pos);
            if !taken {
                return Some(pos);
            }
        }
        None
    }
}
