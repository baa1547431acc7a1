//! The state hash with a small digest of each part of the state beside it,
//! so a replay that drifts can say which parts differ first ("monsters and
//! rng differ; player, map and items same") instead of only that the state
//! does.
//!
//! The whole hash is the one `Game::state_hash` gives: postcard encodes a
//! struct as its fields' encodings one after another in declaration order,
//! so encoding the fields of [`GameState`] one by one, in that order, into
//! one buffer and hashing it gives the same 64 bits. Each part is hashed
//! from its fields' slices of that buffer; a part's digest is the low byte
//! of its XXH3. docs/state-hash.md draws the line between the parts.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::Arc;

use serde::Serialize;
use xxhash_rust::xxh3::Xxh3;

use super::Game;
use super::screens::Screen;
use super::state::{Floor, FloorItem, GameState, LogMark, Message, MessageLog, Monster, Player};
use super::turn::TurnQueue;
use crate::rng::Stream;

/// The parts of the state, in the order of their digests.
pub const STATE_PARTS: [&str; 7] = [
    "player",
    "monsters",
    "items",
    "map",
    "clock",
    "rng",
    "screens/messages",
];

const PLAYER: usize = 0;
const MONSTERS: usize = 1;
const ITEMS: usize = 2;
const MAP: usize = 3;
const CLOCK: usize = 4;
const RNG: usize = 5;
const SCREENS_AND_MESSAGES: usize = 6;

/// A one-byte digest of each of [`STATE_PARTS`], in that order.
pub type PartDigests = [u8; STATE_PARTS.len()];

/// The state hash and its parts' digests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateDigest {
    /// The same as [`Game::state_hash`].
    pub hash: u64,
    pub parts: PartDigests,
}

/// The names of the parts whose digests differ between `a` and `b`, and of
/// those that match, each in [`STATE_PARTS`] order.
pub fn compare_parts(a: &PartDigests, b: &PartDigests) -> (Vec<&'static str>, Vec<&'static str>) {
    let (differ, same): (Vec<_>, Vec<_>) = STATE_PARTS
        .iter()
        .zip(a.iter().zip(b))
        .partition(|(_, (x, y))| x != y);
    let names = |parts: Vec<(&&'static str, _)>| parts.into_iter().map(|(name, _)| *name).collect();
    (names(differ), names(same))
}

/// What a caller that hashes after every key keeps between keys: the
/// buffers the state is encoded into, and the encodings and hashes of what
/// most keys leave as it was, each reused only once it is known to be the
/// same.
///
/// - The message log's lines, an encoding per line beside a copy of the
///   line: a key that says something adds a line (the oldest falling off a
///   full log) or counts a repeat on the newest, so only the lines that
///   differ from the copies are encoded again. While the log still has the
///   mark made when they were last compared ([`MessageLog::mark`]), not
///   even the comparison is needed.
/// - The floor: most keys (a look round, the pack, a screen, a blow) leave
///   it as it was, and its tiles and layers are most of the state's bytes,
///   so while it equals the floor last encoded that encoding is reused.
///   The kept copy shares the floor's map (`SharedMap`) until the game
///   writes it, so an unchanged map is told by one address compare; a map
///   written since is compared in a pass over its tiles and layers' words.
/// - The hashes of the bytes up to the floor's last (what the run started
///   with, the depth, the floor): while those bytes are the same, the whole
///   hash goes on from its state after them, and the map's digest, which
///   is theirs alone, is the one kept.
/// - The player, the monsters, the items, the clock, the rng and the
///   screens: each field's encoding is kept beside a copy of it and reused
///   while the field equals the copy, as a look round, the pack or a
///   screen leaves most of them as they were.
#[derive(Clone, Default)]
pub struct StateEncoder {
    feed: Feed,
    log: KeptLog,
    floor: Option<(Floor, Vec<u8>)>,
    through_floor: Option<KeptHashes>,
    player: Kept<Player>,
    monsters: Kept<Vec<Monster>>,
    items: Kept<Vec<FloorItem>>,
    screens: Kept<Vec<Screen>>,
    clock: Kept<TurnQueue>,
    rng: Kept<Stream>,
}

/// A field's encoding beside a copy of the value it was made from, reused
/// while the field equals the copy: comparing a field is a fraction of the
/// cost of encoding it.
#[derive(Clone)]
struct Kept<T> {
    value: Option<T>,
    bytes: Vec<u8>,
}

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept {
            value: None,
            bytes: Vec::new(),
        }
    }
}

