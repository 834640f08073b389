//! The notation crate's integration tests in one test binary, one module
//! per area (`cargo test -p mancala-notation --test tests roundtrip::`).
//! Insta names a snapshot after the module: `snapshots/tests__fixtures__*`.

mod fixtures;
mod roundtrip;
