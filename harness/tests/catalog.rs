//! The seed catalog: every floor of seeds 1 to 25, measured, as a reviewed
//! snapshot (snapshots/seed_catalog.snap). A change to generation or spawning
//! fails this test with insta's diff; review it with `cargo insta review`.

use std::sync::Arc;

use game_core::content::Content;
use harness::sweep::bots::BotKind;
use harness::sweep::{self, DepthRange, Saving, SeedRange, SweepSpec};

#[test]
fn seed_catalog() {
    let spec = SweepSpec {
        seeds: SeedRange { start: 1, end: 26 },
        depths: DepthRange { first: 1, last: 6 },
        bot: BotKind::None,
        keys: 0,
        map_width: game_core::map::DEFAULT_WIDTH,
        map_height: game_core::map::DEFAULT_HEIGHT,
        canaries: Vec::new(),
        shard: None,
        progress_limit: sweep::default_progress_limit(BotKind::None),
    };
    let content = Arc::new(Content::embedded());
    let options = sweep::RunOptions {
        fail_fast: false,
        stop: None,
    };
    let mut results = Vec::new();
    let report = sweep::run(
        &spec,
        &content,
        1,
        &Saving { dir: None },
        options,
        &|_| {},
        &mut |result| results.push(result.clone()),
    )
    .expect("a sweep");
    assert_eq!(
        report.summary.failures, 0,
        "the catalog's seeds keep every floor invariant"
    );
    insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("seed_catalog", sweep::catalog(&results));
    });
}