impl<T: Serialize + Clone + PartialEq> Kept<T> {
    /// Appends `value`'s encoding to `into`: the kept one when `value` is
    /// the kept copy, else a new one, kept with a copy of `value`.
    fn encode_into(&mut self, value: &T, into: &mut Vec<u8>) {
        if self.value.as_ref() != Some(value) {
            match &mut self.value {
                Some(kept) => kept.clone_from(value),
                empty => *empty = Some(value.clone()),
            }
            self.bytes.clear();
            encode(value, &mut self.bytes);
        }
        into.extend_from_slice(&self.bytes);
    }
}

/// The log's lines as last encoded: a copy of each, its encoding's length,
/// and the encodings one after another.
#[derive(Clone, Default)]
struct KeptLog {
    /// Made when the lines were last compared; `None` before that.
    mark: Option<LogMark>,
    /// Copies of the log's lines, sharing them: `==` on a line and its
    /// copy compares two addresses.
    lines: VecDeque<Arc<Message>>,
    lengths: VecDeque<usize>,
    bytes: Vec<u8>,
}

/// The hashes of the state's bytes through the floor's last.
#[derive(Clone)]
struct KeptHashes {
    /// The bytes before the floor's (the floor is kept on its own).
    before_floor: Vec<u8>,
    /// The whole hash, fed every byte through the floor's last.
    whole: Xxh3,
    map: u8,
}

impl StateEncoder {
    /// The floor's encoding, as postcard encodes the `floor` field.
    fn floor_bytes(&mut self, floor: &Floor, into: &mut Vec<u8>) {
        match &mut self.floor {
            Some((kept, bytes)) if same_floor(kept, floor) => into.extend_from_slice(bytes),
            kept => {
                // The hashes through the floor were of the floor before.
                self.through_floor = None;
                let start = into.len();
                encode(floor, into);
                let (copy, bytes) = kept.get_or_insert_with(|| (floor.clone(), Vec::new()));
                copy.clone_from(floor);
                bytes.clear();
                bytes.extend_from_slice(&into[start..]);
            }
        }
    }

    /// The log's encoding, as postcard encodes the `log` field: its lines
    /// (how many, then each), then its two counts.
    fn log_bytes(&mut self, log: &MessageLog, into: &mut Vec<u8>) {
        let kept = &mut self.log;
        if !kept.mark.as_ref().is_some_and(|mark| log.has_mark(mark)) {
            kept.update(log.messages());
            kept.mark = Some(log.mark());
        }
        encode(&kept.lines.len(), into);
        into.extend_from_slice(&kept.bytes);
        encode(&log.total(), into);
        encode(&log.total_at_key_start(), into);
    }

    /// The whole hash fed the bytes through the floor's last, and the
    /// map's digest: the kept ones when the floor was kept (else they were
    /// dropped with it) and the bytes before it are the same.
    fn hashes_through_floor(&mut self, floor: Range<usize>) -> (Xxh3, u8) {
        let before_floor = &self.feed.bytes[..floor.start];
        match &self.through_floor {
            Some(kept) if kept.before_floor == before_floor => (kept.whole.clone(), kept.map),
            _ => {
                let mut whole = Xxh3::new();
                whole.update(&self.feed.bytes[..floor.end]);
                let map = self.feed.part_digest(MAP);
                self.through_floor = Some(KeptHashes {
                    before_floor: before_floor.to_vec(),
                    whole: whole.clone(),
                    map,
                });
                (whole, map)
            }
        }
    }
}

impl KeptLog {
    /// Makes the kept lines `lines`, encoding only those that differ: the
    /// kept lines are held to `lines` as they are, and less their oldest
    /// (a full log said a new line), and the first lines that agree are
    /// kept, the more of them the better.
    fn update(&mut self, lines: &VecDeque<Arc<Message>>) {
        let agreeing = |dropped: usize| {
            self.lines
                .iter()
                .skip(dropped)
                .zip(lines)
                .take_while(|(kept, line)| kept == line)
                .count()
        };
        let (as_they_are, less_the_oldest) = (agreeing(0), agreeing(1));
        let (dropped, same) = if less_the_oldest > as_they_are {
            (1, less_the_oldest)
        } else {
            (0, as_they_are)
        };
        for _ in 0..dropped {
            self.lines.pop_front();
            let length = self.lengths.pop_front().expect("a length per line");
            self.bytes.drain(..length);
        }
        while self.lines.len() > same {
            self.lines.pop_back();
            let length = self.lengths.pop_back().expect("a length per line");
            self.bytes.truncate(self.bytes.len() - length);
        }
        for line in lines.iter().skip(same) {
            let start = self.bytes.len();
            encode(line, &mut self.bytes);
            self.lines.push_back(line.clone());
            self.lengths.push_back(self.bytes.len() - start);
        }
    }
}

