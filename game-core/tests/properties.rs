//! Properties of the core's building blocks over random inputs: sight is
//! symmetric, dice notation round-trips, the turn queue keeps its order, and
//! every floor of every seed keeps the floor invariants.

use checks::check_floor;
use game_core::dice::Dice;
use game_core::fov;
use game_core::game::state::MonsterRef;
use game_core::game::turn::{Actor, TurnQueue};
use game_core::geom::Pos;
use game_core::map::{BitGrid, DEFAULT_HEIGHT, DEFAULT_WIDTH, Map, Tile};
use game_core::mapgen::{LAST_DEPTH, generate_floor};
use game_core::paths::{UNREACHABLE, astar, bfs_distances};
use game_core::rng::RunSeed;
use proptest::prelude::*;

/// A random map: a border of rock and pillars scattered at `density` in 100.
fn random_map(width: i32, height: i32, density: u32, seed: u64) -> Map {
    let mut rng = RunSeed(seed).stream("test-map", 0);
    let mut map = Map::new(width, height);
    for y in 1..height - 1 {
        for x in 1..width - 1 {
            if !rng.percent(density) {
                map.set(Pos::new(x, y), Tile::Floor);
            }
        }
    }
    map
}

/// A random map, a walkable origin on it chosen by `seed`, and what that
/// origin sees; `None` when the map has no walkable tile.
fn view_on_random_map(
    width: i32,
    height: i32,
    density: u32,
    seed: u64,
    radius: i32,
) -> Option<(Map, Pos, BitGrid)> {
    let map = random_map(width, height, density, seed);
    let cells: Vec<Pos> = map.walkable_cells().collect();
    let origin = *cells.get((seed % cells.len().max(1) as u64) as usize)?;
    let mut visible = BitGrid::new(map.len());
    fov::compute(&map, origin, radius, &mut visible);
    Some((map, origin, visible))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn sight_is_symmetric_on_random_maps(
        width in 8i32..40,
        height in 8i32..30,
        density in 0u32..60,
        seed in any::<u64>(),
        radius in 2i32..25,
    ) {
        let view = view_on_random_map(width, height, density, seed, radius);
        prop_assume!(view.is_some(), "no walkable tile");
        let (map, origin, visible) = view.expect("assumed");
        for idx in visible.iter_ones() {
            let other = map.idx_pos(idx);
            if map.is_walkable(other) {
                prop_assert!(
                    fov::can_see(&map, other, origin, radius),
                    "{} sees {} but not back (radius {})", origin, other, radius
                );
            }
        }
        // Every neighbour of the origin is in view (a radius of 2 reaches the
        // diagonals: 1 + 1 <= 4).
        for dir in game_core::geom::Dir::ALL {
            let next = origin.step(dir);
            if map.in_bounds(next) {
                prop_assert!(visible.get(map.xy_idx(next)));
            }
        }
    }

    #[test]
    fn can_see_agrees_with_the_full_field_of_view(
        width in 8i32..30,
        height in 8i32..24,
        density in 0u32..60,
        seed in any::<u64>(),
        radius in 1i32..20,
    ) {
        let view = view_on_random_map(width, height, density, seed, radius);
        prop_assume!(view.is_some(), "no walkable tile");
        let (map, origin, visible) = view.expect("assumed");
        for p in map.bounds().cells() {
            prop_assert_eq!(
                fov::can_see(&map, origin, p, radius),
                visible.get(map.xy_idx(p)),
                "from {} to {} (radius {})", origin, p, radius
            );
        }
    }

    #[test]
    fn astar_routes_are_as_short_as_bfs_says(
        seed in any::<u64>(),
        density in 0u32..45,
    ) {
        let map = random_map(30, 20, density, seed);
        let cells: Vec<Pos> = map.walkable_cells().collect();
        prop_assume!(cells.len() >= 2);
        let from = cells[(seed % cells.len() as u64) as usize];
        let to = cells[((seed / 7) % cells.len() as u64) as usize];
        let dist = bfs_distances(&map, from)[map.xy_idx(to)];
        let route = astar(&map, from, to, map.len());
        if dist == UNREACHABLE {
            prop_assert_eq!(route, None);
        } else {
            let route = route.expect("reachable");
            prop_assert_eq!(route.len() as u32, dist);
        }
    }

    #[test]
    fn dice_notation_round_trips(count in 1u32..=100, sides in 1u32..=1000, bonus in -1000i32..=1000) {
        let dice = Dice::new(count, sides, bonus).expect("within limits");
        let text = dice.to_string();
        prop_assert_eq!(text.parse::<Dice>(), Ok(dice));
        prop_assert_eq!(dice.min(), count as i32 + bonus);
        prop_assert_eq!(dice.max(), (count * sides) as i32 + bonus);
    }

    #[test]
    fn dice_parsing_never_panics(text in "\\PC{0,24}") {
        let _ = text.parse::<Dice>();
    }

    #[test]
    fn the_turn_queue_pops_earliest_first_with_ties_in_insertion_order(
        times in prop::collection::vec(0u64..500, 1..40),
    ) {
        let mut queue = TurnQueue::new();
        for (i, &at) in times.iter().enumerate() {
            queue.schedule(Actor::Monster(MonsterRef(i as u32)), at);
        }
        let mut expected: Vec<(u64, u32)> = times.iter().enumerate().map(|(i, &at)| (at, i as u32)).collect();
        expected.sort();
        let mut last_now = 0;
        for (at, id) in expected {
            let entry = queue.pop().expect("as many entries as scheduled");
            prop_assert_eq!(entry.actor, Actor::Monster(MonsterRef(id)));
            prop_assert_eq!(entry.at, at);
            prop_assert!(queue.now() >= last_now);
            last_now = queue.now();
        }
        prop_assert!(queue.pop().is_none());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_floor_of_every_seed_keeps_the_floor_invariants(seed in any::<u64>()) {
        for depth in 1..=LAST_DEPTH {
            let floor = generate_floor(RunSeed(seed), depth, DEFAULT_WIDTH, DEFAULT_HEIGHT);
            let violations = check_floor(&floor, depth == LAST_DEPTH);
            prop_assert!(violations.is_empty(), "seed {} depth {}: {:?}", seed, depth, violations);
        }
    }
}

/// Any key the game's type can hold, in its normal form.
fn any_key() -> impl Strategy<Value = game_core::Key> {
    use game_core::keys::{Key, KeyCode, Mods};
    let code = prop_oneof![
        4 => any::<char>().prop_filter("printable", |c| !c.is_control()).prop_map(KeyCode::Char),
        1 => prop::sample::select(vec![
            KeyCode::Esc, KeyCode::Enter, KeyCode::Tab, KeyCode::Backspace, KeyCode::Up, KeyCode::Down,
            KeyCode::Left, KeyCode::Right, KeyCode::Home, KeyCode::End, KeyCode::PageUp, KeyCode::PageDown,
            KeyCode::Delete, KeyCode::Insert, KeyCode::Char('<'), KeyCode::Char(' '),
        ]),
        1 => (1u8..=12).prop_map(KeyCode::F),
    ];
    (code, 0u8..8).prop_map(|(code, bits)| Key::with_mods(code, Mods::from_bits(bits)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn key_notation_round_trips(keys in prop::collection::vec(any_key(), 0..40)) {
        let text = game_core::Key::format_all(&keys);
        prop_assert_eq!(game_core::Key::parse_all(&text), Ok(keys), "{}", text);
    }

    #[test]
    fn key_parsing_never_panics_and_errors_point_inside_the_text(text in "\\PC{0,40}") {
        if let Err(e) = game_core::Key::parse_all(&text) {
            prop_assert!(e.column >= 1 && e.column <= text.chars().count(), "{:?} in {:?}", e, text);
        }
    }
}
