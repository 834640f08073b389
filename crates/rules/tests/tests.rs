//! The rules crate's integration tests, one module per area, linked into
//! one test binary (one link of the crate and its dev-dependencies, not
//! seven). Run one area with its module's path:
//! `cargo test -p mancala-rules --test tests perft::`.

mod common;
mod reference;

mod differential;
mod game_rules;
mod openings;
mod perft;
mod properties;
mod rounds;
mod worked_examples;