/// `a == b`, with the map compared by [`crate::map::SharedMap::same_as`]
/// (an address compare while the two share it).
fn same_floor(a: &Floor, b: &Floor) -> bool {
    // Every field named, so a new one fails to compile here until it is
    // compared.
    let Floor {
        map,
        generator,
        start,
        goal,
        rooms,
        vault,
    } = a;
    map.same_as(&b.map)
        && *generator == b.generator
        && *start == b.start
        && *goal == b.goal
        && *rooms == b.rooms
        && *vault == b.vault
}

fn encode<T: Serialize + ?Sized>(value: &T, into: &mut Vec<u8>) {
    postcard::serialize_with_flavor(value, super::persist::Appending(into))
        .expect("the game state has no type postcard cannot encode");
}

impl Game {
    /// The state hash and its parts' digests, in one pass over the state.
    pub fn state_digest(&self) -> StateDigest {
        self.state_digest_in(&mut StateEncoder::default())
    }

    /// [`Game::state_digest`] with the buffers and the log's encoding kept
    /// in `encoder` between calls: the same digest, for less work.
    pub fn state_digest_in(&self, encoder: &mut StateEncoder) -> StateDigest {
        let (hash, map) = self.hash_in(encoder);
        let feed = &encoder.feed;
        let mut parts = [0u8; STATE_PARTS.len()];
        for (part, digest) in parts.iter_mut().enumerate() {
            *digest = if part == MAP {
                map
            } else {
                feed.part_digest(part)
            };
        }
        StateDigest { hash, parts }
    }

    /// [`Game::state_hash`] with what `encoder` keeps between calls, without
    /// the parts' digests: for a caller that compares the hash and asks
    /// for the parts only when it differs (a replay, which stops there).
    pub fn state_hash_with(&self, encoder: &mut StateEncoder) -> u64 {
        self.hash_in(encoder).0
    }

    /// The whole hash and the map's digest, with the state encoded into
    /// `encoder`'s buffer for the other parts' digests.
    fn hash_in(&self, encoder: &mut StateEncoder) -> (u64, u8) {
        let floor = self.feed(encoder);
        let (mut whole, map) = encoder.hashes_through_floor(floor.clone());
        whole.update(&encoder.feed.bytes[floor.end..]);
        (whole.digest(), map)
    }

    /// A 64-bit hash of every part of the state, leaving out what the run
    /// was started with (seed, content fingerprint, canaries): equal for
    /// two games whose play is the same though one runs on other content,
    /// which is what comparing a run on two contents needs (`deja diff
    /// --content-b`). Not the state hash, and not kept in recordings.
    pub fn play_hash(&self) -> u64 {
        let mut encoder = StateEncoder::default();
        self.feed(&mut encoder);
        let feed = &encoder.feed;
        let mut hasher = Xxh3::new();
        for (range, _) in feed.ranges.iter().filter(|(_, part)| part.is_some()) {
            hasher.update(&feed.bytes[range.clone()]);
        }
        hasher.digest()
    }

    /// Every field of the state encoded in declaration order into the
    /// encoder's buffer, each field's slice marked with its part; where
    /// the floor's bytes lie.
    fn feed(&self, encoder: &mut StateEncoder) -> Range<usize> {
        // Every field named, so a new field fails to compile here until it
        // is given a part; the order is the declaration order, which the
        // whole hash depends on (a test holds it to `state_hash`).
        let GameState {
            seed,
            content_fingerprint,
            canaries,
            depth,
            floor,
            player,
            monsters,
            items,
            clock,
            rng,
            screens,
            log,
            status,
            next_monster_id,
            turns_taken,
            kills,
        } = &self.state;
        // One buffer holds every field's encoding in order: the whole hash
        // is one pass over it, and each part is hashed from its fields'
        // slices.
        let mut feed = std::mem::take(&mut encoder.feed);
        feed.bytes.clear();
        feed.ranges.clear();
        // What the run was started with never changes during play: only
        // the whole hash holds it.
        feed.field(seed, None);
        feed.field(content_fingerprint, None);
        feed.field(canaries, None);
        feed.field(depth, Some(MAP));
        let start = feed.bytes.len();
        encoder.floor_bytes(floor, &mut feed.bytes);
        let floor = start..feed.bytes.len();
        feed.ranges.push((floor.clone(), Some(MAP)));
        feed.kept_field(&mut encoder.player, player, PLAYER);
        feed.kept_field(&mut encoder.monsters, monsters, MONSTERS);
        feed.kept_field(&mut encoder.items, items, ITEMS);
        feed.kept_field(&mut encoder.clock, clock, CLOCK);
        feed.kept_field(&mut encoder.rng, rng, RNG);
        feed.kept_field(&mut encoder.screens, screens, SCREENS_AND_MESSAGES);
        let start = feed.bytes.len();
        encoder.log_bytes(log, &mut feed.bytes);
        feed.ranges
            .push((start..feed.bytes.len(), Some(SCREENS_AND_MESSAGES)));
        feed.field(status, Some(PLAYER));
        feed.field(next_monster_id, Some(MONSTERS));
        feed.field(turns_taken, Some(PLAYER));
        feed.field(kills, Some(PLAYER));
        encoder.feed = feed;
        floor
    }
}

