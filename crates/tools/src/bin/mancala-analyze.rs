//! `mancala-analyze`: writes the engine's analysis into records (the tool
//! itself is `mancala_tools::analyze`).

use std::process::ExitCode;

fn main() -> ExitCode {
    mancala_tools::output::main(mancala_tools::analyze::run)
}
