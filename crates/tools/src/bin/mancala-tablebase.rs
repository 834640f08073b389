//! `mancala-tablebase`: builds and checks endgame databases (the tool
//! itself is `mancala_tools::tablebase`).

use std::process::ExitCode;

fn main() -> ExitCode {
    mancala_tools::output::main(mancala_tools::tablebase::run)
}