#[derive(Clone, Default)]
struct Feed {
    bytes: Vec<u8>,
    /// Each field's bytes and its part.
    ranges: Vec<(Range<usize>, Option<usize>)>,
}

impl Feed {
    /// The digest of `part`: the low byte of the XXH3 of its fields' bytes.
    fn part_digest(&self, part: usize) -> u8 {
        let mut hasher = Xxh3::new();
        for (range, _) in self.ranges.iter().filter(|(_, p)| *p == Some(part)) {
            hasher.update(&self.bytes[range.clone()]);
        }
        hasher.digest() as u8
    }

    /// [`Feed::field`] by way of the encoding `kept` holds.
    fn kept_field<T: Serialize + Clone + PartialEq>(
        &mut self,
        kept: &mut Kept<T>,
        value: &T,
        part: usize,
    ) {
        let start = self.bytes.len();
        kept.encode_into(value, &mut self.bytes);
        self.ranges.push((start..self.bytes.len(), Some(part)));
    }

    fn field<T: Serialize>(&mut self, value: &T, part: Option<usize>) {
        let start = self.bytes.len();
        encode(value, &mut self.bytes);
        self.ranges.push((start..self.bytes.len(), part));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameConfig, Key};

    #[test]
    fn the_digest_hashes_as_the_state_hash_does_and_parts_follow_what_changed() {
        let mut game = Game::new(GameConfig::new(5)).expect("a game");
        let mut before = game.state_digest();
        assert_eq!(before.hash, game.state_hash());
        let mut seen = [false; STATE_PARTS.len()];
        for key in Key::parse_all("llllkkkjjjhhhoi<Esc>?<Esc>oooo").expect("keys") {
            game.press(key).expect("no stuck loop");
            let after = game.state_digest();
            assert_eq!(after.hash, game.state_hash());
            for part in compare_parts(&after.parts, &before.parts).0 {
                seen[STATE_PARTS.iter().position(|p| *p == part).unwrap()] = true;
            }
            before = after;
        }
        // Walking and exploring move the player, reveal the map, spend time
        // and say things: those parts changed at some step.
        for part in ["player", "map", "clock", "screens/messages"] {
            let at = STATE_PARTS.iter().position(|p| *p == part).unwrap();
            assert!(seen[at], "{part} never changed");
        }
    }

    #[test]
    fn a_kept_encoder_gives_the_digest_a_new_one_gives_across_copies_and_saves() {
        // One encoder kept across a run, its copies and a loaded save: the
        // log's kept encoding must never stand for another log's lines.
        let mut game = Game::new(GameConfig::new(11)).expect("a game");
        let mut encoder = StateEncoder::default();
        let mut copies = Vec::new();
        let keys =
            Key::parse_all("oooollllhhhh.....oooo<Esc>i<Esc>;l<Esc>ooooo>ooo").expect("keys");
        for (step, key) in keys.into_iter().enumerate() {
            game.press(key).expect("no stuck loop");
            assert_eq!(game.state_digest_in(&mut encoder), game.state_digest());
            assert_eq!(game.state_hash_with(&mut encoder), game.state_hash());
            if step % 5 == 0 {
                copies.push(game.clone());
            }
            // A copy that says something of its own, hashed through the
            // same encoder between the original's keys.
            if let Some(copy) = copies.last_mut() {
                copy.press(Key::char('.')).expect("no stuck loop");
                assert_eq!(copy.state_digest_in(&mut encoder), copy.state_digest());
            }
            let loaded = Game::load(&game.save(), game.content().clone()).expect("a save loads");
            assert_eq!(loaded.state_digest_in(&mut encoder), game.state_digest());
        }
    }

