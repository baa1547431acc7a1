//! Content: monsters and items, loaded from RON.

mod schema;

pub use schema::*;
