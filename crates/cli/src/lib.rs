//! Code shared by the three command-line tools.

pub mod diagram;
