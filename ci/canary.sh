#!/usr/bin/env bash
# ci/canary.sh: the harness's own test. Each canary is a defect planted in
# the game (game-core's `canary` feature, switched on per run); for each one
# this proves that
#   1. a fuzz target or the sweep finds it within the budget stated below,
#      starting from nothing (an empty corpus, the first seed);
#   2. the failure it finds is the planted one (its invariant id or panic);
#   3. `deja from-fuzz` (or the sweep's own bug report) plus `deja shrink`
#      make a recording of at most the stated keys (50 unless the check
#      itself needs more: play.progress needs its 200 keys without progress,
#      state.persist its 512th key; loose-lips a monster named out of sight,
#      which needs a fight at the edge of sight: the explorer first meets one
#      on depth 3 of seed 26, and the walk there with the fights on the way
#      stays 226 keys after shrinking; and free-stumble in the random sweep
#      a giant bat's confusion, the first monster that confuses, which seed
#      10's random walk meets after 57 keys that do not shrink further);
#   4. `deja replay` reproduces that recording's failure.
# A canary that breaks no invariant (a baseline's, or a command that never
# works) is proven by the sweep failing what it moved, and nothing else,
# with no recording to shrink: those have "-" for their keys, and every
# FAILURE line of their sweep must say what the table says.
# A canary no tool catches is a bug in the harness.
#
# Usage: ci/canary.sh [CANARY...]: every canary, or only those named.
#
# The fuzzers run with libFuzzer's -seed=1, so a search goes the same way
# each time; the budgets are several times what the searches take on a
# 2-core machine (the figures are in docs/fuzzing.md). Sanitizers find
# nothing in a planted logic defect, so this uses `-s none` unless
# DEJA_FUZZ_SANITIZER says otherwise.
set -euo pipefail
export DEJA_FUZZ_SANITIZER=${DEJA_FUZZ_SANITIZER:-none}
source "$(dirname "$0")/fuzz-lib.sh"

# canary | finder | budget | what the failure must say | most keys shrunk
#   [| most shrink runs: for a failure that cannot shrink, whose every run
#   replays its whole length (homesick-explore's 200 keys without progress
#   would take hundreds of runs and minutes, a good part of .ci/run's
#   budget, to end where they began; 40 runs prove as much: the shrink
#   tries, keeps the failure, and stays in bounds)]
canaries=(
    "sticky-help|fuzz keys|60|invariant screen.escapable|50"
    "panicking-potion|fuzz intents|60|panic: canary panicking-potion|50"
    "uncharged-refusal|fuzz intents|120|stuck: stuck in the turn loop or invariant clock.time|50"
    "undead-monster|fuzz intents|120|invariant hp.range|50"
    "unpruned-cavern|fuzz mapgen|60|invariant map.connected|50"
    "unpruned-cavern|sweep --bot none --map-size 20x10|400000|invariant map.connected|50"
    "free-stumble|fuzz intents|120|invariant rng.only_with_time|50"
    "free-stumble|sweep --bot random --depths 1..=1|20000|invariant rng.only_with_time|70"
    # One planted defect for each of the other checks.
    "double-step|sweep --bot explorer|100|invariant move.legal|50"
    "lucky-ones|sweep --bot random|2000|invariant combat.rules|50"
    "weak-potion|sweep --bot random|500|invariant hp.explained|50"
    "endless-confusion|sweep --bot random|500|invariant status.rules|50"
    "vanishing-drop|sweep --bot random|200|invariant items.conserved|50"
    "skipped-round|sweep --bot random|100|invariant clock.rounds|50"
    "sleepwalker|sweep --bot explorer|100|invariant monster.notice|50"
    "loose-lips|sweep --bot explorer|2000|invariant message.unseen|260"
    "crowded-start|sweep --bot none|10|invariant spawn.rules|50"
    "stuck-north|fuzz keys|60|invariant key.contract|50"
    "stuck-north|sweep --bot random|200|invariant key.contract|50"
    "blind-spot|sweep --bot random|10|invariant fov.around_player|50"
    "narrow-sight|sweep --bot random|100|invariant fov.oracle|50"
    "crooked-chase|sweep --bot random|500|invariant paths.oracle|200"
    "forgetful-save|sweep --bot random|2000|invariant state.persist|512"
    "homesick-explore|sweep --bot explorer|100|invariant play.progress|400|40"
    "stalling-look|sweep --bot random --hang-seconds 2|500|hang: key <Enter>|50"
    "weak-spawns|sweep --bot explorer --baseline baselines/sweep.ron|500|FAILURE baseline or FAILURE reach|-"
    "warped-frame|sweep --bot explorer|20|invariant frame.oracle|50"
    "shared-dice|sweep --bot explorer|5|invariant rng.streams|50"
    "loose-piles|sweep --bot explorer|1000|invariant inventory.capacity|50"
    "backward-tab|sweep --bot random|500|invariant key.contract|50"
    "short-run|sweep --bot random|500|invariant key.contract|50"
    "half-heard|sweep --bot explorer|20|invariant press.outcome|50"
    "deaf-menu|sweep --bot random|200|invariant key.contract|50"
    # The reach baseline: a teleport that never moves breaks no rule
    # (a teleport with nowhere to go is allowed); only its situation vanishes.
    "fizzling-teleport|sweep --bot explorer --baseline baselines/sweep.ron|500|FAILURE reach: explorer: use.teleport.moved|-"
    # A walk's telling: it names the pile that stopped it.
    "quiet-walk|sweep --bot random|100|invariant key.contract|50"
)

