//! Binary space partition rooms, after RetroDungeon: split the interior into
//! leaves, shrink each leaf to a room, link the rooms whose leaves share a
//! stretch of wall, prune links away from rooms that have many while every
//! room stays reachable, and carve a corridor for each surviving link.
//!
//! A link's corridor stays inside its two leaves (down or across its own
//! room's leaf to a row or column both leaves share, over, and into the
//! other), so corridors never cut through a third room and the link graph is
//! exactly how the rooms connect.

use std::cmp::Reverse;
use std::collections::VecDeque;

use super::rooms::{MIN_ROOM_SIDE, carve_horizontal, carve_room, carve_vertical};
use super::{BuiltFloor, Generator, GeneratorKind, room_regions};
use crate::geom::Rect;
use crate::map::{MIN_HEIGHT, MIN_WIDTH, Map, Tile};
use crate::paths::farthest_tile;
use crate::rng::Stream;

/// The smallest leaf: a room of [`MIN_ROOM_SIDE`] or more inside a margin.
const MIN_LEAF_WIDTH: i32 = 9;
const MIN_LEAF_HEIGHT: i32 = 7;
/// Rock kept between a room and the edge of its leaf, so rooms in
/// neighbouring leaves never touch.
const LEAF_MARGIN: i32 = 1;
/// A leaf no larger than this may stop splitting early, one time in
/// [`SETTLE_ONE_IN`], which mixes a few larger rooms in with the small ones.
const SETTLED_LEAF_WIDTH: i32 = 24;
const SETTLED_LEAF_HEIGHT: i32 = 14;
const SETTLE_ONE_IN: u32 = 2;
/// A room with this many live links is crowded: its links may be pruned.
const MANY_LINKS: usize = 3;

/// BSP rooms. Fits every legal map, from `map::MIN_WIDTH` x `MIN_HEIGHT`
/// (20x10, where it makes one or two rooms) to `MAX_WIDTH` x `MAX_HEIGHT`
/// (256x256). The start is the centre of a random room and the stairs the
/// centre of the room farthest from it by a breadth-first search of the links,
/// so reaching them means passing through the most rooms.
pub struct BspGenerator;

impl Generator for BspGenerator {
    fn kind(&self) -> GeneratorKind {
        GeneratorKind::Bsp
    }

    fn min_size(&self) -> (i32, i32) {
        (MIN_WIDTH, MIN_HEIGHT)
    }

    fn build(&self, width: i32, height: i32, rng: &mut Stream) -> BuiltFloor {
        assert!(
            self.fits(width, height),
            "BSP rooms do not fit a {width}x{height} map"
        );
        let mut map = Map::new(width, height);
        let leaves = split_into_leaves(map.bounds().grow(-1), rng);
        let rooms: Vec<Rect> = leaves.iter().map(|&leaf| room_in(leaf, rng)).collect();
        for &room in &rooms {
            carve_room(&mut map, room);
        }
        let mut graph = LinkGraph::new(find_links(&leaves), rooms.len());
        graph.prune(rng);
        for link in graph.live_links() {
            carve_link(&mut map, rng, &rooms, link);
        }

        let room_count =
            u32::try_from(rooms.len()).expect("a map of at most 256x256 has few leaves");
        let start_room = rng.below(room_count) as usize;
        let start = rooms[start_room].center();
        // The room the most links away, as the rooms flood-fill from the
        // start; on a tie the one whose centre is farther, then the first.
        let hops = graph.hops_from(start_room);
        let farthest_room = (0..rooms.len())
            .filter(|&i| i != start_room)
            .max_by_key(|&i| (hops[i], rooms[i].center().chebyshev(start), Reverse(i)));
        // With a single room, the stairs go as far from the start as it allows.
        let goal = match farthest_room {
            Some(room) => rooms[room].center(),
            None => {
                farthest_tile(&map, start)
                    .expect("the start is a room's centre, on the map")
                    .0
            }
        };
        map.set(goal, Tile::StairsDown);

        let mut regions = room_regions(&rooms);
        regions[..=start_room].rotate_right(1);
        BuiltFloor {
            map,
            generator: GeneratorKind::Bsp,
            start,
            goal,
            regions,
            rooms: room_count,
            vault: None,
        }
    }
}

