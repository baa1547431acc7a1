# Shared by ci/fuzz.sh and ci/canary.sh (sourced, not run): independent
# single-threaded jobs (a libFuzzer run, a shrink, a replay) side by side,
# one per core, each writing its own files; the caller prints them in order.
#
# DEJA_LANES sets how many run at once (default: the number of cores).

lanes=${DEJA_LANES:-$(nproc 2>/dev/null || echo 1)}
if ! [[ "$lanes" =~ ^[1-9][0-9]{0,2}$ ]]; then
    echo "DEJA_LANES must be a number of jobs from 1 to 999, not '$lanes'" >&2
    exit 2
fi

# lanes_start CMD...: runs CMD in the background once fewer than $lanes of
# this shell's jobs are running. Its status is not kept: each job records
# its own result in its files.
lanes_start() {
    while [ "$(jobs -rp | wc -l)" -ge "$lanes" ]; do
        wait -n || true
    done
    "$@" &
}

# lanes_finish: waits for every job lanes_start started.
lanes_finish() {
    wait || true
}