work="$("$repo_root/ci/target-dir.sh")/canary"
rm -rf "$work/runs"
mkdir -p "$work/runs" "$work/recordings"

echo "building deja with the canary feature"
# In the usual target directory (only game-core and harness rebuild), copied
# out so that a later plain build cannot replace it mid-run.
cargo build --release --locked -q -p harness --features canary
deja="$work/deja"
cp "$("$repo_root/ci/target-dir.sh")/release/deja" "$deja"

# ci/fuzz.sh's build directory: the dependencies are built once for both,
# and only the workspace's crates build again with the canary feature
# (cargo keeps both builds; the target binaries are rebuilt by whichever
# script runs, so do not run the two at once).
fuzz_target_dir="$fuzz_dir/target/$DEJA_FUZZ_SANITIZER"
fuzz_run_features=(--features canary)

now() { printf '%s' "$EPOCHREALTIME"; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

only=" $* "
for name in "$@"; do
    if ! printf '%s\n' "${canaries[@]}" | grep -q "^$name|"; then
        echo "ci/canary.sh: no canary named $name; the names are in the table at the top" >&2
        exit 2
    fi
done
chosen() { [ "$only" = "  " ] || [[ "$only" == *" $1 "* ]]; }

# The fuzz targets the chosen canaries need, built before any runs (a build
# under a running fuzzer would replace its binary).
fuzz_built=" "
for entry in "${canaries[@]}"; do
    IFS='|' read -r canary finder _ <<<"$entry"
    chosen "$canary" && [[ $finder == fuzz* ]] || continue
    target=${finder#fuzz }
    [[ "$fuzz_built" == *" $target "* ]] && continue
    if [ "$fuzz_built" = " " ]; then
        fuzz_install
        fuzz_choose_toolchain
    fi
    fuzz_build "$fuzz_target_dir" "$target" --features canary
    fuzz_built+="$target "
done

# The canaries run side by side, one per core (ci/lanes.sh): a fuzzer, a
# shrink and a replay are one thread each, so a sweep gets the cores left
# to its lane. A canary's budget holds with its lane sharing the machine.
source "$(dirname "$0")/lanes.sh"
sweep_jobs=$(( $(nproc 2>/dev/null || echo 1) / lanes ))
[ "$sweep_jobs" -ge 1 ] || sweep_jobs=1

# prove N ENTRY: one canary of the table, in its directory runs/N-NAME: its
# output to log, its line of the summary to summary, and a file failed when
# a step fails.
prove() {
    local n=$1 entry=$2
    local canary finder budget expected max_keys max_tries
    IFS='|' read -r canary finder budget expected max_keys max_tries <<<"$entry"
    # "A or B" in the table (which cannot hold a "|") is either, for grep.
    expected=${expected// or /\\|}
    local run="$work/runs/$n-$canary"
    mkdir -p "$run"
    exec >"$run/log" 2>&1
    fail() {
        echo "FAIL $canary ($finder): $*"
        printf '%-18s %-44s FAIL: %s\n' "$canary" "$finder" "$*" >"$run/summary"
        : >"$run/failed"
    }
    echo
    echo "==> $canary: $finder, budget $budget $([[ $finder == fuzz* ]] && echo seconds || echo seeds)"
    local start found="" took status
    start=$(now)
    case "$finder" in
        fuzz*)
            target=${finder#fuzz }
            if DEJA_FUZZ_CANARIES=$canary fuzz_run "$fuzz_target_dir" "$target" "$budget" \
                "$run/fuzz.log" "$run/corpus" -- -seed=1 -artifact_prefix="$run/"; then
                fail "not found in ${budget}s of fuzzing ($fuzz_runs runs); log: $run/fuzz.log"
                return
            fi
            took=$(elapsed "$start")
            if [ -z "$fuzz_artifact" ]; then
                fail "the fuzzer stopped without an artifact; log: $run/fuzz.log"
                return
            fi
            if ! grep -q -- "$expected" "$run/fuzz.log"; then
                fail "the fuzzer found something else: $(grep -m1 'deja fuzz target' "$run/fuzz.log")"
                return
            fi
            echo "found in ${took}s after $fuzz_runs runs: $fuzz_artifact"
            if [ "$target" = mapgen ]; then
                # A floor is not a run of the game: the sweep below makes
                # this canary's recording. Found is what this line proves.
                printf '%-18s %-44s found in %6ss (a floor; the sweep makes its recording)' "$canary" "$finder" "$took" >"$run/summary"
                return
            fi
            status=0
            "$deja" from-fuzz "$target" "$fuzz_artifact" --canary "$canary" -o "$run/found.ron" \
                2>"$run/from-fuzz.err" || status=$?
            if [ "$status" -ne 4 ]; then
                fail "from-fuzz did not reproduce the failure (exit $status): $(cat "$run/from-fuzz.err")"
                return
            fi
            found="$run/found.ron"
            ;;
        sweep*)
            status=0
            # shellcheck disable=SC2086 # the finder's options split into words
            "$deja" sweep ${finder#sweep } --seeds "1..$((budget + 1))" --canary "$canary" --jobs "$sweep_jobs" \
                --fail-fast --save-failures "$run/failures" >"$run/sweep.out" 2>"$run/sweep.err" \
                || status=$?
            took=$(elapsed "$start")
            if [ "$status" -ne 4 ]; then
                fail "the sweep of $budget seeds found nothing (exit $status); $(tail -n 1 "$run/sweep.err")"
                return
            fi
            if [ "$max_keys" = "-" ]; then
                # No run to shrink: the sweep failing what moved is the proof.
                if ! grep -q -- "$expected" "$run/sweep.out"; then
                    fail "the sweep failed, but not with $expected: $(grep -m1 '^FAILURE' "$run/sweep.out")"
                    return
                fi
                if grep '^FAILURE' "$run/sweep.out" | grep -qv -- "$expected"; then
                    fail "the sweep failed with more than $expected: $(grep '^FAILURE' "$run/sweep.out" | grep -v -m1 -- "$expected")"
                    return
                fi
                moved=$(grep -c -- "$expected" "$run/sweep.out")
                echo "found in ${took}s: $moved sweep failures: $(grep -m1 -- "$expected" "$run/sweep.out")"
                printf '%-18s %-44s found in %6ss, %s sweep failures (%s)' "$canary" "${finder%% --baseline*}" "$took" "$moved" "$expected" >"$run/summary"
                return
            fi
            # The sweep's first failure (with --fail-fast, its lowest failing
            # seed: the same whatever the scheduling) and the file it saved;
            # a hang is told on stderr by the watchdog, which ends the sweep.
            found=$(sed -n 's/^  reproduce: deja replay //p' "$run/sweep.out" "$run/sweep.err" \
                | head -n 1)
            if [ -z "$found" ]; then
                fail "the sweep failed but saved no recording; see $run/sweep.err"
                return
            fi
            echo "found in ${took}s: $(grep -m1 '^FAILURE' "$run/sweep.out" "$run/sweep.err" | cut -d: -f2-)"
            ;;
    esac

    tries=()
    if [ -n "${max_tries:-}" ]; then
        tries=(--max-tries "$max_tries")
    fi
    if ! "$deja" shrink "$found" -o "$run/small.ron" "${tries[@]}" >"$run/shrink.out" 2>&1; then
        fail "shrink failed: $(cat "$run/shrink.out")"
        return
    fi
    cat "$run/shrink.out"
    keys=$(sed -n 's/.* -> \([0-9]*\) keys\{0,1\},.*/\1/p' "$run/shrink.out")
    before=$(sed -n 's/.*: \([0-9]*\) keys\{0,1\} -> .*/\1/p' "$run/shrink.out")
    if [ -z "$keys" ] || [ "$keys" -gt "$max_keys" ]; then
        fail "shrunk to ${keys:-?} keys, over the $max_keys-key limit"
        return
    fi
    status=0
    "$deja" replay "$run/small.ron" >"$run/replay.out" 2>&1 || status=$?
    if [ "$status" -ne 4 ] || ! grep -q -- "reproduced at step .*$expected" "$run/replay.out"; then
        fail "deja replay did not reproduce it (exit $status): $(cat "$run/replay.out")"
        return
    fi
    cp "$run/small.ron" "$work/recordings/$canary.ron"
    printf '%-18s %-44s found in %6ss, keys %4s -> %2s, replay reproduces' "$canary" "$finder" "$took" "$before" "$keys" >"$run/summary"
}

echo "proving the canaries, $lanes at a time; each one's output follows when all are done"
work_list=()
n=0
for entry in "${canaries[@]}"; do
    n=$((n + 1))
    IFS='|' read -r canary _ <<<"$entry"
    chosen "$canary" || continue
    work_list+=("$work/runs/$n-$canary")
    lanes_start prove "$n" "$entry"
done
lanes_finish

# Each canary's output in the table's order, then the summary.
summary=()
failures=0
for run in "${work_list[@]}"; do
    cat "$run/log"
    if [ -s "$run/summary" ]; then
        summary+=("$(cat "$run/summary")")
    else
        summary+=("$(basename "$run"): ended without a result; see $run/log")
        : >"$run/failed"
    fi
    if [ -e "$run/failed" ]; then
        failures=$((failures + 1))
    fi
done

echo
echo "canaries (budgets: fuzz in seconds, sweeps in seeds):"
printf '  %s\n' "${summary[@]}"
echo "shrunk recordings: $work/recordings/"
if [ "$failures" -gt 0 ]; then
    echo "$failures canary check(s) failed: the harness missed a planted defect" >&2
    exit 1
fi
echo "every canary found; every recording shrunk within its limit and reproduced"
