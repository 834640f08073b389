//! The engine crate's integration tests in one test binary, one module per
//! area (`cargo test -p mancala-engine --test tests analysis::`).

mod analysis;
mod engines;