/// Splits `area` until every leaf is too small to split or has settled.
///
/// Bounded: each split turns one rectangle into two strictly smaller ones of
/// at least the minimum leaf size, so there are at most `area /
/// (MIN_LEAF_WIDTH * MIN_LEAF_HEIGHT)` leaves and twice that many pops.
fn split_into_leaves(area: Rect, rng: &mut Stream) -> Vec<Rect> {
    let mut pending = vec![area];
    let mut leaves = Vec::new();
    let mut bound = crate::bound::Bound::splits(area.area());
    while let Some(rect) = pending.pop() {
        bound.tick();
        match split(rect, rng) {
            Some((first, second)) => {
                // Pushed in reverse so leaves come out west to east, north to south.
                pending.push(second);
                pending.push(first);
            }
            None => leaves.push(rect),
        }
    }
    leaves
}

/// Cuts `rect` in two, or `None` when it is a leaf. When both cuts are
/// possible, a long side is more likely to be cut across.
fn split(rect: Rect, rng: &mut Stream) -> Option<(Rect, Rect)> {
    let (width, height) = (rect.width(), rect.height());
    let can_cut_columns = width >= 2 * MIN_LEAF_WIDTH;
    let can_cut_rows = height >= 2 * MIN_LEAF_HEIGHT;
    if !can_cut_columns && !can_cut_rows {
        return None;
    }
    if width <= SETTLED_LEAF_WIDTH && height <= SETTLED_LEAF_HEIGHT && rng.one_in(SETTLE_ONE_IN) {
        return None;
    }
    let cut_columns = match (can_cut_columns, can_cut_rows) {
        (true, true) => rng.below((width + height) as u32) < width as u32,
        (columns, _) => columns,
    };
    Some(if cut_columns {
        let west = rng.range(MIN_LEAF_WIDTH, width - MIN_LEAF_WIDTH);
        (
            Rect::with_size(rect.x1, rect.y1, west, height),
            Rect::with_size(rect.x1 + west, rect.y1, width - west, height),
        )
    } else {
        let north = rng.range(MIN_LEAF_HEIGHT, height - MIN_LEAF_HEIGHT);
        (
            Rect::with_size(rect.x1, rect.y1, width, north),
            Rect::with_size(rect.x1, rect.y1 + north, width, height - north),
        )
    })
}

/// A room shrunk from `leaf`: inside its margin, and at least half of what
/// the margin leaves each way, so the floor is not all corridor.
fn room_in(leaf: Rect, rng: &mut Stream) -> Rect {
    let most_width = leaf.width() - 2 * LEAF_MARGIN;
    let most_height = leaf.height() - 2 * LEAF_MARGIN;
    let width = rng.range((most_width / 2).max(MIN_ROOM_SIDE), most_width);
    let height = rng.range((most_height / 2).max(MIN_ROOM_SIDE), most_height);
    let x = rng.range(leaf.x1 + LEAF_MARGIN, leaf.x2 - LEAF_MARGIN - width + 1);
    let y = rng.range(leaf.y1 + LEAF_MARGIN, leaf.y2 - LEAF_MARGIN - height + 1);
    Rect::with_size(x, y, width, height)
}

/// Two rooms whose leaves share a stretch of wall.
#[derive(Clone, Copy, Debug)]
struct Link {
    a: usize,
    b: usize,
    shared: SharedWall,
}

impl Link {
    fn other(&self, room: usize) -> usize {
        if room == self.a { self.b } else { self.a }
    }
}

