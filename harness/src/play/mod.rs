//! Playing in a terminal and watching: the raw terminal, a play session
//! that records every key, the recording viewer and its terminal loop,
//! movies of a recording, and the frames play and replay print. Uses replay
//! (the viewer's timeline, a session's shrink, a replay's hang), the runner,
//! the recording format and the plumbing.

pub mod frames;
pub mod session;
pub mod terminal;
pub mod viewer;
pub mod watch;
