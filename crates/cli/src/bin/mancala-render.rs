//! `mancala-render`: draws records and positions as diagrams (the tool
//! itself is `mancala_cli::render`).

use std::process::ExitCode;

fn main() -> ExitCode {
    mancala_cli::output::main(mancala_cli::render::run)
}
