//! Every crate's layout holds: its modules stand in layers, and each uses
//! only the layers below its own, so the arrows point one way and no module
//! is in an import circle with another. The harness's folders
//! (cli -> commands -> capabilities -> run -> recording -> plumbing),
//! game-core's top-level modules, the files of game-core's `game/` (data
//! below behaviour), and the checks' files are each held to the layers
//! ARCHITECTURE.md's code map draws. No file of the harness's commands
//! uses another command's module: commands are thin, as cargo's are, and
//! what two share lives in the capability's folder. And no function in
//! game-core/src, checks/src or harness/src runs over 70 lines, unless a
//! comment directly above its `fn` line says why; and none of their modules
//! imports by glob outside its tests.
//!
//! Read from the source, as `game-core/tests/purity.rs` reads game-core's:
//! every path outside comments and `#[cfg(test)]` modules that starts with
//! one of a part's prefixes (`crate::`; `super::` inside `game/`) names the
//! module it reaches into.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A part of the workspace whose modules stand in layers.
struct Layered {
    /// The folder, from the workspace, whose files and subfolders are the
    /// modules (a file in a subfolder belongs to its subfolder's module).
    dir: &'static str,
    /// How a file of the part writes a path to another of its modules.
    prefixes: &'static [&'static str],
    /// The part's face (`lib`, `main`, `mod`): its `mod` and `pub use` lines
    /// declare and re-export the modules, and are not uses. A face that is
    /// in a layer is checked like any module (a name the face itself
    /// defines, such as `super::Game`, is a use of the face).
    faces: &'static [&'static str],
    /// The modules in layers, top first: each may use the layers below its
    /// own, never its own layer's other modules or a layer above.
    layers: &'static [&'static [&'static str]],
}

/// Every layered part. Keep each the same as ARCHITECTURE.md's code map.
const PARTS: &[Layered] = &[
    Layered {
        dir: "harness/src",
        prefixes: &["crate::"],
        faces: &["lib", "main"],
        layers: &[
            &["cli"],
            &["commands"],
            &["play", "fuzz", "sweep"],
            &["replay", "inspect"],
            &["run"],
            &["recording"],
            &["plumbing"],
        ],
    },
    Layered {
        dir: "game-core/src",
        prefixes: &["crate::"],
        faces: &["lib"],
        layers: &[
            &["game"],
            &["mapgen", "spawn"],
            &["content", "fov", "paths"],
            &["frame", "keys", "map", "dice", "rules", "canary"],
            &["geom", "rng", "text"],
            &["bound"],
        ],
    },
    Layered {
        dir: "game-core/src/game",
        prefixes: &["super::", "crate::game::"],
        faces: &["mod"],
        layers: &[
            // Behaviour: what a key does, and what the game does.
            &["planted", "digest", "intent"],
            &["dispatch", "explore", "monsters", "persist"],
            &["actions", "render", "validity", "floor"],
            // The game itself (`Game`, `press`), then its data.
            &["mod"],
            &["state"],
            &["screens", "events"],
            &["pack", "turn"],
        ],
    },
    Layered {
        dir: "checks/src",
        prefixes: &["crate::"],
        faces: &["lib"],
        layers: &[
            &["turn", "reach"],
            &["record", "keys"],
            &["watch"],
            &["floor", "screen", "spawns", "command", "state"],
            &["oracle", "describe"],
            &["catalogue"],
        ],
    },
];

impl Layered {
    /// The layer a module is in, counted from the top.
    fn layer_of(&self, module: &str) -> Option<usize> {
        self.layers.iter().position(|layer| layer.contains(&module))
    }

