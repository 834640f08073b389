//! The command-line tools' own code: reading inputs, reporting
//! errors, the command lines and their help, writing output, checking in
//! parallel. Each binary is a thin `main` over one module here; checking a
//! record is `mancala-check`'s, drawing a board `mancala-diagram`'s.

pub mod analyze;
pub mod diagnostic;
pub mod filter;
pub mod flags;
pub mod input;
pub mod matches;
pub mod meta;
pub mod moves_arg;
pub mod output;
pub mod page;
pub mod parallel;
pub mod pictures;
pub mod play;
pub mod progress;
pub mod render;
pub mod seat;
pub mod stats;
pub mod tablebase;
pub mod validate;
pub mod variation;
