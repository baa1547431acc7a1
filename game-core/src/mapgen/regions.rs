//! Spawn regions for floors without rooms to count: caves and prefab halls.
//!
//! The spawner wants groups of walkable tiles of roughly room size, and does
//! not care what shape the floor is. So a shapeless floor is diced into
//! rectangular chunks and each chunk's walkable tiles become a region.

use super::Region;
use crate::geom::{Pos, Rect};
use crate::map::Map;

/// Chunk size in cells: about what a room of the rooms generator covers.
const CHUNK_WIDTH: i32 = 8;
const CHUNK_HEIGHT: i32 = 6;

/// The walkable tiles of `map`, diced into chunks of [`CHUNK_WIDTH`] x
/// [`CHUNK_HEIGHT`] cells (smaller at the right and bottom edges), one region
/// per chunk that has any. The chunk holding `start` comes first, so region 0
/// contains the start; the others follow in row-major chunk order.
pub(crate) fn chunk_regions(map: &Map, start: Pos) -> Vec<Region> {
    debug_assert!(map.is_walkable(start), "the start {start} is not walkable");
    let mut regions = Vec::new();
    let mut start_region = None;
    for top in (0..map.height()).step_by(CHUNK_HEIGHT as usize) {
        for left in (0..map.width()).step_by(CHUNK_WIDTH as usize) {
            let chunk = Rect {
                x1: left,
                y1: top,
                x2: (left + CHUNK_WIDTH - 1).min(map.width() - 1),
                y2: (top + CHUNK_HEIGHT - 1).min(map.height() - 1),
            };
            let mut cells = Vec::with_capacity(chunk.area() as usize);
            for y in chunk.y1..=chunk.y2 {
                let row = map.xy_idx(Pos::new(chunk.x1, y))..=map.xy_idx(Pos::new(chunk.x2, y));
                let walkable = (chunk.x1..)
                    .zip(&map.tiles()[row])
                    .filter(|(_, tile)| tile.is_walkable());
                cells.extend(walkable.map(|(x, _)| Pos::new(x, y)));
            }
            if cells.is_empty() {
                continue;
            }
            if chunk.contains(start) {
                start_region = Some(regions.len());
            }
            regions.push(Region { cells });
        }
    }
    if let Some(index) = start_region {
        // Move the start's chunk to the front, keeping the others in order.
        regions[..=index].rotate_right(1);
    }
    regions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Tile;

    #[test]
    fn chunks_cover_every_walkable_tile_once_with_the_start_first() {
        let mut map = Map::new(20, 10);
        for p in Rect::with_size(1, 1, 18, 8).cells() {
            map.set(p, Tile::Floor);
        }
        let start = Pos::new(17, 8);
        let regions = chunk_regions(&map, start);
        assert!(regions[0].cells.contains(&start));
        let total: usize = regions.iter().map(|r| r.cells.len()).sum();
        assert_eq!(total, map.count_walkable());
        // 3 chunk columns (8, 8, 4) by 2 chunk rows (6, 4), all with floor.
        assert_eq!(regions.len(), 6);
        // The chunks before the start's keep their order behind it.
        assert!(regions[1].cells.contains(&Pos::new(1, 1)));
    }

    #[test]
    fn empty_chunks_are_skipped() {
        let mut map = Map::new(30, 10);
        map.set(Pos::new(2, 2), Tile::Floor);
        map.set(Pos::new(25, 8), Tile::Floor);
        let regions = chunk_regions(&map, Pos::new(25, 8));
        assert_eq!(regions.len(), 2);
        assert_eq!(regions[0].cells, vec![Pos::new(25, 8)]);
    }
}
