//! `mancala-play`: plays games between engines or people and writes their
//! records (the tool itself is `mancala_cli::play`).

use std::process::ExitCode;

fn main() -> ExitCode {
    mancala_cli::output::main(mancala_cli::play::run)
}
