#!/usr/bin/env bash
# ci/replay.sh: the README's first command, twice, byte for byte; then every
# recording in recordings/ replayed. A replay that drifts (exit 3) or meets a
# failure (exit 4) fails this; `deja bless` after an intended rule change.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n--> %s\n' "$*"; }

step "smoke: the README's first command, twice"
first=$(cargo run --release --locked -q -p harness -- play --seed 7 --keys 'llll>')
second=$(cargo run --release --locked -q -p harness -- play --seed 7 --keys 'llll>')
if [ "$first" != "$second" ]; then
    echo "deja play printed different frames for the same seed and keys" >&2
    exit 1
fi
printf '%s\n' "$first"

step "replay every recording in recordings/"
shopt -s nullglob
recordings=(recordings/*.ron)
if [ ${#recordings[@]} -eq 0 ]; then
    echo "recordings/ holds no recordings" >&2
    exit 1
fi
cargo run --release --locked -q -p harness -- replay "${recordings[@]}"
