//! The hybrid temple: rooms and corridors to the west, the temple vault drawn
//! in `prefabs/temple.txt` against the east edge, and between them a moat of
//! rock crossed by exactly one corridor, into the vault's single doorway. The
//! stairs are inside the vault, so going deeper means walking into it.
//!
//! ```text
//!   x: 0 ..................... vault_x-3 | vault_x-2, vault_x-1 | vault_x ... width-2 | width-1
//!      rooms, bounded by this rectangle  |        the moat      |      the vault      | rock
//! ```
//!
//! The rooms are carved strictly inside their rectangle, so its east column is
//! rock too; the moat is what is *guaranteed* rock, whatever the rooms do.
//! The one corridor runs vertically inside the west part to the doorway's
//! row, then east along that row through the moat to the door, so the column
//! just west of the vault has exactly one walkable tile.

use std::cmp::Reverse;

use super::prefab::{Glyph, Prefab, TEMPLE};
use super::rooms::{MIN_ROOM_SIDE, carve_horizontal, carve_rooms_and_corridors, carve_vertical};
use super::{BuiltFloor, Generator, GeneratorKind, Region, Vault, room_regions};
use crate::geom::{Pos, Rect};
use crate::map::{Map, Tile};
use crate::rng::Stream;

/// Columns of guaranteed rock between the west part and the vault's wall.
const MOAT_WIDTH: i32 = 2;
/// Columns the west part needs inside its outline: a room or two.
const MIN_WEST_INSIDE_WIDTH: i32 = 8;

/// The vault drawing. A test parses every embedded prefab and checks this
/// one's shape, so this cannot fail in a build whose tests pass.
fn vault_drawing() -> Prefab {
    Prefab::parse(TEMPLE).expect("prefabs/temple.txt parses (pinned by a test)")
}

/// Rooms west, vault east, one way in. Fits maps from 28x11 (west part with
/// `MIN_WEST_INSIDE_WIDTH` (8) columns inside its outline, the two-column moat,
/// the 15x9 vault and the map's east border; a row of rock above and below the
/// vault) up to `MAX_WIDTH` x `MAX_HEIGHT` (256x256).
pub struct TempleGenerator;

impl Generator for TempleGenerator {
    fn kind(&self) -> GeneratorKind {
        GeneratorKind::Temple
    }

    fn min_size(&self) -> (i32, i32) {
        let vault = vault_drawing();
        // Outline of the west part (2) + moat + vault + the map's east border.
        let width = MIN_WEST_INSIDE_WIDTH + 2 + MOAT_WIDTH + vault.width() + 1;
        let height = (vault.height() + 2).max(MIN_ROOM_SIDE + 2);
        (width, height)
    }

    fn build(&self, width: i32, height: i32, rng: &mut Stream) -> BuiltFloor {
        assert!(
            self.fits(width, height),
            "the temple does not fit a {width}x{height} map"
        );
        let drawing = vault_drawing();
        let mut map = Map::new(width, height);

        let vault_origin = Pos::new(
            width - drawing.width() - 1,
            rng.range(1, height - drawing.height() - 1),
        );
        drawing.stamp(&mut map, vault_origin);
        let in_vault = |glyph| {
            let p = drawing
                .find(glyph)
                .expect("the vault draws its doorway and its stairs (pinned by a test)");
            vault_origin.offset(p.x, p.y)
        };
        let (door, stairs) = (in_vault(Glyph::Door), in_vault(Glyph::Stairs));
        debug_assert_eq!(door.x, vault_origin.x, "the doorway is in the west wall");

        let west = Rect {
            x1: 0,
            y1: 0,
            x2: vault_origin.x - MOAT_WIDTH - 1,
            y2: height - 1,
        };
        let rooms = carve_rooms_and_corridors(&mut map, rng, west);
        let start = rooms
            .first()
            .expect("fits() leaves room west of the moat for at least one room")
            .center();

        // The one way in, from the easternmost room (the first of them on a
        // tie): vertically to the doorway's row, inside the west part, then
        // east along that row across the moat to the door.
        let linked = rooms
            .iter()
            .enumerate()
            .max_by_key(|(i, room)| (room.center().x, Reverse(*i)))
            .map(|(_, room)| room.center())
            .expect("there is at least one room");
        carve_vertical(&mut map, linked.y, door.y, linked.x);
        carve_horizontal(&mut map, linked.x, door.x - 1, door.y);

        debug_assert_eq!(map.tile(stairs), Tile::StairsDown, "stamped with the vault");
        let vault_rect = drawing.footprint(vault_origin);
        let mut regions = room_regions(&rooms);
        regions.push(Region {
            cells: vault_rect
                .grow(-1)
                .cells()
                .filter(|&p| map.is_walkable(p))
                .collect(),
        });
        BuiltFloor {
            map,
            generator: GeneratorKind::Temple,
            start,
            goal: stairs,
            regions,
            rooms: rooms.len() as u32,
            vault: Some(Vault {
                rect: vault_rect,
                entrance: door,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generator relies on the drawing's shape: walls all round, one
    /// doorway, in the west wall and not at a corner, stairs inside, no start.
    #[test]
    fn the_vault_drawing_has_one_doorway_in_its_west_wall() {
        let vault = vault_drawing();
        let outline = Rect::with_size(0, 0, vault.width(), vault.height());
        let door = vault.find(Glyph::Door).expect("a doorway");
        assert_eq!(door.x, 0);
        assert!(door.y > 0 && door.y < vault.height() - 1, "not at a corner");
        for p in outline.cells() {
            let on_ring = !outline.grow(-1).contains(p);
            let glyph = vault.glyph_at(p);
            if on_ring {
                let expected = if p == door { Glyph::Door } else { Glyph::Wall };
                assert_eq!(glyph, Some(expected), "the vault's wall at {p}");
            } else {
                assert!(
                    matches!(glyph, Some(Glyph::Floor | Glyph::Wall | Glyph::Stairs)),
                    "inside at {p}: {glyph:?}"
                );
            }
        }
        let stairs = vault.find(Glyph::Stairs).expect("stairs");
        assert!(outline.grow(-1).contains(stairs));
        assert_eq!(vault.find(Glyph::Start), None);
    }

    #[test]
    fn the_minimum_size_matches_the_documented_one() {
        assert_eq!(TempleGenerator.min_size(), (28, 11));
    }
}
