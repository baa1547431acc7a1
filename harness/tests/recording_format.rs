//! docs/recording-format.md shows files and replies "verbatim": each
//! `deja play ... -o FILE` it shows is run here and must write, byte for
//! byte, the `ron` block that follows it; each `$ deja replay` session must
//! print what it shows and exit with its code; and the worked example of a
//! per-step hash line must name that file's own bytes. So the page cannot
//! fall behind the format (a new fingerprint, a new version, new hashes):
//! when this fails after an intended change, copy the files this test
//! writes into the page.

mod support;

use base64::Engine as _;
use support::{run, scratch, shell_words, text};

const DOC: &str = include_str!("../../docs/recording-format.md");

/// The page's fenced blocks, in order: (info string, body).
fn blocks() -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in DOC.lines() {
        if let Some(info) = line.strip_prefix("```") {
            match open.take() {
                Some(block) => found.push(block),
                None => open = Some((info.to_string(), String::new())),
            }
            continue;
        }
        if let Some((_, body)) = open.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    found
}

#[test]
fn the_files_and_replies_the_page_shows_are_what_deja_writes_and_says() {
    let dir = scratch("recording-format", "page");
    let blocks = blocks();
    let (mut files, mut sessions) = (0, 0);
    for (i, (info, body)) in blocks.iter().enumerate() {
        let line = body.trim();
        if info == "sh" && line.starts_with("deja play ") && line.contains(" -o ") {
            let args = shell_words(line);
            let args: Vec<&str> = args[1..].iter().map(String::as_str).collect();
            let out = run(&args, &dir);
            let file = args[args.iter().position(|a| *a == "-o").unwrap() + 1];
            let written = std::fs::read_to_string(dir.join(file))
                .unwrap_or_else(|e| panic!("{line}: no {file}: {e}\n{}", text(&out.stderr)));
            let (next_info, shown) = &blocks[i + 1];
            assert_eq!(next_info, "ron", "the block after `{line}` shows the file");
            assert_eq!(
                shown.trim_end(),
                written.trim_end(),
                "docs/recording-format.md shows another {file} than `{line}` writes (it is in {})",
                dir.display()
            );
            files += 1;
        }
        if info.is_empty() && line.starts_with("$ deja replay ") {
            let lines: Vec<&str> = line.lines().collect();
            let args = shell_words(lines[0].trim_start_matches("$ "));
            let args: Vec<&str> = args[1..].iter().map(String::as_str).collect();
            let out = run(&args, &dir);
            assert_eq!(
                text(&out.stdout).trim_end(),
                lines[1],
                "what `{}` prints",
                lines[0]
            );
            assert_eq!(lines[2], "$ echo $?");
            assert_eq!(out.status.code(), lines[3].parse().ok(), "{}", lines[0]);
            sessions += 1;
        }
    }
    assert!(
        files >= 2 && sessions >= 2,
        "{files} files and {sessions} sessions"
    );

    // The worked example of a per-step line names walk.ron's own bytes.
    let walk = std::fs::read_to_string(dir.join("walk.ron")).unwrap();
    let line = walk.split("per_step: [").nth(1).unwrap();
    // Eight characters are six whole bytes: step 0's four, and two more.
    let first8: String = line
        .trim_start()
        .trim_start_matches('"')
        .chars()
        .take(8)
        .collect();
    let bytes = base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(&first8)
        .unwrap();
    let checkpoint = walk.split("(step: 0, hash: \"").nth(1).unwrap();
    let checkpoint = &checkpoint[..16];
    let said = format!(
        "`walk.ron`'s line starts `{first8}`, whose first four bytes are `{:02x} {:02x} {:02x} {:02x}`: step 0's hash ends in `{}`, as its checkpoint `{checkpoint}` does",
        bytes[0],
        bytes[1],
        bytes[2],
        bytes[3],
        &checkpoint[8..]
    );
    let page = DOC.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(page.contains(&said), "the page should say: {said}");
}
