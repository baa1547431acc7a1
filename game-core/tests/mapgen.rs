//! Floor generation, checked by property rather than by shape: every
//! generator, many seeds, every size it claims to fit.

use checks::{Id, check_floor, vault_crossings, vault_wall_openings};
use game_core::map::{
    DEFAULT_HEIGHT, DEFAULT_WIDTH, MAX_HEIGHT, MAX_WIDTH, MIN_HEIGHT, MIN_WIDTH, Tile,
};
use game_core::mapgen::stats::FloorStats;
use game_core::mapgen::{
    BuiltFloor, GeneratorKind, LAST_DEPTH, build_with, generate_floor, generator,
};
use game_core::rng::RunSeed;
use proptest::prelude::*;

/// Builds a floor with `kind` from the seed's depth-2 mapgen stream.
fn build(kind: GeneratorKind, seed: u64, width: i32, height: i32) -> BuiltFloor {
    let mut rng = RunSeed(seed).stream("mapgen", 2);
    build_with(kind, width, height, &mut rng)
        .unwrap_or_else(|| panic!("{} should fit {width}x{height}", kind.name()))
}

/// Everything wrong with a floor: the invariant catalogue's floor checks, and
/// the generator's own contract that only the temple has a vault.
fn problems(floor: &BuiltFloor, last_floor: bool) -> Vec<String> {
    let mut found: Vec<String> = check_floor(floor, last_floor)
        .iter()
        .map(ToString::to_string)
        .collect();
    let expects_vault = floor.generator == GeneratorKind::Temple;
    if floor.vault.is_some() != expects_vault {
        found.push(format!(
            "vault {:?} on a {} floor",
            floor.vault,
            floor.generator.name()
        ));
    }
    found
}

/// Asserts a floor built with `build` (stairs, not the exit) is sound.
fn assert_sound(floor: &BuiltFloor, context: &str) {
    assert_sound_at(floor, false, context);
}

