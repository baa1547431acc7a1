#!/usr/bin/env bash
# ci/fuzz.sh [SECONDS]: runs every cargo-fuzz target for SECONDS each
# (default 60) from the committed corpus, and fails if any target crashes,
# printing the command that turns the crash into a recording.
#
# AddressSanitizer on nightly when one is installed, else stable with
# `-s none` (DEJA_FUZZ_SANITIZER=none|address chooses). The parsers keep
# libFuzzer's trace-compares hooks, in a build of their own, unless
# DEJA_FUZZ_TRACE_COMPARES=none (one build for every target; .ci/run). Installs cargo-fuzz
# when missing. New corpus inputs go to fuzz/target/corpus/TARGET, not into
# the committed corpus: merge the ones that earn their place by hand
# (docs/fuzzing.md).
set -euo pipefail
source "$(dirname "$0")/fuzz-lib.sh"

seconds=${1:-60}
if ! [[ "$seconds" =~ ^[1-9][0-9]{0,5}$ ]]; then
    echo "usage: ci/fuzz.sh [SECONDS]  (SECONDS per target, 1 to 999999; got '$seconds')" >&2
    exit 2
fi

fuzz_install
fuzz_choose_toolchain
target_dir="$fuzz_dir/target/$fuzz_sanitizer"
targets=$(cd "$fuzz_dir" && cargo fuzz list)
for target in $targets; do
    fuzz_build "$target_dir" "$target"
done

logs="$fuzz_dir/target/logs"
mkdir -p "$logs"
failed=()
summary=()
for target in $targets; do
    echo "--> $target for ${seconds}s"
    log="$logs/$target.log"
    if fuzz_run "$target_dir" "$target" "$seconds" "$log" \
        "$fuzz_dir/target/corpus/$target" "$fuzz_dir/corpus/$target"; then
        result=ok
    else
        result=CRASH
        failed+=("$target")
        grep -m1 -A3 -E 'deja fuzz target|panicked at|ERROR: libFuzzer|ERROR: AddressSanitizer' "$log" >&2 || tail -n 30 "$log" >&2
        if [ -z "$fuzz_artifact" ]; then
            echo "no artifact was written; see $log" >&2
        elif [ "$target" = intents ] || [ "$target" = keys ]; then
            echo "turn it into a recording with:" >&2
            echo "  cargo run --release -p harness -- from-fuzz $target $fuzz_artifact -o failure.ron" >&2
            echo "  cargo run --release -p harness -- shrink failure.ron -o small.ron" >&2
        else
            echo "reproduce it with: (cd fuzz && cargo fuzz run $target $fuzz_artifact)" >&2
        fi
    fi
    summary+=("$(printf '%-10s %-6s %12s runs %8s execs/s' "$target" "$result" "${fuzz_runs:-?}" "${fuzz_execs_per_sec:-?}")")
done

echo
echo "fuzzed each target for ${seconds}s (sanitizer: $fuzz_sanitizer):"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "crashed: ${failed[*]} (logs in $logs)" >&2
    exit 1
fi
