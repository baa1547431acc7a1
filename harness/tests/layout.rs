//! The harness's layout holds: each folder of `harness/src` uses only the
//! folders ARCHITECTURE.md's code map lets it use, so the arrows point one
//! way (cli -> commands -> capabilities -> run -> recording -> plumbing)
//! and no module is in an import circle with a module of another folder;
//! and no function in game-core/src, checks/src or harness/src runs over
//! 100 lines.
//!
//! Read from the source, as `game-core/tests/purity.rs` reads game-core's:
//! every `crate::` path outside comments and `#[cfg(test)]` modules names the
//! folder (or top-level file) it reaches into.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The folders (and top-level files) of `harness/src` in layers, top
/// first: each may use the layers below its own (and game-core), never its
/// own layer's other folders or a layer above, so no circle can cross
/// folders. Keep it the same as ARCHITECTURE.md's code map.
const LAYERS: &[&[&str]] = &[
    &["cli"],
    &["commands"],
    &["play", "fuzz", "sweep"],
    &["replay", "inspect"],
    &["run"],
    &["recording"],
    &["plumbing"],
];

/// The layer a folder is in, counted from the top.
fn layer_of(folder: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&folder))
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
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

/// The folder a file of `harness/src` belongs to: its first component, or
/// the file's own name for a file at the top (`cli.rs` is `cli`).
fn folder_of(relative: &Path) -> String {
    let first = relative
        .components()
        .next()
        .expect("a path under src")
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    first.strip_suffix(".rs").unwrap_or(&first).to_string()
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
                .is_some_and(|next| next.trim_start().starts_with("mod "))
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

/// The first path segment after each `crate::` in `code`, with each item of
/// a `crate::{a, b::c}` group.
fn crate_uses(code: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let identifier = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
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
    used
}

/// Which folders each folder uses, with a file that does it for each.
fn folder_uses() -> BTreeMap<String, BTreeMap<String, String>> {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut uses: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for path in files {
        let relative = path.strip_prefix(&root).expect("under src").to_path_buf();
        let folder = folder_of(&relative);
        if folder == "lib" || folder == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a source file reads");
        for used in crate_uses(&code_of(&text)) {
            if used != folder {
                uses.entry(folder.clone())
                    .or_default()
                    .entry(used)
                    .or_insert_with(|| relative.display().to_string());
            }
        }
    }
    uses
}

#[test]
fn every_folder_uses_only_the_layers_below_it() {
    let mut wrong = Vec::new();
    for (folder, used) in folder_uses() {
        let Some(layer) = layer_of(&folder) else {
            wrong.push(format!(
                "{folder}: a folder the layout does not list (add it to LAYERS and ARCHITECTURE.md)"
            ));
            continue;
        };
        for (target, file) in used {
            if layer_of(&target).is_none_or(|below| below <= layer) {
                wrong.push(format!(
                    "{file} uses crate::{target}, which is not in a layer below {folder}'s"
                ));
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
         #[cfg(test)]\n\
         mod tests {\n    use crate::commands;\n}",
    );
    let used: Vec<String> = crate_uses(&code).into_iter().collect();
    assert_eq!(used, ["plumbing", "recording", "replay", "run"]);
}

/// The longest a function may be, in lines from its `fn` to its closing
/// brace (tests aside): past it, a function is split into steps whose names
/// say what they do.
const LONGEST_FUNCTION: usize = 100;

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
        for (name, line, length) in functions(&text) {
            if length > LONGEST_FUNCTION {
                report.push(format!(
                    "{shown}:{line}: {name} is {length} lines, over {LONGEST_FUNCTION}: split it into steps whose names say what they do"
                ));
            }
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
    rust_files(&src(), &mut files);
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
