//! The English the mancala tools write, kept out of the libraries: the
//! libraries say what is wrong or what a thing is as values (kinds with
//! their data), and this crate turns them into the text a person reads.
//! The tools call it; no library depends on it.
//!
//! Today it holds the variant options' help text ([`option_meaning`]).

use mancala_rules::Opt;

/// What the option does, in a line (for help texts and listings).
#[must_use]
pub const fn option_meaning(opt: Opt) -> &'static str {
    match opt {
        Opt::SameDirection => "both players sow counter-clockwise; no direction is chosen",
        Opt::SeriesCapture => "the capture goes on along alternating empty / non-empty holes",
        Opt::SkipOrigin => "a lap skips the hole it started from",
        Opt::EndlessEndsGame => {
            "an endless move is legal and ends the game (or round), the board unchanged, the turn passed"
        }
        Opt::NoRepetitionRule => {
            "no end by a repeated position (Oware's first repeat, the others' third occurrence)"
        }
        Opt::PlayToEnd => "reaching 25 captured does not end the game",
        Opt::PasuToOwner => "a four made while sowing goes to the owner of its row",
        Opt::NoPasuOnLastSeed => "a lap's last seed never makes a four that is taken",
        Opt::CaptureOpposite => "a capture also takes the hole facing the captured one",
        Opt::SingleRound => "the game is a single round, not a match",
        Opt::Clockwise => "both players sow clockwise",
        Opt::FiveHoles => "a board of 2 x 5 holes (40 stones)",
        Opt::EmptyCapture => {
            "the last seed in an empty own house is taken even when the house facing it is empty"
        }
        Opt::GrandSlamTakesAll => "a capture that would take the opponent's every seed takes them",
        Opt::GrandSlamLeavesOne => {
            "a capture that would take the opponent's every seed leaves the chain's furthest hole"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every option has a line, and no line ends a sentence: help texts
    /// write them after the option's name.
    #[test]
    fn every_option_has_a_meaning() {
        for opt in Opt::ALL {
            let meaning = option_meaning(opt);
            assert!(!meaning.is_empty() && !meaning.ends_with('.'), "{opt}");
        }
    }
}
