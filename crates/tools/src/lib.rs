//! The command-line tools' private code: reading inputs, reporting
//! errors, the command lines and their help, writing output. Each binary is
//! a thin `main` over one module here; checking a record is
//! `mancala-check`'s, drawing a board `mancala-diagram`'s. Not an API: see
//! README.md. Public only what the binaries call (each tool's `run` and
//! `Args`, [`output::main`]) and what the end-to-end tests check on their
//! own (`stats`' formulas, `diagnostic`'s rendering).

pub mod analyze;
pub mod diagnostic;
mod driver;
pub mod filter;
mod flags;
mod input;
mod matches;
mod meta;
mod moves_arg;
pub mod output;
mod page;
mod pictures;
pub mod play;
mod progress;
pub mod render;
mod seat;
pub mod stats;
pub mod tablebase;
pub mod validate;
mod variation;