/// Where two leaves touch, inclusive.
#[derive(Clone, Copy, Debug)]
enum SharedWall {
    /// Side by side, sharing these rows.
    Rows(i32, i32),
    /// One above the other, sharing these columns.
    Columns(i32, i32),
}

/// Every pair of leaves that share a stretch of wall. The leaves tile the
/// interior, so these links connect every room.
fn find_links(leaves: &[Rect]) -> Vec<Link> {
    let mut links = Vec::new();
    for (a, first) in leaves.iter().enumerate() {
        for (b, second) in leaves.iter().enumerate().skip(a + 1) {
            let rows = (first.y1.max(second.y1), first.y2.min(second.y2));
            let columns = (first.x1.max(second.x1), first.x2.min(second.x2));
            let side_by_side = first.x2 + 1 == second.x1 || second.x2 + 1 == first.x1;
            let stacked = first.y2 + 1 == second.y1 || second.y2 + 1 == first.y1;
            let shared = if side_by_side && rows.0 <= rows.1 {
                SharedWall::Rows(rows.0, rows.1)
            } else if stacked && columns.0 <= columns.1 {
                SharedWall::Columns(columns.0, columns.1)
            } else {
                continue;
            };
            links.push(Link { a, b, shared });
        }
    }
    links
}

/// The rooms and the links between them, some pruned.
struct LinkGraph {
    links: Vec<Link>,
    live: Vec<bool>,
    /// The links touching each room, live or not.
    touching: Vec<Vec<usize>>,
    /// Live links per room.
    degree: Vec<usize>,
}

/// Hops to a room the live links do not reach.
const UNREACHED: u32 = u32::MAX;

impl LinkGraph {
    fn new(links: Vec<Link>, rooms: usize) -> LinkGraph {
        let mut touching = vec![Vec::new(); rooms];
        for (i, link) in links.iter().enumerate() {
            touching[link.a].push(i);
            touching[link.b].push(i);
        }
        let degree = touching.iter().map(Vec::len).collect();
        LinkGraph {
            live: vec![true; links.len()],
            links,
            touching,
            degree,
        }
    }

    fn live_links(&self) -> impl Iterator<Item = &Link> {
        self.links
            .iter()
            .zip(&self.live)
            .filter(|(_, live)| **live)
            .map(|(link, _)| link)
    }

    /// Prunes links. They are visited once each in random order; one that
    /// touches a crowded room (at least [`MANY_LINKS`] live links) is dropped
    /// unless dropping it would cut some room off from the others, which is
    /// checked before each removal. So the rooms stay connected, and the loop
    /// ends after one pass.
    fn prune(&mut self, rng: &mut Stream) {
        let mut order: Vec<usize> = (0..self.links.len()).collect();
        rng.shuffle(&mut order);
        for i in order {
            let Link { a, b, .. } = self.links[i];
            if self.degree[a].max(self.degree[b]) < MANY_LINKS {
                continue;
            }
            self.live[i] = false;
            // The rooms were all connected with the link, so they still are
            // without it exactly when its ends are.
            if self.joined(a, b) {
                self.degree[a] -= 1;
                self.degree[b] -= 1;
            } else {
                self.live[i] = true;
            }
        }
    }

    /// Whether live links lead from room `from` to room `to`. Breadth first
    /// and stopping at `to`, so a link that closes a small loop is cleared
    /// without visiting the whole floor.
    fn joined(&self, from: usize, to: usize) -> bool {
        let mut seen = vec![false; self.touching.len()];
        let mut pending = VecDeque::from([from]);
        seen[from] = true;
        let mut bound =
            crate::bound::Bound::visits_each_once("BSP link search", self.touching.len());
        while let Some(here) = pending.pop_front() {
            bound.tick();
            if here == to {
                return true;
            }
            for &i in self.touching[here].iter().filter(|&&i| self.live[i]) {
                let next = self.links[i].other(here);
                if !seen[next] {
                    seen[next] = true;
                    pending.push_back(next);
                }
            }
        }
        false
    }

