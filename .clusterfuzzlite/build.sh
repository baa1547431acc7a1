#!/bin/bash -eu
# Builds every cargo-fuzz target for ClusterFuzzLite / OSS-Fuzz and hands
# each its committed corpus as a seed corpus, and the keys target its
# dictionary. The builder's cargo adds the sanitizer's flags itself.
cd "$SRC/deja/fuzz"
cargo fuzz build -O
release=target/x86_64-unknown-linux-gnu/release
for target in $(cargo fuzz list); do
    cp "$release/$target" "$OUT/"
    if [ -d "corpus/$target" ]; then
        (cd "corpus/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
    fi
done
cp keys.dict "$OUT/keys.dict"
