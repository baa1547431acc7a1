# Sourced by ci/test.sh and .ci/run before a `cargo test`: builds the
# workspace's crates with clippy-driver, rustc with clippy's lints, as the
# compiler wrapper (which is all `cargo clippy` is, over `cargo check`), so
# the compile that builds the tests lints them too, every lint an error as
# with -D warnings. It reaches only the workspace's crates, never a
# dependency. Cargo keeps a build with the wrapper apart from one without,
# so every `cargo test` of one CI run sources this, or it builds the
# workspace again.
export RUSTC_WORKSPACE_WRAPPER=clippy-driver
export CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__