    fn root(&self) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(self.dir)
    }

    /// The modules of the part, by the files and folders in its `dir`.
    fn modules(&self) -> BTreeSet<String> {
        std::fs::read_dir(self.root())
            .unwrap_or_else(|e| panic!("reading {}: {e}", self.dir))
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|path| path.is_dir() || path.extension().is_some_and(|e| e == "rs"))
            .map(|path| module_of(path.file_name().expect("a name").as_ref()))
            .collect()
    }

    /// Which modules each module uses, with a file that does it for each.
    fn uses(&self) -> BTreeMap<String, BTreeMap<String, String>> {
        let root = self.root();
        let modules = self.modules();
        let face = self
            .faces
            .iter()
            .find(|face| modules.contains(**face))
            .map(|face| face.to_string());
        let mut files = Vec::new();
        rust_files(&root, &mut files);
        let mut uses: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for path in files {
            let relative = path
                .strip_prefix(&root)
                .expect("under the part")
                .to_path_buf();
            let module = module_of(&relative);
            let text = std::fs::read_to_string(&path).expect("a source file reads");
            let code = code_of(&text);
            let mut used = BTreeSet::new();
            for prefix in self.prefixes {
                used.extend(paths_after(&code, prefix));
            }
            if self.faces.contains(&module.as_str()) {
                used = face_uses(&code, &modules);
            }
            for name in used {
                // A name that is no module is an item of the face.
                let target = match (modules.contains(&name), &face) {
                    (true, _) => name,
                    (false, Some(face)) => face.clone(),
                    (false, None) => continue,
                };
                if target != module {
                    uses.entry(module.clone())
                        .or_default()
                        .entry(target)
                        .or_insert_with(|| format!("{}/{}", self.dir, relative.display()));
                }
            }
        }
        uses
    }
}

/// The module a path under a part's `dir` belongs to: its first component,
/// without `.rs` (`cli.rs` is `cli`, `sweep/seed.rs` is `sweep`).
fn module_of(relative: &Path) -> String {
    let first = relative
        .components()
        .next()
        .expect("a path under the part")
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    first.strip_suffix(".rs").unwrap_or(&first).to_string()
}

