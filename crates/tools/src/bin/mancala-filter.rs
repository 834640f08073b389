//! `mancala-filter`: selects records from a collection and writes them as
//! they were read (the tool itself is `mancala_tools::filter`).

use std::process::ExitCode;

fn main() -> ExitCode {
    mancala_tools::output::main(mancala_tools::filter::run)
}
