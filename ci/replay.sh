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

step "a recording with canaries, which this build (no canary feature) refuses, is named in the refusal"
# The test build has the canary feature, so this refusal is checked here,
# with the release build the README's first command made.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
planted="$scratch/planted.ron"
sed 's/canaries: \[\],/canaries: ["sticky-help"],/' recordings/win.ron >"$planted"
deja() { cargo run --release --locked -q -p harness -- "$@"; }
for command in "replay $planted" "show $planted --at 1" "diff $planted $planted" \
    "replay $planted --cast -o $scratch/x.cast" "bless $planted" "shrink $planted -o $scratch/s.ron"; do
    # shellcheck disable=SC2086 # the command is words on purpose
    if said=$(deja $command 2>&1); then
        echo "deja $command: accepted a recording with canaries in a build without them" >&2
        exit 1
    fi
    if [[ "$said" != *"$planted: canaries are planted defects"* ]]; then
        printf 'deja %s: the refusal does not name the file:\n%s\n' "$command" "$said" >&2
        exit 1
    fi
done
echo "each refusal names $planted"
