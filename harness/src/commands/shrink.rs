//! `deja shrink`: the smallest recording that still fails the same way.

use crate::cli::ShrinkArgs;
use crate::exit;
use crate::shrink::count_keys;

pub fn run(args: ShrinkArgs) -> Result<u8, String> {
    let recording = crate::recording::read(&args.file)?;
    let content_files = args.content.files();
    let inputs: Vec<&std::path::Path> = std::iter::once(args.file.as_path())
        .chain(content_files.iter().map(|p| p.as_path()))
        .collect();
    crate::files::check_output_file(&args.output, &inputs)?;
    let content = super::load_content(&args.content)?;
    let shrunk = crate::shrink::shrink(
        &recording,
        content,
        args.content.content.as_deref(),
        args.max_tries,
    )
    .map_err(|e| format!("{}: {e}", args.file.display()))?;
    crate::recording::write(&args.output, &shrunk.recording)?;
    let failure = shrunk
        .recording
        .failure
        .as_ref()
        .map_or_else(String::new, |f| format!(" (step {}: {})", f.step, f.kind));
    super::out(format!(
        "{}: {} -> {}, the same failure{failure}; {} runs tried{}",
        args.file.display(),
        count_keys(shrunk.keys_before),
        count_keys(shrunk.keys_after),
        shrunk.tries,
        if shrunk.budget_spent {
            " (the budget ran out; a larger --max-tries may shrink further)"
        } else {
            ""
        }
    ))?;
    super::out(format!(
        "wrote {}; reproduce with: deja replay {}",
        args.output.display(),
        args.output.display()
    ))?;
    Ok(exit::OK)
}
