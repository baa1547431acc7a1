//! Content: monsters and items, loaded from RON.
//!
//! The game ships `content/monsters.ron` and `content/items.ron`, embedded at
//! compile time; the harness may pass a mod's files in as text instead. Either
//! way [`Content::parse`] reads both files and checks everything, and refuses
//! with every problem at once ([`ContentErrors`]), each with file, line,
//! column and entry name, rather than stopping at the first. It never panics,
//! whatever the text: limits on size, entries, names and numbers are errors
//! like any other.

mod load;
pub mod scan;
mod schema;
mod validate;

use std::fmt;
use std::sync::{Arc, OnceLock};

pub use load::{MAX_ENTRIES, MAX_FILE_BYTES};
pub use schema::{ItemDef, ItemEffect, ItemId, MonsterDef, MonsterId, Poison};
pub use validate::{MAP_GLYPHS, MAX_DANGER, MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS};

/// The shipped bestiary.
pub const EMBEDDED_MONSTERS: &str = include_str!("../../content/monsters.ron");
/// The shipped items.
pub const EMBEDDED_ITEMS: &str = include_str!("../../content/items.ron");

/// The text of one content file and the label its errors name it by, such as
/// `"monsters.ron"` or `"mods/monsters.ron"`.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    pub file: &'a str,
    pub text: &'a str,
}

/// Every monster and item definition of a run, checked. Ids index these lists
/// in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Content {
    monsters: Vec<MonsterDef>,
    items: Vec<ItemDef>,
    fingerprint: u64,
}

impl Content {
    /// The content shipped with the game.
    ///
    /// # Panics
    /// Only if the embedded files are invalid, which the test
    /// `embedded_content_is_valid` rules out before anything ships.
    pub fn embedded() -> Content {
        let monsters = Source {
            file: "monsters.ron",
            text: EMBEDDED_MONSTERS,
        };
        let items = Source {
            file: "items.ron",
            text: EMBEDDED_ITEMS,
        };
        Content::parse(monsters, items)
            .unwrap_or_else(|errors| panic!("the embedded content files are invalid:\n{errors}"))
    }

    /// The embedded content, parsed once per process and shared: what
    /// [`crate::GameConfig::new`] uses, so starting a game does not parse the
    /// files again. (Parsing is pure, so sharing one result changes nothing.)
    pub fn shared_embedded() -> Arc<Content> {
        static SHARED: OnceLock<Arc<Content>> = OnceLock::new();
        SHARED.get_or_init(|| Arc::new(Content::embedded())).clone()
    }

    /// Reads and checks both files. Both are always checked in full, so the
    /// errors cover every problem in either file.
    pub fn parse(monsters: Source<'_>, items: Source<'_>) -> Result<Content, ContentErrors> {
        let monsters_label = monsters.file;
        let mut monster_file = load::File::new(monsters);
        let monster_entries = monster_file.entries::<MonsterDef>();
        validate::monsters(&mut monster_file, &monster_entries);

        let mut item_file = load::File::new(items);
        let item_entries = item_file.entries::<ItemDef>();
        validate::items(&mut item_file, &item_entries);

        let mut errors = monster_file.finish();
        errors.extend(item_file.finish());
        if !errors.is_empty() {
            return Err(ContentErrors(errors));
        }

        let monsters: Vec<MonsterDef> = monster_entries.into_iter().map(|e| e.def).collect();
        let items: Vec<ItemDef> = item_entries.into_iter().map(|e| e.def).collect();
        let fingerprint = fingerprint(&monsters, &items).map_err(|error| {
            ContentErrors(vec![ContentError {
                file: monsters_label.to_owned(),
                line: 1,
                column: 1,
                entry: None,
                message: format!(
                    "the content could not be encoded to fingerprint it ({error}); this is a \
                     bug in game-core, not in the file"
                ),
            }])
        })?;
        Ok(Content {
            monsters,
            items,
            fingerprint,
        })
    }

    pub fn monsters(&self) -> &[MonsterDef] {
        &self.monsters
    }

    pub fn items(&self) -> &[ItemDef] {
        &self.items
    }

    /// The monster with this id.
    ///
    /// # Panics
    /// If the id did not come from this content (it is past the end).
    pub fn monster(&self, id: MonsterId) -> &MonsterDef {
        &self.monsters[usize::from(id.0)]
    }

