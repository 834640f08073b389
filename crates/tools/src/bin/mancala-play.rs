//! `mancala-play`: plays games between engines or people and writes their
//! records (the tool itself is `mancala_tools::play`).

use std::process::ExitCode;

fn main() -> ExitCode {
    mancala_tools::output::main(mancala_tools::play::run)
}
