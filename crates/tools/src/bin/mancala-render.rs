//! `mancala-render`: draws records and positions as diagrams (the tool
//! itself is `mancala_tools::render`).

use std::process::ExitCode;

fn main() -> ExitCode {
    mancala_tools::output::main(mancala_tools::render::run)
}