    /// The item with this id.
    ///
    /// # Panics
    /// If the id did not come from this content (it is past the end).
    pub fn item(&self, id: ItemId) -> &ItemDef {
        &self.items[usize::from(id.0)]
    }

    /// The monster called `name`, ignoring case.
    pub fn monster_named(&self, name: &str) -> Option<MonsterId> {
        self.monsters
            .iter()
            .position(|monster| monster.name.eq_ignore_ascii_case(name))
            .map(|index| MonsterId(id_from_index(index)))
    }

    /// The item called `name`, ignoring case.
    pub fn item_named(&self, name: &str) -> Option<ItemId> {
        self.items
            .iter()
            .position(|item| item.name.eq_ignore_ascii_case(name))
            .map(|index| ItemId(id_from_index(index)))
    }

    /// What the player starts with: every item with `start_with` above 0, and
    /// how many, in file order.
    pub fn starting_kit(&self) -> Vec<(ItemId, u32)> {
        self.items
            .iter()
            .enumerate()
            .filter(|(_, item)| item.start_with > 0)
            .map(|(index, item)| (ItemId(id_from_index(index)), item.start_with))
            .collect()
    }

    /// A 64-bit hash of what the rules read of every definition (all but
    /// glyphs and descriptions, which are only drawn): the same content
    /// gives the same fingerprint on every run and platform; changing any
    /// stat or name changes it, rewording a description does not. It is in
    /// the state, and recordings carry it so a replay against different
    /// content is warned of before it drifts.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
}

/// Lists hold at most [`MAX_ENTRIES`] entries, which fits a `u16`.
fn id_from_index(index: usize) -> u16 {
    u16::try_from(index).unwrap_or(u16::MAX)
}

/// XXH3-64 of the postcard encoding of what the rules read of each entry,
/// in file order: every field but the glyph and the description, which are
/// only drawn (the map, the look screen) and never reach the state. Names
/// are in, since they go into messages, which are state. So a changed
/// description or glyph moves frames (snapshots show it) but no recording's
/// hashes; docs/state-hash.md draws the line.
fn fingerprint(monsters: &[MonsterDef], items: &[ItemDef]) -> Result<u64, postcard::Error> {
    // Every field named: a new field does not compile here until it is
    // put on one side of the line or the other.
    let monsters: Vec<_> = monsters
        .iter()
        .map(|m| {
            let MonsterDef {
                name,
                glyph: _,
                max_hp,
                att,
                dv,
                damage,
                speed,
                danger,
                weight,
                poison,
                confuses,
                description: _,
            } = m;
            (
                name, max_hp, att, dv, damage, speed, danger, weight, poison, confuses,
            )
        })
        .collect();
    let items: Vec<_> = items
        .iter()
        .map(|i| {
            let ItemDef {
                name,
                plural,
                glyph: _,
                effect,
                danger,
                weight,
                stackable,
                start_with,
                description: _,
            } = i;
            (name, plural, effect, danger, weight, stackable, start_with)
        })
        .collect();
    let encoding = postcard::to_allocvec(&(monsters, items))?;
    Ok(xxhash_rust::xxh3::xxh3_64(&encoding))
}

/// One problem in a content file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentError {
    /// The file's label from its [`Source`].
    pub file: String,
    /// 1-based.
    pub line: u32,
    /// 1-based, in characters.
    pub column: u32,
    /// The entry's name, where it is known.
    pub entry: Option<String>,
    /// What is wrong and what to do about it.
    pub message: String,
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        // The entry's name is the file's text: quoted and escaped, so a
        // line break in it cannot start a line of its own.
        if let Some(entry) = &self.entry {
            write!(f, "{}: ", crate::text::quoted(entry))?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for ContentError {}

/// Every problem found in a pair of content files, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentErrors(pub Vec<ContentError>);

impl fmt::Display for ContentErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for error in &self.0 {
            writeln!(f, "{error}")?;
        }
        match self.0.len() {
            1 => write!(f, "1 problem in the content; nothing was loaded"),
            count => write!(f, "{count} problems in the content; nothing was loaded"),
        }
    }
}

impl std::error::Error for ContentErrors {}
