//! Random playouts and move generation, per game.
//!
//! `cargo bench -p mancala-rules` runs everything; `cargo bench -p
//! mancala-rules -- position` only the fast playouts. Every benchmark works
//! on a fixed batch of seeded games, so runs are comparable.
//!
//! - `position_playout_*`: the fast playout. Each ply takes the side to
//!   move's candidates in a random order and plays the first that
//!   `Position::play` accepts — uniform among the legal moves, since
//!   `play` refuses exactly the illegal ones (endless moves, and in Olowuka
//!   a starving move while a feeding one exists) — without ever calling
//!   `legal_moves`. A playout stops when no candidate plays, at Olowuka's
//!   25, or at the third occurrence of a position (kept, like `Game` does,
//!   only since seeds last left the board); it plays the first round of the
//!   round games only.
//! - `game_playout_*`: the same choice of moves (made with `Position::play`)
//!   played through `Game::play`, with every rule and whole matches of
//!   rounds. `Game::play` sows the chosen move again (unless its "cannot
//!   move" check of the previous ply happened to sow that very move), then
//!   sows candidates of the next position until one can be played.
//! - `legal_moves`, `has_legal_move`, `candidates`: move generation on
//!   1,000 positions of random games (items are positions).
//!
//! `*_plies` report plies per second, `*_games` games per second.

use divan::Bencher;
use divan::counter::ItemsCount;
use mancala_rules::{Game, GameId, MoveList, Opt, Played, Position, Rules, Side};

fn main() {
    divan::main();
}

const GAMES: [GameId; GameId::ALL.len()] = GameId::ALL;

/// Games per benchmark iteration.
const BATCH: u64 = 64;

/// A safety cap on plies per game (never reached with these seeds).
const MAX_PLIES: u32 = 100_000;

/// The index of a uniformly random candidate that `accept` takes, trying
/// candidates in a random order.
fn pick<T>(
    candidates: &MoveList,
    rng: &mut fastrand::Rng,
    mut accept: impl FnMut(mancala_rules::Move) -> Option<T>,
) -> Option<T> {
    let mut order = [0u8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
    let order = &mut order[..candidates.len()];
    rng.shuffle(order);
    order
        .iter()
        .find_map(|&i| accept(candidates.get(usize::from(i)).unwrap()))
}

/// One fast random playout from the start; returns the plies played.
fn position_playout(rules: Rules, rng: &mut fastrand::Rng) -> u32 {
    let twenty_five = rules.game() == GameId::Olowuka && !rules.has(Opt::PlayToEnd);
    let mut pos = Position::new(rules);
    let mut history = vec![pos.repetition_key()];
    let mut plies = 0;
    while plies < MAX_PLIES {
        let next = pick(&pos.candidates(), rng, |mv| match pos.play(mv) {
            Ok(Played::Finite { position, .. }) => Some(position),
            _ => None,
        });
        let Some(next) = next else { break };
        if next.board_seeds() != pos.board_seeds() {
            history.clear();
        }
        pos = next;
        plies += 1;
        if twenty_five && Side::BOTH.iter().any(|s| pos.store(*s) >= 25) {
            break;
        }
        let key = pos.repetition_key();
        if history.iter().filter(|k| **k == key).count() >= 2 {
            break;
        }
        history.push(key);
    }
    plies
}

/// One random game (or match) through `Game::play`; returns the plies.
fn game_playout(rules: Rules, rng: &mut fastrand::Rng) -> u32 {
    let (mut game, _) = Game::new(Position::new(rules)).unwrap();
    let mut plies = 0;
    while game.outcome().is_none() && plies < MAX_PLIES {
        let pos = *game.position();
        let mv = pick(&pos.candidates(), rng, |mv| pos.play(mv).ok().map(|_| mv));
        game.play(mv.expect("an ongoing game has a legal move"))
            .unwrap();
        plies += 1;
    }
    plies
}

fn batch_plies(rules: Rules, playout: fn(Rules, &mut fastrand::Rng) -> u32) -> u64 {
    let mut rng = fastrand::Rng::with_seed(1);
    (0..BATCH)
        .map(|_| u64::from(playout(rules, &mut rng)))
        .sum()
}

fn run_batch(rules: Rules, playout: fn(Rules, &mut fastrand::Rng) -> u32) -> u64 {
    let mut rng = fastrand::Rng::with_seed(1);
    (0..BATCH)
        .map(|_| u64::from(playout(divan::black_box(rules), &mut rng)))
        .sum()
}

#[divan::bench(args = GAMES)]
fn position_playout_plies(bencher: Bencher, game: GameId) {
    let rules = Rules::standard(game);
    bencher
        .counter(ItemsCount::new(batch_plies(rules, position_playout)))
        .bench(|| run_batch(rules, position_playout));
}

#[divan::bench(args = GAMES)]
fn position_playout_games(bencher: Bencher, game: GameId) {
    let rules = Rules::standard(game);
    bencher
        .counter(ItemsCount::new(BATCH))
        .bench(|| run_batch(rules, position_playout));
}

#[divan::bench(args = GAMES, sample_count = 20)]
fn game_playout_plies(bencher: Bencher, game: GameId) {
    let rules = Rules::standard(game);
    bencher
        .counter(ItemsCount::new(batch_plies(rules, game_playout)))
        .bench(|| run_batch(rules, game_playout));
}

#[divan::bench(args = GAMES, sample_count = 20)]
fn game_playout_games(bencher: Bencher, game: GameId) {
    let rules = Rules::standard(game);
    bencher
        .counter(ItemsCount::new(BATCH))
        .bench(|| run_batch(rules, game_playout));
}

/// Positions met in random games of `game`, a few per game.
fn sample_positions(game: GameId) -> Vec<Position> {
    let rules = Rules::standard(game);
    let mut rng = fastrand::Rng::with_seed(2);
    let mut out = Vec::new();
    while out.len() < 1000 {
        let mut pos = Position::new(rules);
        for ply in 0..200 {
            if ply % 7 == 0 {
                out.push(pos);
            }
            let next = pick(&pos.candidates(), &mut rng, |mv| match pos.play(mv) {
                Ok(Played::Finite { position, .. }) => Some(position),
                _ => None,
            });
            match next {
                Some(next) => pos = next,
                None => break,
            }
        }
    }
    out
}

#[divan::bench(args = GAMES)]
fn legal_moves(bencher: Bencher, game: GameId) {
    let positions = sample_positions(game);
    bencher.counter(ItemsCount::new(positions.len())).bench(|| {
        divan::black_box(&positions)
            .iter()
            .map(|p| p.legal_moves().map_or(0, |l| l.len()))
            .sum::<usize>()
    });
}

/// The "cannot move" check `Game::play` makes after every move.
#[divan::bench(args = GAMES)]
fn has_legal_move(bencher: Bencher, game: GameId) {
    let positions = sample_positions(game);
    bencher.counter(ItemsCount::new(positions.len())).bench(|| {
        divan::black_box(&positions)
            .iter()
            .filter(|p| p.has_legal_move().unwrap_or(false))
            .count()
    });
}

/// Listing the non-empty open holes of the side to move.
#[divan::bench(args = GAMES)]
fn candidates(bencher: Bencher, game: GameId) {
    let positions = sample_positions(game);
    bencher.counter(ItemsCount::new(positions.len())).bench(|| {
        divan::black_box(&positions)
            .iter()
            .map(|p| p.candidates().len())
            .sum::<usize>()
    });
}
