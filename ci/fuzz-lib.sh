# Shared by ci/fuzz.sh and ci/canary.sh (sourced, not run): the cargo-fuzz
# toolchain choice, builds and one bounded libFuzzer run.
#
# Toolchain: AddressSanitizer on nightly when a nightly toolchain is
# installed, else stable with `-s none`. DEJA_FUZZ_SANITIZER=none|address
# overrides the choice.

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fuzz_dir="$repo_root/fuzz"

# Installs cargo-fuzz when it is missing (about a minute).
fuzz_install() {
    if ! cargo fuzz --version >/dev/null 2>&1; then
        echo "cargo-fuzz is missing: installing it"
        cargo install cargo-fuzz --locked
    fi
    cargo fuzz --version
}

# Sets fuzz_cargo (the cargo command, with +nightly for ASan) and
# fuzz_sanitizer.
fuzz_choose_toolchain() {
    local wanted=${DEJA_FUZZ_SANITIZER:-}
    if [ -z "$wanted" ]; then
        if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
            wanted=address
        else
            wanted=none
        fi
    fi
    case "$wanted" in
        address) fuzz_cargo=(cargo +nightly) ;;
        none) fuzz_cargo=(cargo) ;;
        *)
            echo "DEJA_FUZZ_SANITIZER must be none or address, not '$wanted'" >&2
            return 2
            ;;
    esac
    fuzz_sanitizer=$wanted
    case ${DEJA_FUZZ_TRACE_COMPARES:-parsers} in
        parsers | none) ;;
        *)
            echo "DEJA_FUZZ_TRACE_COMPARES must be parsers or none, not '$DEJA_FUZZ_TRACE_COMPARES'" >&2
            return 2
            ;;
    esac
    echo "fuzzing with sanitizer: $fuzz_sanitizer (${fuzz_cargo[*]})"
}

# How a target is instrumented. The game targets (intents, keys, mapgen)
# compare game state, not input bytes, yet libFuzzer's trace-compares hooks
# took three quarters of their time (perf: 817 against 4,160 execs/s on
# 64-intent inputs); their inputs are structured by `arbitrary` and the keys
# target has a dictionary, so they build without them. The parsers
# (recording, content) compare input against keywords and keep them. Each
# kind builds into its own directory under the target dir, as cargo-fuzz
# rebuilds whenever the flags change.
#
# DEJA_FUZZ_TRACE_COMPARES=none builds the parsers without the hooks too, so
# every target shares one build: .ci/run's 20-second smoke would otherwise
# pay a second full build for two targets.
# (fuzz_choose_toolchain checks the value.)
fuzz_kind() {
    if [ "${DEJA_FUZZ_TRACE_COMPARES:-parsers}" = none ]; then
        echo game
        return
    fi
    case $1 in
        recording | content) echo parser ;;
        *) echo game ;;
    esac
}
fuzz_build_options() {
    if [ "$(fuzz_kind "$1")" = game ]; then
        echo --no-trace-compares
    fi
}

# fuzz_build TARGET_DIR TARGET [cargo fuzz build options...]
fuzz_build() {
    local target_dir=$1 target=$2
    shift 2
    # shellcheck disable=SC2046 # the options are single words
    (cd "$fuzz_dir" && "${fuzz_cargo[@]}" fuzz build -s "$fuzz_sanitizer" \
        $(fuzz_build_options "$target") --target-dir "$target_dir/$(fuzz_kind "$target")" \
        "${fuzz_features[@]}" "$@" "$target")
}

# fuzz_run TARGET_DIR TARGET SECONDS LOG CORPUS_DIR... [-- libFuzzer options]
#
# Runs one target, built as fuzz_build builds it, for SECONDS from the
# given corpus directories (new inputs go to the first), writing libFuzzer's
# output to LOG. Returns libFuzzer's status: 0 when the time ran out with no
# crash. Sets fuzz_artifact to the
# crash input when there is one, and fuzz_execs_per_sec, fuzz_runs.
fuzz_run() {
    local target_dir=$1 target=$2 seconds=$3 log=$4
    shift 4
    local dirs=() options=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        dirs+=("$1")
        shift
    done
    [ $# -gt 0 ] && shift
    options=("$@")
    if [ "$target" = keys ]; then
        options+=("-dict=$fuzz_dir/keys.dict")
    fi
    mkdir -p "${dirs[0]}"
    local status=0
    # shellcheck disable=SC2046 # the options are single words
    (cd "$fuzz_dir" && "${fuzz_cargo[@]}" fuzz run -s "$fuzz_sanitizer" \
        $(fuzz_build_options "$target") --target-dir "$target_dir/$(fuzz_kind "$target")" \
        "${fuzz_run_features[@]}" "$target" "${dirs[@]}" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 "${options[@]}") >"$log" 2>&1 || status=$?
    fuzz_artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
    fuzz_execs_per_sec=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    fuzz_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    return $status
}

# The features every build and run has: DEJA_FUZZ_FEATURES=canary builds
# the targets with the planted defects compiled in (each still off unless
# DEJA_FUZZ_CANARIES names it), which is how ci/canary.sh builds them: .ci/run
# sets it for its fuzz smoke, so the canaries reuse that build instead of
# paying another of the workspace's crates (about 160 s on 2 cores).
fuzz_features=()
if [ -n "${DEJA_FUZZ_FEATURES:-}" ]; then
    fuzz_features=(--features "$DEJA_FUZZ_FEATURES")
fi
# The `cargo fuzz run` options (features) for fuzz_run: the build's;
# ci/canary.sh sets them to its own.
fuzz_run_features=("${fuzz_features[@]}")
