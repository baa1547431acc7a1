//! Bounds on loops. Every loop in the game ends: the turn loop after
//! `MAX_ACTIVATIONS`, the walks after their limits, and every search, scan
//! and flood after as many rounds as its size allows (a breadth-first search
//! visits each tile once, a field of view scans at most so many rows). A
//! loop that runs past its bound is a bug, and it is reported as one, with
//! the loop named, instead of hanging whoever called it.

/// Counts a loop's rounds against what its size allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Bound {
    what: &'static str,
    left: usize,
}

impl Bound {
    /// A loop named `what` that may go round at most `most` times.
    pub(crate) fn new(what: &'static str, most: usize) -> Bound {
        Bound { what, left: most }
    }

    /// A field of view's scan of one quadrant out to `radius`: a row spawns
    /// at most one deeper row per run of open tiles, and runs at depth d
    /// are at most d + 1, so at most (r + 1)(r + 2) / 2 + 1 rows.
    pub(crate) fn field_of_view(radius: i32) -> Bound {
        let reach = radius.max(0) as usize;
        Bound::new("field of view scan", (reach + 2) * (reach + 2))
    }

    /// A search that visits each of `count` places (tiles, rooms) once.
    pub(crate) fn visits_each_once(what: &'static str, count: usize) -> Bound {
        Bound::new(what, count)
    }

    /// A* over `tiles` tiles: a tile is pushed again only when a cheaper way
    /// to it is found, once per neighbour at most.
    pub(crate) fn astar(tiles: usize) -> Bound {
        Bound::new("A* search", 8 * tiles + 1)
    }

    /// A straight line `dx` across and `dy` up or down (`dy` negative, as
    /// Bresenham keeps it): one cell a step, chebyshev + 1 cells.
    pub(crate) fn line(dx: i32, dy: i32) -> Bound {
        Bound::new("line", (dx.max(-dy) + 1).max(0) as usize)
    }

    /// Splitting a rectangle of `area` tiles: each split makes two smaller
    /// rectangles, so fewer than twice as many splits as tiles.
    pub(crate) fn splits(area: i32) -> Bound {
        Bound::new("BSP split", 2 * area.max(1) as usize)
    }

    /// One more round.
    ///
    /// # Panics
    /// When the loop has gone round more often than its bound: it cannot end.
    #[inline]
    pub(crate) fn tick(&mut self) {
        match self.left.checked_sub(1) {
            Some(left) => self.left = left,
            None => panic!(
                "the {} ran past its bound: a loop that cannot end",
                self.what
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_allows_its_rounds_and_no_more() {
        let mut bound = Bound::new("test loop", 3);
        for _ in 0..3 {
            bound.tick();
        }
        let overrun = std::panic::catch_unwind(move || bound.tick());
        let message = overrun.expect_err("the fourth round panics");
        let text = message
            .downcast_ref::<String>()
            .expect("a formatted message");
        assert!(text.contains("test loop ran past its bound"), "{text}");
    }
}
