//! The turn clock: an integer clock in hundredths of a step and a queue of
//! who acts next.
//!
//! Entries come out earliest first, ties settling by insertion order (a
//! sequence number), so no id or memory layout ever decides who goes first.
//! The clock never runs backwards.

use serde::{Deserialize, Serialize};

/// A monster's stable id: survives other monsters dying, unlike its index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct MonsterRef(pub u32);

/// Who holds a place in the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Actor {
    Player,
    Monster(MonsterRef),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// When it acts, in hundredths of a step.
    pub at: u64,
    /// Insertion order, to break ties.
    pub seq: u64,
    pub actor: Actor,
}

/// Who acts when. The queue is small (the player and a floor's monsters), so a
/// sorted vector beats a heap and keeps the serialized form canonical.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnQueue {
    now: u64,
    next_seq: u64,
    /// Sorted by (at, seq).
    entries: Vec<Entry>,
    /// The next round boundary (a multiple of 100) at which statuses tick.
    next_round: u64,
}

impl TurnQueue {
    pub fn new() -> Self {
        Self {
            next_round: crate::rules::BASE_ACTION_COST,
            ..Self::default()
        }
    }

    /// The clock, in hundredths of a step.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Whole turns elapsed.
    pub fn turn(&self) -> u64 {
        self.now / crate::rules::BASE_ACTION_COST
    }

    /// Puts `actor` in the queue to act at `at` (not before now).
    pub fn schedule(&mut self, actor: Actor, at: u64) {
        debug_assert!(!self.contains(actor), "{actor:?} scheduled twice");
        let entry = Entry {
            at: at.max(self.now),
            seq: self.next_seq,
            actor,
        };
        self.next_seq += 1;
        let index = self
            .entries
            .partition_point(|e| (e.at, e.seq) <= (entry.at, entry.seq));
        self.entries.insert(index, entry);
    }

    /// The next entry to act, without taking it.
    pub fn peek(&self) -> Option<Entry> {
        self.entries.first().copied()
    }

    /// Takes the next entry and moves the clock to its time.
    pub fn pop(&mut self) -> Option<Entry> {
        if self.entries.is_empty() {
            return None;
        }
        let entry = self.entries.remove(0);
        self.advance_to(entry.at);
        Some(entry)
    }

    /// Moves the clock forward to `at`; it never runs backwards.
    pub fn advance_to(&mut self, at: u64) {
        self.now = self.now.max(at);
    }

    pub fn remove(&mut self, actor: Actor) {
        self.entries.retain(|e| e.actor != actor);
    }

    pub fn contains(&self, actor: Actor) -> bool {
        self.entries.iter().any(|e| e.actor == actor)
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Removes every monster (a new floor).
    pub fn clear_monsters(&mut self) {
        self.entries.retain(|e| e.actor == Actor::Player);
    }

    /// If a round boundary falls at or before `at`, moves the clock to it,
    /// consumes it and returns true. Called until false before anyone acts at
    /// `at`, so statuses tick once per 100 hundredths however actions fall.
    pub fn take_round_boundary(&mut self, at: u64) -> bool {
        if self.next_round <= at {
            self.advance_to(self.next_round);
            self.next_round += crate::rules::BASE_ACTION_COST;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn monster(n: u32) -> Actor {
        Actor::Monster(MonsterRef(n))
    }

    #[test]
    fn earliest_first_and_ties_by_insertion_order() {
        let mut q = TurnQueue::new();
        q.schedule(monster(2), 100);
        q.schedule(Actor::Player, 50);
        q.schedule(monster(1), 100);
        q.schedule(monster(0), 100);
        let order: Vec<Actor> = std::iter::from_fn(|| q.pop().map(|e| e.actor)).collect();
        assert_eq!(
            order,
            vec![Actor::Player, monster(2), monster(1), monster(0)]
        );
        assert_eq!(q.now(), 100);
    }

    #[test]
    fn the_clock_never_runs_backwards() {
        let mut q = TurnQueue::new();
        q.schedule(Actor::Player, 300);
        q.pop();
        q.schedule(monster(1), 100);
        let e = q.pop().expect("scheduled");
        assert_eq!(e.at, 300, "scheduling in the past is clamped to now");
        assert_eq!(q.now(), 300);
        q.advance_to(200);
        assert_eq!(q.now(), 300);
    }

    #[test]
    fn rounds_tick_once_per_hundred() {
        let mut q = TurnQueue::new();
        assert!(!q.take_round_boundary(99));
        assert!(q.take_round_boundary(250));
        assert_eq!(q.now(), 100);
        assert!(q.take_round_boundary(250));
        assert_eq!(q.now(), 200);
        assert!(!q.take_round_boundary(250));
        assert!(q.take_round_boundary(300));
    }

    #[test]
    fn remove_and_clear() {
        let mut q = TurnQueue::new();
        q.schedule(Actor::Player, 0);
        q.schedule(monster(1), 0);
        q.schedule(monster(2), 0);
        q.remove(monster(1));
        assert!(!q.contains(monster(1)));
        q.clear_monsters();
        assert_eq!(q.entries().len(), 1);
        assert!(q.contains(Actor::Player));
    }
}
