//! The root package's integration tests, one module per area, linked into
//! one test binary (as ripgrep's `tests/tests.rs` is): fifteen binaries
//! cost fifteen links of the same dependencies on every change.
//!
//! Run one area with its module's path: `cargo test --test tests validate::`.
//! Insta names a snapshot after the module, so `tests/snapshots/` holds
//! `tests__<module>__<name>.snap`.

mod common;

mod adversarial;
mod analyze;
mod annotated;
mod browser;
mod discover;
mod docs;
// Public, as it was at a crate root of its own: `expand_bulk` serves the
// cargo-fuzz targets (crates/fuzz), which include tests/fuzz.rs by path.
pub mod fuzz;
mod hostile;
mod pictures;
mod pipeline;
mod play;
mod render;
mod replay;
mod seat;
mod validate;