    #[test]
    fn a_kept_encoder_follows_the_log_line_by_line_through_repeats_and_a_full_log() {
        // Lines said past the log's capacity, repeats merged into the
        // newest, and copies that say lines of their own, all hashed
        // through one encoder: each digest as a fresh encoder's.
        let mut game = Game::new(GameConfig::new(17)).expect("a game");
        let mut encoder = StateEncoder::default();
        let words = ["You miss.", "The rat bites.", "You miss.", "", "A door."];
        let mut copy: Option<Game> = None;
        let mut draw = 7u64;
        for turn in 0..(3 * crate::game::state::LOG_CAPACITY as u64) {
            draw = draw
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let said = words[(draw >> 33) as usize % words.len()];
            game.state.log.push(turn, said.to_string());
            if (draw >> 40) % 3 == 0 {
                game.state.log.push(turn, said.to_string());
            }
            assert_eq!(game.state_digest_in(&mut encoder), game.state_digest());
            if turn % 37 == 0 {
                copy = Some(game.clone());
            }
            if let Some(copy) = &mut copy {
                copy.state
                    .log
                    .push(turn, format!("Only the copy, at {turn}."));
                assert_eq!(copy.state_digest_in(&mut encoder), copy.state_digest());
            }
        }
        // A log with none of the kept lines, and one with none at all.
        let fresh = Game::new(GameConfig::new(18)).expect("a game");
        assert_eq!(fresh.state_digest_in(&mut encoder), fresh.state_digest());
        let mut silent = game.clone();
        silent.state.log = MessageLog::default();
        assert_eq!(silent.state_digest_in(&mut encoder), silent.state_digest());
        assert_eq!(game.state_digest_in(&mut encoder), game.state_digest());
    }

    #[test]
    fn a_kept_encoder_sees_one_tile_or_one_bit_of_a_layer_change_or_what_comes_before_it() {
        // The kept floor must be compared in full: each of these changes
        // leaves every other part of the state as it was.
        let game = Game::new(GameConfig::new(13)).expect("a game");
        let mut encoder = StateEncoder::default();
        assert_eq!(game.state_digest_in(&mut encoder), game.state_digest());
        let far = crate::geom::Pos::new(1, 1);
        let changes: [fn(&mut Floor, crate::geom::Pos); 4] = [
            |floor, at| floor.map.set(at, crate::map::Tile::Door),
            |floor, at| {
                let i = floor.map.xy_idx(at);
                floor.map.revealed.insert(i);
            },
            |floor, at| {
                let i = floor.map.xy_idx(at);
                floor.map.visible.insert(i);
            },
            |floor, _| floor.rooms += 1,
        ];
        for change in changes {
            let mut changed = game.clone();
            change(&mut changed.state.floor, far);
            assert_ne!(changed.state_hash(), game.state_hash());
            assert_eq!(
                changed.state_digest_in(&mut encoder),
                changed.state_digest()
            );
            // And back: the kept floor is now the changed one.
            assert_eq!(game.state_digest_in(&mut encoder), game.state_digest());
        }
        // The same floor after other bytes: the hash kept through the
        // floor was fed those bytes too.
        let others: [fn(&mut GameState); 3] = [
            |state| state.seed.0 ^= 1,
            |state| state.content_fingerprint ^= 1,
            |state| state.depth += 1,
        ];
        for change in others {
            let mut changed = game.clone();
            change(&mut changed.state);
            assert_eq!(
                changed.state_digest_in(&mut encoder),
                changed.state_digest()
            );
            assert_eq!(game.state_digest_in(&mut encoder), game.state_digest());
        }
    }

    #[test]
    fn the_play_hash_leaves_out_what_the_run_started_with_and_nothing_else() {
        let game = Game::new(GameConfig::new(9)).expect("a game");
        let mut other_content = game.clone();
        other_content.state.content_fingerprint ^= 1;
        assert_ne!(other_content.state_hash(), game.state_hash());
        assert_eq!(other_content.play_hash(), game.play_hash());
        let mut hurt = game.clone();
        hurt.state.player.hp -= 1;
        assert_ne!(hurt.play_hash(), game.play_hash());
    }

    #[test]
    fn a_change_to_one_part_shows_in_that_part_alone() {
        let game = Game::new(GameConfig::new(9)).expect("a game");
        let base = game.state_digest();
        let mut hurt = game.clone();
        hurt.state.player.hp -= 1;
        assert_eq!(
            compare_parts(&hurt.state_digest().parts, &base.parts).0,
            ["player"]
        );
        let mut drawn = game.clone();
        drawn.state.rng.below(100);
        let (differ, same) = compare_parts(&drawn.state_digest().parts, &base.parts);
        assert_eq!(differ, ["rng"]);
        assert_eq!(same.len(), STATE_PARTS.len() - 1);
        assert_ne!(drawn.state_digest().hash, base.hash);
    }
}