/// What a face uses of its own modules: `module::` paths (relative, as a
/// face writes them) outside its `mod` and `pub use` lines.
fn face_uses(code: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let kept: String = code
        .lines()
        .filter(|line| {
            let line = line.trim_start();
            !(line.starts_with("mod ")
                || line.starts_with("pub mod ")
                || line.starts_with("pub(crate) mod ")
                || line.starts_with("pub use "))
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut used = BTreeSet::new();
    for module in modules {
        let path = format!("{module}::");
        let mentioned = kept.match_indices(&path).any(|(at, _)| {
            let before = kept[..at].chars().next_back();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
        });
        if mentioned {
            used.insert(module.clone());
        }
    }
    used
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// The code of a file without its comments and its `#[cfg(test)]` modules
/// (tests may reach anywhere).
fn code_of(text: &str) -> String {
    let mut code = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim_start().starts_with("#[cfg(test)]")
            && lines
                .peek()
                .is_some_and(|next| without_visibility(next.trim_start()).starts_with("mod "))
        {
            // The test module runs to the end of the file in this crate's
            // style; check that rather than assume it.
            let rest: Vec<&str> = lines.collect();
            assert!(
                rest.last().is_some_and(|last| *last == "}"),
                "a #[cfg(test)] module that does not end the file"
            );
            break;
        }
        let line = match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        };
        code.push_str(line);
        code.push('\n');
    }
    code
}

/// An item's line without its visibility (`pub`, `pub(crate)`, ...).
fn without_visibility(line: &str) -> &str {
    let Some(rest) = line
        .strip_prefix("pub")
        .filter(|rest| rest.starts_with([' ', '(']))
    else {
        return line;
    };
    let rest = rest.trim_start();
    match rest.strip_prefix('(') {
        Some(scoped) => scoped.split_once(')').map_or(rest, |(_, after)| after),
        None => rest,
    }
    .trim_start()
}

/// The first path segment after each `prefix` in `code` (one not inside a
/// longer path: `crate::game::` is not `game::`), with each item of a
/// `prefix{a, b::c}` group.
fn paths_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let identifier = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item_start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    _ if item_start && !c.is_whitespace() => {
                        used.insert(identifier(&group[i..]));
                        item_start = false;
                    }
                    _ => {}
                }
            }
        } else {
            used.insert(identifier(rest));
        }
    }
    used.remove("");
    used.remove("self");
    used
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let mut wrong = Vec::new();
    for part in PARTS {
        let modules = part.modules();
        for module in &modules {
            let face = part.faces.contains(&module.as_str());
            if part.layer_of(module).is_none() && !face {
                wrong.push(format!(
                    "{}/{module}: a module the layout does not list (add it to PARTS and ARCHITECTURE.md)",
                    part.dir
                ));
            }
        }
        for (module, used) in part.uses() {
            let Some(layer) = part.layer_of(&module) else {
                wrong.push(format!(
                    "{}/{module} is the part's face, yet uses {:?}: keep a face to `mod` and `pub use`",
                    part.dir,
                    used.keys().collect::<Vec<_>>()
                ));
                continue;
            };
            for (target, file) in used {
                if part.faces.contains(&target.as_str()) && part.layer_of(&target).is_none() {
                    wrong.push(format!(
                        "{file} uses an item through {target}, the part's face: name the module that defines it"
                    ));
                } else if part.layer_of(&target).is_none_or(|below| below <= layer) {
                    wrong.push(format!(
                        "{file} uses {target}, which is not in a layer below {module}'s"
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_reader_sees_a_use_of_each_form() {
    let code = code_of(
        "use crate::run::runner::Runner;\n\
         use crate::{plumbing::files, recording::{self, Recording}};\n\
         // crate::sweep in a comment\n\
         fn f() { crate::replay::replay(); }\n\
         fn g() { game_core::game::events(); }\n\
         #[cfg(test)]\n\
         mod tests {\n    use crate::commands;\n}",
    );
    let used: Vec<String> = paths_after(&code, "crate::").into_iter().collect();
    assert_eq!(used, ["plumbing", "recording", "replay", "run"]);
    let inner: Vec<String> = paths_after(&code, "super::").into_iter().collect();
    assert!(inner.is_empty());
    let modules: BTreeSet<String> = ["state", "events"].map(String::from).into();
    let face = face_uses(
        "mod state;\npub use events::Event;\nuse state::GameState;\nfn f() { x::state::y(); }\n",
        &modules,
    );
    assert_eq!(face.into_iter().collect::<Vec<_>>(), ["state"]);
}

/// The folder of the harness's commands, from the workspace: each of its
/// files, and `bench/`, is a command's module.
const COMMANDS: &str = "harness/src/commands";

/// The modules of [`COMMANDS`] that are no command's: the arguments several
/// commands take, and the face with the helpers they share.
const SHARED_BY_COMMANDS: [&str; 2] = ["args", "mod"];

/// The other commands' modules a file of [`COMMANDS`] uses: the first
/// segment of each path into the folder (`crate::commands::`, or the
/// `super::`s that reach it from a module `depth` folders below it) that
/// is one of `commands` but not `own`, the file's own command.
fn other_commands_used(
    code: &str,
    depth: usize,
    own: &str,
    commands: &BTreeSet<String>,
) -> BTreeSet<String> {
    let mut used = paths_after(code, "crate::commands::");
    if depth > 0 {
        used.extend(paths_after(code, &"super::".repeat(depth)));
    }
    used.retain(|name| name != own && commands.contains(name));
    used
}

#[test]
fn no_command_uses_another_commands_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(COMMANDS);
    let mut commands = BTreeSet::new();
    for entry in std::fs::read_dir(&root).expect("the commands' folder reads") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() || path.extension().is_some_and(|e| e == "rs") {
            commands.insert(module_of(path.file_name().expect("a name").as_ref()));
        }
    }
    commands.retain(|module| !SHARED_BY_COMMANDS.contains(&module.as_str()));
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut wrong = Vec::new();
    for path in &files {
        let relative = path.strip_prefix(&root).expect("under the commands");
        // A module's folders below commands/: a mod.rs is its folder's.
        let folders = relative.components().count() - 1;
        let depth = if path.ends_with("mod.rs") {
            folders
        } else {
            folders + 1
        };
        let text = std::fs::read_to_string(path).expect("a source file reads");
        let own = module_of(relative);
        for other in other_commands_used(&code_of(&text), depth, &own, &commands) {
            wrong.push(format!(
                "{COMMANDS}/{} uses {other}, another command's module: move what they share into the capability's folder (arguments into args.rs)",
                relative.display()
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_command_reader_sees_each_way_into_another_command() {
    let commands: BTreeSet<String> = ["bench", "corpus", "probe", "replay", "watch"]
        .map(String::from)
        .into();
    let top = code_of(
        "use crate::commands::args::ContentArgs;\n\
         use crate::commands::{probe::ProbeArgs, replay};\n\
         use super::{load_content, watch};\n\
         // super::bench::run in a comment\n\
         fn f() { super::corpus::check(); crate::fuzz::corpus::check(); }\n\
         fn g() { crate::commands::replay::run(); }\n\
         #[cfg(test)]\n\
         mod tests {\n    use crate::commands::bench::BenchArgs;\n}",
    );
    let used: Vec<String> = other_commands_used(&top, 1, "replay", &commands)
        .into_iter()
        .collect();
    assert_eq!(used, ["corpus", "probe", "watch"]);
    let nested = code_of(
        "use super::runs::long_run;\n\
         use super::{BenchArgs, Row};\n\
         use super::super::corpus::inputs;\n\
         fn f() { crate::commands::bench::run(); }\n",
    );
    let used: Vec<String> = other_commands_used(&nested, 2, "bench", &commands)
        .into_iter()
        .collect();
    assert_eq!(used, ["corpus"]);
    let face = code_of("pub mod replay;\nuse crate::commands::args::ContentArgs;\n");
    assert!(other_commands_used(&face, 0, "mod", &commands).is_empty());
}

/// The longest a function may be, in lines from its `fn` to its closing
/// brace (tests aside): past it, a function is split into steps whose names
/// say what they do.
const LONGEST_FUNCTION: usize = 70;

/// Source text with every comment, string and character literal blanked to
/// spaces (line breaks kept), so braces and `fn` are only code's.
fn blank_comments_and_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_'))
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                match chars.get(j) {
                    None => break,
                    Some('"') if (1..=hashes).all(|h| chars.get(j + h) == Some(&'#')) => {
                        j += 1 + hashes;
                        break;
                    }
                    _ => j += 1,
                }
            }
            out.extend(chars[i..j.min(chars.len())].iter().map(|&c| blank(c)));
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{1b}'), or a lifetime.
            let end = if next == Some('\\') {
                (i + 2..chars.len()).find(|&k| chars[k] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => {
                    for _ in i..=end {
                        out.push(' ');
                    }
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Each function of `text` outside `#[cfg(test)]` modules, as (name, first
/// line, lines long).
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let code = blank_comments_and_literals(text);
    let bytes = code.as_bytes();
    let line_at = |at: usize| code[..at].matches('\n').count() + 1;
    let word_at = |at: usize, word: &str| {
        code[at..].starts_with(word)
            && (at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_'))
            && bytes
                .get(at + word.len())
                .is_none_or(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
    };
    // The end of the block that opens at `open` (a `{`).
    let block_end = |open: usize| {
        let mut depth = 0usize;
        for (k, b) in bytes.iter().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return k;
                    }
                }
                _ => {}
            }
        }
        bytes.len() - 1
    };
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        if code[at..].starts_with("#[cfg(test)]") {
            // Skip the item it guards when that is a module.
            let after = at + "#[cfg(test)]".len();
            let rest = code[after..].trim_start();
            let item = after + (code[after..].len() - rest.len());
            if rest.starts_with("mod ") || rest.starts_with("pub mod ") {
                match code[item..].find(['{', ';']) {
                    Some(k) if bytes[item + k] == b'{' => at = block_end(item + k) + 1,
                    _ => at = item + 1,
                }
                continue;
            }
        }
        if word_at(at, "fn") {
            let name: String = code[at + 2..]
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if let Some(k) = code[at..].find(['{', ';']) {
                if bytes[at + k] == b'{' && !name.is_empty() {
                    let end = block_end(at + k);
                    found.push((name, line_at(at), line_at(end) - line_at(at) + 1));
                }
            }
            at += 2;
            continue;
        }
        at += 1;
    }
    found
}

/// How a comment directly above a function's `fn` line (below its doc
/// comment and attributes) starts when it says why the function is longer
/// than the rule allows; the reason follows the colon.
fn length_reason_prefix() -> String {
    format!("// Longer than {LONGEST_FUNCTION} lines:")
}

/// The functions of `text` longer than the rule allows, as (name, first
/// line, lines long), but for those the line above their `fn` line gives a
/// reason for: a comment `// Longer than N lines: why`.
fn too_long(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let prefix = length_reason_prefix();
    let has_reason = |fn_line: usize| {
        fn_line
            .checked_sub(2)
            .and_then(|above| lines.get(above))
            .and_then(|above| above.trim_start().strip_prefix(prefix.as_str()))
            .is_some_and(|reason| !reason.trim().is_empty())
    };
    functions(text)
        .into_iter()
        .filter(|&(_, line, length)| length > LONGEST_FUNCTION && !has_reason(line))
        .collect()
}

#[test]
fn no_function_is_longer_than_the_rule_allows() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for crate_src in ["game-core/src", "checks/src", "harness/src"] {
        rust_files(&workspace.join(crate_src), &mut files);
    }
    let mut report = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("a source file reads");
        let shown = path
            .strip_prefix(&workspace)
            .unwrap_or(path)
            .display()
            .to_string();
        for (name, line, length) in too_long(&text) {
            report.push(format!(
                "{shown}:{line}: {name} is {length} lines, over {LONGEST_FUNCTION}: split it into steps whose names say what they do (or, where a split would read worse, say why on the line above its fn: \"{}\")",
                length_reason_prefix()
            ));
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn every_path_is_printed_through_the_one_escape() {
    // A file's name is text from outside: a line break in it would start a
    // line of deja's own. `Path::display` writes it raw;
    // `printable::path` escapes it as every other value from outside is.
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut raw = Vec::new();
    for path in &files {
        if path.ends_with("plumbing/printable.rs") {
            continue;
        }
        let text = std::fs::read_to_string(path).expect("a source file reads");
        for (number, line) in code_of(&text).lines().enumerate() {
            if line.contains(".display()") {
                raw.push(format!(
                    "{}:{}: {}",
                    path.display(),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        raw.is_empty(),
        "paths printed raw; write crate::plumbing::printable::path(&p):\n{}",
        raw.join("\n")
    );
}

#[test]
fn the_counter_measures_a_function_from_fn_to_its_brace() {
    let text = "fn one() {\n    let s = \"}\"; // }\n    let c = '}';\n}\n\
                trait T { fn declared(&self); }\n\
                fn two<'a>(x: &'a str) -> &'a str {\n    x\n}\n\
                #[cfg(test)]\nmod tests {\n    fn skipped() {\n    }\n}\n";
    assert_eq!(
        functions(text),
        [("one".to_string(), 1, 4), ("two".to_string(), 6, 3)]
    );
}

/// Each glob import (`use a::*;`, `pub use a::{b, c::*};`) of `text` outside
/// comments and `#[cfg(test)]` modules, as (first line, the statement on one
/// line).
fn glob_imports(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut statement: Option<(usize, String)> = None;
    for (number, line) in code_of(text).lines().enumerate() {
        let line = line.trim();
        if statement.is_none() && without_visibility(line).starts_with("use ") {
            statement = Some((number + 1, String::new()));
        }
        let Some((first, words)) = &mut statement else {
            continue;
        };
        if !words.is_empty() && !words.ends_with('{') && !line.starts_with('}') {
            words.push(' ');
        }
        words.push_str(line);
        if line.ends_with(';') {
            if words.contains('*') {
                found.push((*first, words.clone()));
            }
            statement = None;
        }
    }
    found
}

#[test]
fn no_module_imports_by_glob() {
    // `use super::*` and `pub use x::*` hide where a name comes from: a
    // reader must open every module the glob takes in to find it. Tests
    // may take in what they test.
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for crate_src in ["game-core/src", "checks/src", "harness/src"] {
        rust_files(&workspace.join(crate_src), &mut files);
    }
    let mut globs = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("a source file reads");
        let shown = path.strip_prefix(&workspace).unwrap_or(path);
        for (line, statement) in glob_imports(&text) {
            globs.push(format!("{}:{line}: {statement}", shown.display()));
        }
    }
    assert!(
        globs.is_empty(),
        "glob imports; import each name by its path (or re-export it by name):\n{}",
        globs.join("\n")
    );
}

#[test]
fn the_reader_finds_a_glob_import_of_each_form() {
    let text = "use std::fmt;\n\
                use a::*;\n\
                pub use b::*;\n\
                pub(crate) use c::{\n    d,\n    e::*,\n};\n\
                pub use f::{g, h};\n\
                // use i::*;\n\
                fn f() {\n    use rayon::prelude::*;\n    let product = 2 * 3;\n}\n\
                #[cfg(test)]\npub(crate) mod tests {\n    use super::*;\n}\n";
    assert_eq!(
        glob_imports(text),
        [
            (2, "use a::*;".to_string()),
            (3, "pub use b::*;".to_string()),
            (4, "pub(crate) use c::{d, e::*,};".to_string()),
            (11, "use rayon::prelude::*;".to_string()),
        ]
    );
}

#[test]
fn a_reason_directly_above_its_fn_line_keeps_a_long_function() {
    let body = "    step();\n".repeat(LONGEST_FUNCTION);
    let prefix = length_reason_prefix();
    let text = format!(
        "/// Its doc.\n#[inline]\n{prefix} one arm per event, each a sentence.\nfn kept() {{\n{body}}}\n\
         {prefix}   \nfn no_reason_given() {{\n{body}}}\n\
         {prefix} not directly above.\n/// Its doc.\nfn reason_too_far_up() {{\n{body}}}\n\
         // Long, but why is not said the agreed way.\nfn unexplained() {{\n{body}}}\n\
         {prefix} short anyway.\nfn short() {{\n    step();\n}}\n"
    );
    let names: Vec<String> = too_long(&text).into_iter().map(|(name, ..)| name).collect();
    assert_eq!(
        names,
        ["no_reason_given", "reason_too_far_up", "unexplained"]
    );
}
/// The crates' sources, from the workspace.
const CRATE_SOURCES: [&str; 3] = ["game-core/src", "checks/src", "harness/src"];

/// Which files (and subfolders) of one folder use which others of it: a
/// file's `super::` paths and its `crate::` paths into the folder name
/// them. The folder's face (`mod.rs`, or `lib.rs` at the top) is left out:
/// it declares the files, and may both hold what they share and use them,
/// as a Rust module does; the files among themselves stand in layers.
fn folder_graph(root: &Path, dir: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut modules = BTreeSet::new();
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a folder reads") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            modules.insert(module_of(Path::new(path.file_name().expect("a name"))));
        } else if path.extension().is_some_and(|e| e == "rs") {
            modules.insert(module_of(Path::new(path.file_name().expect("a name"))));
            files.push(path);
        }
    }
    let relative = dir.strip_prefix(root).expect("under the crate");
    let mut prefix = String::from("crate::");
    for part in relative.components() {
        prefix.push_str(&part.as_os_str().to_string_lossy());
        prefix.push_str("::");
    }
    let mut graph = BTreeMap::new();
    for path in files {
        let module = module_of(Path::new(path.file_name().expect("a name")));
        if ["mod", "lib", "main"].contains(&module.as_str()) {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(&path).expect("a source file reads"));
        let mut used: BTreeSet<String> = paths_after(&code, &prefix);
        used.extend(paths_after(&code, "super::"));
        let targets = used
            .into_iter()
            .filter(|name| modules.contains(name) && *name != module && name != "mod")
            .collect();
        graph.insert(module, targets);
    }
    graph
}

/// A circle in `graph`, as the modules around it, if there is one.
fn a_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        at: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| m == at) {
            let mut circle = path[start..].to_vec();
            circle.push(at.to_string());
            return Some(circle);
        }
        if done.contains(at) {
            return None;
        }
        path.push(at.to_string());
        for next in graph.get(at).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(at.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|start| visit(start, graph, &mut Vec::new(), &mut done))
}

/// Every folder under `dir`, `dir` included.
fn folders(dir: &Path, into: &mut Vec<PathBuf>) {
    into.push(dir.to_path_buf());
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a folder reads")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_dir())
        .collect();
    entries.sort();
    for entry in entries {
        folders(&entry, into);
    }
}

#[test]
fn no_file_is_in_an_import_circle_with_another_of_its_folder() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut circles = Vec::new();
    for source in CRATE_SOURCES {
        let root = workspace.join(source);
        let mut all = Vec::new();
        folders(&root, &mut all);
        for dir in all {
            if let Some(circle) = a_circle(&folder_graph(&root, &dir)) {
                let shown = dir.strip_prefix(&workspace).unwrap_or(&dir).display();
                circles.push(format!("{shown}: {}", circle.join(" -> ")));
            }
        }
    }
    assert!(
        circles.is_empty(),
        "files that import each other (put what they share in a file below both):\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_circle_finder_finds_a_circle_and_only_a_circle() {
    let graph = |edges: &[(&str, &str)]| {
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, to) in edges {
            graph
                .entry(from.to_string())
                .or_default()
                .insert(to.to_string());
            graph.entry(to.to_string()).or_default();
        }
        graph
    };
    let layered = graph(&[("a", "b"), ("b", "c"), ("a", "c")]);
    assert_eq!(a_circle(&layered), None);
    let circle = a_circle(&graph(&[("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")]))
        .expect("a -> b -> c -> a");
    assert_eq!(circle.first(), circle.last());
    assert_eq!(circle.len(), 4);
}
