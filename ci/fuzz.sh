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

# fuzz_one TARGET: one target's run; its summary line goes to
# $logs/TARGET.summary, what a crash says to $logs/TARGET.report.
fuzz_one() {
    local target=$1 log="$logs/$1.log" result=ok
    : >"$logs/$target.report"
    if ! fuzz_run "$target_dir" "$target" "$seconds" "$log" \
        "$fuzz_dir/target/corpus/$target" "$fuzz_dir/corpus/$target"; then
        result=CRASH
        {
            grep -m1 -A3 -E 'deja fuzz target|panicked at|ERROR: libFuzzer|ERROR: AddressSanitizer' "$log" || tail -n 30 "$log"
            if [ -z "$fuzz_artifact" ]; then
                echo "no artifact was written; see $log"
            elif [ "$target" = intents ] || [ "$target" = keys ]; then
                echo "turn it into a recording with:"
                echo "  cargo run --release -p harness -- from-fuzz $target $fuzz_artifact -o failure.ron"
                echo "  cargo run --release -p harness -- shrink failure.ron -o small.ron"
            else
                echo "reproduce it with: (cd fuzz && cargo fuzz run $target $fuzz_artifact)"
            fi
        } >"$logs/$target.report"
    fi
    printf '%-10s %-6s %12s runs %8s execs/s\n' "$target" "$result" "${fuzz_runs:-?}" \
        "${fuzz_execs_per_sec:-?}" >"$logs/$target.summary"
}

# One libFuzzer process is one thread: the targets run $lanes at a time
# (ci/lanes.sh), each for the whole of its seconds.
source "$(dirname "$0")/lanes.sh"
echo "fuzzing $(echo $targets | wc -w) targets for ${seconds}s each, $lanes at a time"
for target in $targets; do
    rm -f "$logs/$target.summary"
    lanes_start fuzz_one "$target"
done
lanes_finish

failed=()
summary=()
for target in $targets; do
    if ! [ -s "$logs/$target.summary" ]; then
        echo "$target: the fuzz run ended without a result; see $logs/$target.log" >&2
        failed+=("$target")
        continue
    fi
    summary+=("$(cat "$logs/$target.summary")")
    if [ -s "$logs/$target.report" ]; then
        echo "--> $target crashed:" >&2
        cat "$logs/$target.report" >&2
        failed+=("$target")
    fi
done

echo
echo "fuzzed each target for ${seconds}s (sanitizer: $fuzz_sanitizer):"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "crashed: ${failed[*]} (logs in $logs)" >&2
    exit 1
fi
