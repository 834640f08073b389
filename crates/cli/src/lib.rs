//! Code shared by the three command-line tools: reading inputs, replaying
//! records against the rules, reporting errors, drawing boards, writing
//! output. Each binary is a thin `main` over one module here.

pub mod check;
pub mod diagnostic;
pub mod diagram;
pub mod input;
pub mod meta;
pub mod moves_arg;
pub mod output;
pub mod parallel;
pub mod play;
pub mod render;
pub mod validate;
