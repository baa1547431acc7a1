#!/usr/bin/env bash
# ci/target-dir.sh: prints the directory cargo builds this workspace into:
# `target/` at the root, or wherever CARGO_TARGET_DIR (or a cargo config's
# build.target-dir) puts it. The scripts that run a binary cargo built ask
# here instead of assuming `target/`, which fails with exit 127 when the
# target directory is elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
# `cargo metadata` says it as JSON; the one field is picked out with sed
# (no JSON tool is assumed on a CI machine). A path holding a `"` or a
# backslash, which JSON escapes, is refused rather than misread.
dir=$(cargo metadata --format-version 1 --no-deps --locked |
    sed -n 's/.*"target_directory":"\([^"\\]*\)".*/\1/p')
if [ -z "$dir" ]; then
    echo "ci/target-dir.sh: cargo metadata named no target directory this script can read" >&2
    exit 1
fi
printf '%s\n' "$dir"
