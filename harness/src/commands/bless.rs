//! `deja bless`: follow an intended rule change by re-recording the hashes,
//! outcome and version of recordings, keeping their seed, keys and note.

use crate::cli::BlessArgs;
use crate::exit;
use crate::recording::{self, Recording};
use crate::replay;

pub fn run(args: BlessArgs) -> Result<u8, String> {
    let content = super::load_content(&args.content)?;
    let mut worst = exit::OK;
    for file in &args.files {
        let result = recording::read(file).and_then(|old| {
            let mut runner = replay::start(&old, content.clone())?;
            for &key in &old.keys {
                if runner.press(key).is_err() {
                    break;
                }
            }
            if let Some(failure) = runner.failure() {
                let expected = old
                    .failure
                    .as_ref()
                    .is_some_and(|f| f.step == failure.step && f.kind.same_as(&failure.kind));
                if !expected {
                    return Err(format!(
                        "{}: fails at step {} ({}); not blessed. Fix the failure, or replay it to see it",
                        file.display(),
                        failure.step,
                        failure.kind
                    ));
                }
            }
            let mut new = runner.recording(old.note.clone());
            new.origin = old.origin.clone();
            let changes = changes(&old, &new);
            if changes.is_empty() {
                super::out(format_args!("{}: unchanged", file.display()))?;
            } else {
                recording::write(file, &new)?;
                super::out(format_args!("{}: blessed: {}", file.display(), changes.join("; ")))?;
            }
            Ok(())
        });
        if let Err(message) = result {
            let name = file.display().to_string();
            if message.starts_with(&name) {
                eprintln!("error: {message}");
            } else {
                eprintln!("error: {name}: {message}");
            }
            worst = worst.max(if message.contains("not blessed") {
                exit::FAILURE
            } else {
                exit::ERROR
            });
        }
    }
    Ok(worst)
}

/// What a re-recording changed, in words.
fn changes(old: &Recording, new: &Recording) -> Vec<String> {
    let mut found = Vec::new();
    if old.game_version != new.game_version || old.game_name != new.game_name {
        found.push(format!(
            "version {} {} -> {} {}",
            old.game_name, old.game_version, new.game_name, new.game_version
        ));
    }
    if old.content != new.content {
        found.push(format!(
            "content {:016x} -> {:016x}",
            old.content, new.content
        ));
    }
    if let Some(step) = old
        .step_hashes
        .iter()
        .zip(&new.step_hashes)
        .position(|(a, b)| a != b)
        .or_else(|| {
            (old.step_hashes.len() != new.step_hashes.len())
                .then(|| old.step_hashes.len().min(new.step_hashes.len()))
        })
    {
        found.push(format!("state hashes differ from step {step}"));
    } else if old.checkpoints != new.checkpoints {
        found.push("checkpoint hashes differ".into());
    }
    if old.outcome != new.outcome {
        found.push(format!("outcome {} -> {}", old.outcome, new.outcome));
    }
    if old.failure != new.failure {
        match (&old.failure, &new.failure) {
            (Some(f), None) => {
                found.push(format!("the failure at step {} no longer happens", f.step))
            }
            _ => found.push("failure details changed".into()),
        }
    }
    found
}
