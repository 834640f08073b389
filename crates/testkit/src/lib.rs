//! Random rules, set-ups and starts for the test suites and the fuzz
//! harness: one generator, so that every suite draws the same kinds of
//! positions and a rule change is made here once.
//!
//! Every function draws from the caller's seeded [`fastrand::Rng`], so a
//! seed names a case. The streams are part of the contract: the rules
//! crate's proptest regression files replay seeds through them, so a change
//! to what is drawn, or in what order, must regenerate those files.

use mancala_rules::{Dir, GameId, Opt, Options, Position, RefillFrom, Rules, Setup, Side};

/// The seed counts a game can be played with (`None` is the default).
#[must_use]
pub fn seed_options(game: GameId) -> Vec<Option<u8>> {
    let mut out = vec![None];
    out.extend(
        game.seed_choices()
            .iter()
            .filter(|&&s| s != game.default_seeds())
            .map(|&s| Some(s)),
    );
    out
}

/// The games the rules crate's reference model (its tests' `reference`
/// module) implements: the four seed games. Kalah and Oware are checked
/// against OpenSpiel instead (crates/bench/benches/openspiel_family.py).
pub const REFERENCE_GAMES: [GameId; 4] = [
    GameId::OlindaKeliya,
    GameId::Olowuka,
    GameId::Pallankuzhi,
    GameId::RioKadalis,
];

/// A random game of [`REFERENCE_GAMES`] with a random seed count and any
/// random set of its flags; now and then a match of at most 1 to 4 rounds.
pub fn random_rules(rng: &mut fastrand::Rng) -> Rules {
    random_rules_of(rng, &REFERENCE_GAMES)
}

/// [`random_rules`] for a game drawn from `games` (some game), with
/// `holes=M` drawn too where the game takes it.
pub fn random_rules_of(rng: &mut fastrand::Rng, games: &[GameId]) -> Rules {
    let game = games[rng.usize(..games.len())];
    let seeds = seed_options(game);
    let mut options = match seeds[rng.usize(..seeds.len())] {
        Some(s) => Options::new().with_seeds(s),
        None => Options::new(),
    };
    let holes = game.descriptor().hole_choices;
    if !holes.is_empty() && rng.bool() {
        options = options.with_holes(holes[rng.usize(..holes.len())]);
    }
    for opt in Opt::ALL {
        // Two readings of the grand slam cannot go together.
        let conflicts = opt == Opt::GrandSlamLeavesOne && options.has(Opt::GrandSlamTakesAll);
        if game.allows(opt) && rng.u8(..3) == 0 && !conflicts {
            options = options.with(opt);
        }
    }
    if game.has_rounds() && !options.has(Opt::SingleRound) && rng.u8(..3) == 0 {
        options = options.with_rounds(rng.u32(1..=4));
    }
    Rules::new(game, options).expect("drawn from the options the game allows")
}

/// A random valid set-up of `rules`: any board with the right total, closed
/// holes where refilling leaves them (games of rounds), random stores, random
/// side to move and (Olinda Keliya) random direction state.
pub fn random_setup(rng: &mut fastrand::Rng, rules: Rules) -> Setup {
    let n = rules.holes();
    let total = rules.total_seeds();
    let mut rows: [Vec<Option<u32>>; 2] = [vec![Some(0); n], vec![Some(0); n]];
    // Holes are closed by refilling: from round 2 of a match (not one that
    // ends after round 1), or in a game of one round set up as a study.
    if rules.game().has_rounds() && rules.last_round() != Some(1) {
        for row in &mut rows {
            if rng.bool() {
                let closed = rng.usize(0..n);
                for k in 0..closed {
                    // A refill from the left closes a row's rightmost
                    // holes, one from the right its leftmost.
                    let i = match rules.game().descriptor().refill {
                        Some(RefillFrom::Left) => n - 1 - k,
                        _ => k,
                    };
                    row[i] = None;
                }
            }
        }
    }
    let open: Vec<(usize, usize)> = (0..2)
        .flat_map(|s| (0..n).map(move |i| (s, i)))
        .filter(|&(s, i)| rows[s][i].is_some())
        .collect();
    // Few seeds on the board make endless moves and empty rows likely; many
    // make long moves.
    let on_board = match rng.u8(..4) {
        0 => rng.u32(0..=total.min(12)),
        1 => rng.u32(0..=total / 3),
        _ => rng.u32(0..=total),
    };
    // Seeds go to a random subset of the open holes, so that rows with many
    // empty holes are common.
    let active: Vec<(usize, usize)> = {
        let keep = rng.usize(1..=open.len());
        let mut shuffled = open.clone();
        rng.shuffle(&mut shuffled);
        shuffled.truncate(keep);
        shuffled
    };
    for _ in 0..on_board {
        let (s, i) = active[rng.usize(..active.len())];
        if let Some(count) = rows[s][i].as_mut() {
            *count += 1;
        }
    }
    let rest = total - on_board;
    let south_store = rng.u32(0..=rest);
    let to_move = if rng.bool() { Side::South } else { Side::North };
    let south_dir = if rules.chooses_direction() {
        match rng.u8(..3) {
            0 => None,
            1 => Some(Dir::Ccw),
            _ => Some(Dir::Cw),
        }
    } else {
        None
    };
    let round = if rules.plays_rounds() && rows.iter().flatten().any(Option::is_none) {
        2
    } else {
        1
    };
    let [south, north] = rows;
    Setup {
        south,
        north,
        stores: [south_store, rest - south_store],
        to_move,
        south_dir,
        round,
        round_starter: None,
    }
}

/// A random game's start: one time in four a [`random_setup`], else the
/// standard start. A set-up where a move is undecided under the lap budget
/// (a few with many seeds per hole neither end nor repeat within a million
/// laps) is drawn again: a game from it could not be played on.
pub fn random_start(rng: &mut fastrand::Rng, rules: Rules) -> Position {
    if rng.u8(..4) != 0 {
        return Position::new(rules);
    }
    loop {
        let pos = Position::from_setup(rules, &random_setup(rng, rules))
            .expect("a random set-up is a position of its rules");
        if pos.legal_moves().is_ok() {
            return pos;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every draw is a position of its rules, the seeds all there.
    #[test]
    fn random_setups_are_positions_of_their_rules() {
        let mut rng = fastrand::Rng::with_seed(16);
        for _ in 0..2000 {
            let rules = random_rules(&mut rng);
            let setup = random_setup(&mut rng, rules);
            let seeds: u32 = setup
                .south
                .iter()
                .chain(&setup.north)
                .flatten()
                .sum::<u32>()
                + setup.stores.iter().sum::<u32>();
            assert_eq!(seeds, rules.total_seeds(), "{setup:?}");
            if let Err(e) = Position::from_setup(rules, &setup) {
                panic!("{} [{}]: {e}: {setup:?}", rules.game(), rules.options());
            }
        }
    }
}