fn assert_sound_at(floor: &BuiltFloor, last_floor: bool, context: &str) {
    let found = problems(floor, last_floor);
    assert!(
        found.is_empty(),
        "{context} ({}): {}",
        FloorStats::of(floor),
        found.join("; ")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_generator_builds_sound_floors_at_the_default_size(seed in any::<u64>()) {
        for kind in GeneratorKind::ALL {
            let floor = build(kind, seed, DEFAULT_WIDTH, DEFAULT_HEIGHT);
            prop_assert_eq!(floor.generator, kind);
            let found = problems(&floor, false);
            prop_assert!(found.is_empty(), "{} seed {}: {}", kind.name(), seed, found.join("; "));
        }
    }

    #[test]
    fn every_generator_builds_sound_floors_at_any_size_it_fits(
        seed in any::<u64>(),
        width in MIN_WIDTH..=MAX_WIDTH,
        height in MIN_HEIGHT..=MAX_HEIGHT,
    ) {
        for kind in GeneratorKind::ALL {
            let mut rng = RunSeed(seed).stream("mapgen", 2);
            if let Some(floor) = build_with(kind, width, height, &mut rng) {
                let found = problems(&floor, false);
                prop_assert!(
                    found.is_empty(),
                    "{} {}x{} seed {}: {}", kind.name(), width, height, seed, found.join("; ")
                );
            }
        }
    }
}

#[test]
fn landmark_depths_use_their_generators_and_only_the_last_floor_has_the_exit() {
    for seed in 0..40 {
        for depth in 1..=LAST_DEPTH {
            let floor = generate_floor(RunSeed(seed), depth, DEFAULT_WIDTH, DEFAULT_HEIGHT);
            assert_sound_at(
                &floor,
                depth == LAST_DEPTH,
                &format!("seed {seed} depth {depth}"),
            );
            let expected = match depth {
                1 => Some(GeneratorKind::Rooms),
                3 => Some(GeneratorKind::Temple),
                5 => Some(GeneratorKind::BigRoom),
                _ => None,
            };
            match expected {
                Some(kind) => assert_eq!(floor.generator, kind, "seed {seed} depth {depth}"),
                None => assert!(
                    matches!(
                        floor.generator,
                        GeneratorKind::Rooms | GeneratorKind::Caverns | GeneratorKind::Bsp
                    ),
                    "seed {seed} depth {depth}: {:?}",
                    floor.generator
                ),
            }
            let goal_tile = if depth == LAST_DEPTH {
                Tile::Exit
            } else {
                Tile::StairsDown
            };
            assert_eq!(
                floor.map.tile(floor.goal),
                goal_tile,
                "seed {seed} depth {depth}"
            );
        }
    }
}

#[test]
fn the_random_depths_use_rooms_caverns_and_bsp_alike() {
    let mut counts = [0u32; 3];
    for seed in 0..300 {
        for depth in [2, 4, 6, 7, 12] {
            let mut rng = RunSeed(seed).stream("mapgen", u64::from(depth));
            let kind = game_core::mapgen::generator_for_depth(depth, &mut rng);
            let slot = match kind {
                GeneratorKind::Rooms => 0,
                GeneratorKind::Caverns => 1,
                GeneratorKind::Bsp => 2,
                other => panic!("depth {depth} chose {other:?}"),
            };
            counts[slot] += 1;
        }
    }
    // 1500 draws, 500 expected each; a fair pick stays well inside 400..600.
    assert!(
        counts.iter().all(|&n| (400..600).contains(&n)),
        "{counts:?}"
    );
}

#[test]
fn the_same_seed_builds_the_same_floor() {
    for seed in [0, 1, 42, u64::MAX] {
        for depth in 1..=LAST_DEPTH {
            let once = generate_floor(RunSeed(seed), depth, DEFAULT_WIDTH, DEFAULT_HEIGHT);
            let again = generate_floor(RunSeed(seed), depth, DEFAULT_WIDTH, DEFAULT_HEIGHT);
            assert_eq!(once, again, "seed {seed} depth {depth}");
        }
    }
}

#[test]
fn different_seeds_build_different_floors() {
    for depth in 1..=LAST_DEPTH {
        if depth == 5 {
            continue; // the Big Room is the same on every visit, by design
        }
        let a = generate_floor(RunSeed(1), depth, DEFAULT_WIDTH, DEFAULT_HEIGHT);
        let b = generate_floor(RunSeed(2), depth, DEFAULT_WIDTH, DEFAULT_HEIGHT);
        assert_ne!(a.map, b.map, "depth {depth}");
    }
}

/// crawlfest's cavern bug: when all ten candidates fell short, the last resort
/// went back unpruned, and a cramped map came back with an unreachable pocket.
/// Here every candidate is pruned. A 20x10 candidate falls short about one
/// time in three, so a sweep of a few thousand seeds exercises the retries
/// but reaches the last resort only by luck (about 3 seeds in 100,000); the
/// pinned seeds do reach it, with a pocket in the last candidate, which the
/// unit tests in `caverns.rs` prove along with the check seeing such a pocket.
#[test]
fn cramped_caverns_never_leave_an_unreachable_pocket() {
    const LAST_RESORT_SEEDS: [u64; 5] = [82_120, 116_473, 170_337, 172_124, 274_998];
    for seed in (0..4000).chain(LAST_RESORT_SEEDS) {
        let floor = build(GeneratorKind::Caverns, seed, MIN_WIDTH, MIN_HEIGHT);
        assert_sound(&floor, &format!("20x10 cavern, seed {seed}"));
    }
}

#[test]
fn every_generator_builds_at_its_minimum_size() {
    for kind in GeneratorKind::ALL {
        let builder = generator(kind);
        let (width, height) = builder.min_size();
        assert!(builder.fits(width, height));
        assert!(
            !builder.fits(width - 1, height),
            "{} fits below its minimum",
            kind.name()
        );
        assert!(
            !builder.fits(width, height - 1),
            "{} fits below its minimum",
            kind.name()
        );
        for seed in 0..200 {
            assert_sound(
                &build(kind, seed, width, height),
                &format!("{} at {width}x{height}, seed {seed}", kind.name()),
            );
        }
    }
}

#[test]
fn rooms_caverns_and_bsp_fit_the_smallest_map() {
    for kind in [
        GeneratorKind::Rooms,
        GeneratorKind::Caverns,
        GeneratorKind::Bsp,
    ] {
        assert_eq!(
            generator(kind).min_size(),
            (MIN_WIDTH, MIN_HEIGHT),
            "{}",
            kind.name()
        );
    }
}

#[test]
fn every_generator_builds_at_the_largest_size() {
    for kind in GeneratorKind::ALL {
        assert!(!generator(kind).fits(MAX_WIDTH + 1, MAX_HEIGHT));
        assert!(!generator(kind).fits(MAX_WIDTH, MAX_HEIGHT + 1));
        for seed in 0..3 {
            assert_sound(
                &build(kind, seed, MAX_WIDTH, MAX_HEIGHT),
                &format!("{} at the largest size, seed {seed}", kind.name()),
            );
        }
    }
}

#[test]
fn a_landmark_that_does_not_fit_falls_back_to_rooms() {
    // The Big Room is 70x18 and the temple needs 28x11.
    let big_room_depth = generate_floor(RunSeed(7), 5, 60, 30);
    assert_eq!(big_room_depth.generator, GeneratorKind::Rooms);
    assert_sound(&big_room_depth, "depth 5 on 60x30");
    let temple_depth = generate_floor(RunSeed(7), 3, MIN_WIDTH, MIN_HEIGHT);
    assert_eq!(temple_depth.generator, GeneratorKind::Rooms);
    assert_sound(&temple_depth, "depth 3 on 20x10");
}

#[test]
fn the_temple_has_exactly_one_way_in() {
    for seed in 0..300 {
        let floor = build(GeneratorKind::Temple, seed, DEFAULT_WIDTH, DEFAULT_HEIGHT);
        let vault = floor.vault.expect("a temple has a vault");
        assert_eq!(vault.rect.x2, DEFAULT_WIDTH - 2, "against the east edge");
        assert_eq!(vault_crossings(&floor.map, &vault), 1, "seed {seed}");
        assert_eq!(vault_wall_openings(&floor.map, &vault), 1, "seed {seed}");
        // The moat: nothing walkable in the two columns west of the wall but
        // the corridor, on the door's row.
        for x in [vault.rect.x1 - 2, vault.rect.x1 - 1] {
            for y in 0..floor.map.height() {
                let p = game_core::geom::Pos::new(x, y);
                assert_eq!(
                    floor.map.is_walkable(p),
                    y == vault.entrance.y,
                    "seed {seed}: moat at {p}"
                );
            }
        }
        // The vault interior is a region of its own, after the rooms'.
        let last = floor.regions.last().expect("regions");
        assert!(last.cells.iter().all(|&p| vault.rect.contains(p)));
        assert_eq!(floor.regions.len(), floor.rooms as usize + 1);
    }
}

#[test]
fn checks_see_a_second_way_into_the_vault() {
    let mut floor = build(GeneratorKind::Temple, 3, DEFAULT_WIDTH, DEFAULT_HEIGHT);
    let vault = floor.vault.expect("a temple has a vault");
    // Knock a hole in the west wall two rows from the door, and dig to it.
    let row = if vault.entrance.y - 2 > vault.rect.y1 {
        vault.entrance.y - 2
    } else {
        vault.entrance.y + 2
    };
    for x in vault.rect.x1 - 1..=vault.rect.x1 {
        floor
            .map
            .set(game_core::geom::Pos::new(x, row), Tile::Floor);
    }
    assert_eq!(vault_crossings(&floor.map, &vault), 2);
    assert_eq!(vault_wall_openings(&floor.map, &vault), 2);
    let ids: Vec<Id> = check_floor(&floor, false).iter().map(|v| v.id).collect();
    assert!(ids.contains(&Id::MapVaultSingleEntrance), "{ids:?}");
}

#[test]
fn the_catalogue_sees_a_pocket_a_lost_start_and_a_missing_way_down() {
    let sound = build(GeneratorKind::Rooms, 1, DEFAULT_WIDTH, DEFAULT_HEIGHT);
    let ids = |floor: &BuiltFloor| -> Vec<Id> {
        check_floor(floor, false).iter().map(|v| v.id).collect()
    };
    assert_eq!(ids(&sound), Vec::<Id>::new());

    // A pocket of floor sealed in rock in a corner.
    let mut pocket = sound.clone();
    let corner = (1..pocket.map.height() - 1)
        .flat_map(|y| (1..pocket.map.width() - 1).map(move |x| game_core::geom::Pos::new(x, y)))
        .find(|&p| {
            game_core::geom::Dir::ALL
                .iter()
                .all(|&d| !pocket.map.is_walkable(p.step(d)))
                && !pocket.map.is_walkable(p)
        })
        .expect("rock somewhere");
    pocket.map.set(corner, Tile::Floor);
    assert_eq!(ids(&pocket), vec![Id::MapConnected]);
    let said = &check_floor(&pocket, false)[0].message;
    assert!(
        said.starts_with("1 walkable tiles cannot be reached")
            && said.ends_with(&format!("the first at {corner}")),
        "{said}"
    );

    let mut lost = sound.clone();
    lost.regions.swap(0, 1);
    assert_eq!(ids(&lost), vec![Id::MapStartInRegion0]);

    let mut no_stairs = sound.clone();
    no_stairs.map.set(no_stairs.goal, Tile::Floor);
    assert_eq!(ids(&no_stairs), vec![Id::MapHasExit]);
    assert_eq!(
        check_floor(&sound, true).len(),
        1,
        "stairs where the exit should be"
    );
}

#[test]
fn stats_count_the_floor() {
    let floor = build(GeneratorKind::Rooms, 5, DEFAULT_WIDTH, DEFAULT_HEIGHT);
    let numbers = FloorStats::of(&floor);
    assert_eq!(numbers.generator, GeneratorKind::Rooms);
    assert_eq!(numbers.rooms, floor.rooms);
    assert_eq!(numbers.regions, floor.regions.len());
    assert_eq!(numbers.walkable, floor.map.count_walkable());
    assert_eq!(numbers.reachable, numbers.walkable);
    assert!(numbers.start_to_goal.is_some_and(|steps| steps > 0));
    assert!(
        numbers.to_string().starts_with("generator rooms, "),
        "{numbers}"
    );
}
