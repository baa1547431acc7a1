//! Nothing: the package is its bench, benches/compare.rs.