    /// Live links on the shortest way from `room` to every room,
    /// [`UNREACHED`] where there is none.
    fn hops_from(&self, room: usize) -> Vec<u32> {
        let mut hops = vec![UNREACHED; self.touching.len()];
        let mut pending = VecDeque::from([room]);
        hops[room] = 0;
        let mut bound = crate::bound::Bound::visits_each_once("BSP hop count", self.touching.len());
        while let Some(here) = pending.pop_front() {
            bound.tick();
            for &i in self.touching[here].iter().filter(|&&i| self.live[i]) {
                let next = self.links[i].other(here);
                if hops[next] == UNREACHED {
                    hops[next] = hops[here] + 1;
                    pending.push_back(next);
                }
            }
        }
        hops
    }
}

/// The corridor of one link: from the first room's centre to a random row (or
/// column) the two leaves share, across, and on to the second room's centre.
/// Each leg lies in one of the two leaves.
fn carve_link(map: &mut Map, rng: &mut Stream, rooms: &[Rect], link: &Link) {
    let (from, to) = (rooms[link.a].center(), rooms[link.b].center());
    match link.shared {
        SharedWall::Rows(top, bottom) => {
            let row = rng.range(top, bottom);
            carve_vertical(map, from.y, row, from.x);
            carve_horizontal(map, from.x, to.x, row);
            carve_vertical(map, row, to.y, to.x);
        }
        SharedWall::Columns(left, right) => {
            let column = rng.range(left, right);
            carve_horizontal(map, from.x, column, from.y);
            carve_vertical(map, from.y, to.y, column);
            carve_horizontal(map, column, to.x, to.y);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RunSeed;

    #[test]
    fn leaves_tile_the_area_without_overlap_and_respect_the_minimum() {
        let area = Rect::with_size(1, 1, 78, 38);
        for seed in 0..100 {
            let leaves = split_into_leaves(area, &mut RunSeed(seed).stream("test", 0));
            let total: i32 = leaves.iter().map(Rect::area).sum();
            assert_eq!(total, area.area(), "seed {seed}");
            for (i, a) in leaves.iter().enumerate() {
                assert!(a.width() >= MIN_LEAF_WIDTH && a.height() >= MIN_LEAF_HEIGHT);
                assert!(
                    leaves[i + 1..].iter().all(|b| !a.intersects(b)),
                    "seed {seed}"
                );
            }
        }
    }

    #[test]
    fn pruning_keeps_every_room_reachable_and_thins_crowded_rooms() {
        let area = Rect::with_size(1, 1, 126, 62);
        for seed in 0..100 {
            let mut rng = RunSeed(seed).stream("test", 0);
            let leaves = split_into_leaves(area, &mut rng);
            let mut graph = LinkGraph::new(find_links(&leaves), leaves.len());
            assert!(
                !graph.hops_from(0).contains(&UNREACHED),
                "the leaves tile the area"
            );
            graph.prune(&mut rng);
            assert!(!graph.hops_from(0).contains(&UNREACHED), "seed {seed}");
            assert!(
                graph.live_links().count() < graph.links.len(),
                "seed {seed}: nothing pruned"
            );
        }
    }

    #[test]
    fn a_removal_that_would_cut_a_room_off_is_refused() {
        // A star: room 0 in the middle with three leaves around it. Every link
        // touches the crowded centre, and every one is a bridge.
        let link = |b| Link {
            a: 0,
            b,
            shared: SharedWall::Rows(0, 0),
        };
        let mut graph = LinkGraph::new(vec![link(1), link(2), link(3)], 4);
        graph.prune(&mut RunSeed(1).stream("test", 0));
        assert_eq!(graph.live_links().count(), 3);
        assert_eq!(graph.hops_from(1), vec![1, 0, 2, 2]);
    }
}
