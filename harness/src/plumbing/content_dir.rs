//! Loading content from a directory (`--content DIR`): the harness reads the
//! files, the core parses and validates them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::plumbing::error::Error;
use game_core::content::{Content, Source};

/// Largest content file read.
pub const MAX_CONTENT_FILE_BYTES: u64 = 1024 * 1024;

/// The files `--content DIR` reads, for a command to keep its outputs off.
pub fn files(dir: Option<&Path>) -> Vec<PathBuf> {
    dir.map_or_else(Vec::new, |dir| {
        vec![dir.join("monsters.ron"), dir.join("items.ron")]
    })
}

/// Reads `DIR/monsters.ron` and `DIR/items.ron`. Every problem (a missing or
/// oversized file, and every content error the core finds) is in the message.
pub fn load(dir: &Path) -> Result<Arc<Content>, Error> {
    let monsters_path = dir.join("monsters.ron");
    let items_path = dir.join("items.ron");
    let monsters = crate::plumbing::files::read_text(&monsters_path, MAX_CONTENT_FILE_BYTES);
    let items = crate::plumbing::files::read_text(&items_path, MAX_CONTENT_FILE_BYTES);
    let (monsters, items) = match (monsters, items) {
        (Ok(m), Ok(i)) => (m, i),
        (m, i) => {
            let problems: Vec<String> = [m.err(), i.err()]
                .into_iter()
                .flatten()
                .map(|e| e.to_string())
                .collect();
            return Err(problems.join("\n").into());
        }
    };
    let monsters_label = crate::plumbing::printable::path(&monsters_path);
    let items_label = crate::plumbing::printable::path(&items_path);
    Content::parse(
        Source {
            file: &monsters_label,
            text: &monsters,
        },
        Source {
            file: &items_label,
            text: &items,
        },
    )
    .map(Arc::new)
    .map_err(|errors| errors.to_string())
    .map_err(Error::from)
}
