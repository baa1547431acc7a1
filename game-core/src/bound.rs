//! Bounds on loops. Every loop in the game ends: the turn loop after
//! `MAX_ACTIVATIONS`, the walks after their limits, and every search, scan
//! and flood after as many rounds as its size allows (a breadth-first search
//! visits each tile once, a field of view scans at most so many rows). A
//! loop that runs past its bound is a bug, and it is reported as one, with
//! the loop named, instead of hanging whoever called it.

/// Counts a loop's rounds against what its size allows.
pub(crate) struct Bound {
    what: &'static str,
    left: usize,
}

impl Bound {
    /// A loop named `what` that may go round at most `most` times.
    pub(crate) fn new(what: &'static str, most: usize) -> Bound {
        Bound { what, left: most }
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
