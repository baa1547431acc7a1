#!/usr/bin/env bash
# ci/replay.sh: the README's first command, twice, byte for byte; then every
# recording in recordings/ replayed. A replay that drifts (exit 3) or meets a
# failure (exit 4) fails this; `deja bless` after an intended rule change.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n--> %s\n' "$*"; }

step "smoke: the README's first command, twice"
first=$(cargo run --release --locked -q -p harness -- play --seed 2700 --keys 'kkkk>')
second=$(cargo run --release --locked -q -p harness -- play --seed 2700 --keys 'kkkk>')
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

step "a build without canaries: a canary recording replays as the game without the defect, saying so; planting one is refused"
# The test build has the canary feature, so this is checked here, with the
# release build the README's first command made (tests/readme.rs checks the
# verdict "fixed" on a real bug report).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
planted="$scratch/planted.ron"
sed 's/canaries: \[\],/canaries: ["sticky-help"],/' recordings/win.ron >"$planted"
deja() { cargo run --release --locked -q -p harness -- "$@"; }
said=$(deja replay "$planted" 2>&1) || true
if [[ "$said" != *"warning: $planted: recorded with the planted defect sticky-help, which this build does not have"* ]]; then
    printf 'deja replay %s: no warning naming the file and the defect:\n%s\n' "$planted" "$said" >&2
    exit 1
fi
if said=$(deja play --seed 3 --keys 'l' --canary sticky-help 2>&1); then
    echo "deja play --canary: planted a defect in a build without canaries" >&2
    exit 1
fi
if [[ "$said" != *"build with --features canary"* ]]; then
    printf 'deja play --canary: the refusal does not say what to do:\n%s\n' "$said" >&2
    exit 1
fi
echo "the replay warns about $planted, and play refuses to plant"
