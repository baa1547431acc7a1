//! How a run is checked beyond the catalogue: what the runner and the
//! watchdog's trail both keep, and a recording holds.

/// How a run is checked beyond the catalogue, kept in its recording so a
/// replay checks it the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The size the frames the checks read are drawn at, width by height:
    /// a renderer that panics is a failure like any other.
    pub frame: (u16, u16),
    /// The frame at that size is read after every this many keys (steps
    /// 1, 1 + n, ...), as well as on the oracle sample and after a run's
    /// last key: [`checks::FRAME_EVERY`] for the sweeps, the probe and
    /// the fuzz targets; 1 for a player, who sees every frame anyway. A
    /// recording keeps it, so a replay reads the frames its run read.
    pub frame_every: u64,
    /// The oracles run, and the frames are read closely and at the narrow
    /// sizes, after every this many keys (steps 1, 1 + n, ...):
    /// [`checks::ORACLE_EVERY`]; a recording keeps it, so a replay runs
    /// them where its run did.
    pub oracle_every: u64,
    /// For bot runs: the most keys in a row that reveal nothing, change no
    /// floor, fight no one, move no item and come no nearer the unknown or
    /// the way down (`play.progress`).
    pub progress_limit: Option<u64>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            frame: crate::recording::DEFAULT_FRAME,
            frame_every: checks::FRAME_EVERY,
            oracle_every: checks::ORACLE_EVERY,
            progress_limit: None,
        }
    }
}
