//! Undercroft: a small, complete, turn-based roguelike whose core is a pure,
//! deterministic function of (seed, content, keys).
//!
//! Nothing in this crate reads a clock, a file, the environment, a thread id
//! or an unseeded random source, iterates a hash map, or lets a float reach
//! the state. `clippy.toml` and the lints below enforce it; ARCHITECTURE.md
//! explains the boundary.

#![forbid(unsafe_code)]
#![deny(clippy::float_arithmetic, clippy::float_cmp)]

pub mod content;
pub mod dice;
pub mod geom;
pub mod keys;
pub mod map;
pub mod mapgen;
pub mod paths;
pub mod rng;
pub mod spawn;
