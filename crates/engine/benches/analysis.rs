//! Analysis throughput: positions analysed per second at depths 6, 9 and 12
//! in each game, and exact solves per second of endgames with 8, 12 and 16
//! seeds left on the board.
//!
//! ```text
//! cargo bench -p mancala-engine --bench analysis [-- POSITIONS [NODES]]
//! ```
//!
//! Positions come from seeded random games (every ply of a game, as
//! `mancala-analyze` meets them: in order, one analyser per game, its table
//! shared from one ply to the next, which is most of the speed). Endgames are random games played on until at most N seeds are
//! left on the board; each is solved with a fresh analyser and a budget of
//! NODES positions (default 1,000,000) after the first iteration: the
//! report gives the share solved and the solves per second. Pallankuzhi
//! and Rio Kadalis endgames are played under `single-round`, since the
//! end of a round of a match that goes on is never exact.

use std::io::Write as _;
use std::time::Instant;

use fastrand::Rng;
use mancala_engine::analysis::{Analyser, Limit};
use mancala_engine::play_random;
use mancala_rules::{Game, GameId, Position, Rules};

fn start(rules: Rules) -> Game {
    match Game::new(Position::new(rules)) {
        Ok((game, _)) => game,
        Err(e) => panic!("{e}"),
    }
}

/// Games of `plies` random plies at most, each a different seed, until
/// `count` positions still going on are found.
fn positions(rules: Rules, count: usize) -> Vec<Vec<Game>> {
    let mut games = Vec::new();
    let mut found = 0;
    let mut seed = 0;
    while found < count {
        let mut rng = Rng::with_seed(seed);
        seed += 1;
        let mut game = start(rules);
        let mut here = Vec::new();
        for _ in 0..200 {
            if game.outcome().is_some() || found + here.len() >= count {
                break;
            }
            here.push(game.clone());
            if play_random(&mut game, &mut rng).is_none() {
                break;
            }
        }
        found += here.len();
        games.push(here);
    }
    games
}

fn endgames(rules: Rules, seeds: u32, count: usize) -> Vec<Game> {
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < count && seed < 100 * count as u64 {
        let mut rng = Rng::with_seed(seed);
        seed += 1;
        let mut game = start(rules);
        while game.outcome().is_none() && game.position().board_seeds() > seeds {
            if play_random(&mut game, &mut rng).is_none() {
                break;
            }
        }
        if game.outcome().is_none() && playable_count(&game) > 1 {
            out.push(game);
        }
    }
    out
}

fn playable_count(game: &Game) -> usize {
    mancala_engine::playable_moves(game).len()
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let nodes: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "positions analysed per second (in game order, one analyser per game)"
    );
    let _ = writeln!(
        out,
        "{:<14} {:>6} {:>10} {:>12}",
        "game", "depth", "positions", "per second"
    );
    for id in GameId::ALL {
        let rules = Rules::standard(id);
        let games = positions(rules, count);
        for depth in [6, 9, 12] {
            let started = Instant::now();
            let mut n = 0;
            for game in &games {
                let mut analyser = Analyser::new(Limit::Depth(depth));
                for position in game {
                    if analyser.analyse(position).is_some() {
                        n += 1;
                    }
                }
            }
            let secs = started.elapsed().as_secs_f64();
            let _ = writeln!(
                out,
                "{:<14} {depth:>6} {n:>10} {:>12.1}",
                id.as_str(),
                n as f64 / secs
            );
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "exact solves of endgames (node budget {nodes} per position)"
    );
    let _ = writeln!(
        out,
        "{:<14} {:>6} {:>10} {:>8} {:>12} {:>14}",
        "game", "seeds", "endgames", "solved", "per second", "nodes/solve"
    );
    for id in GameId::ALL {
        // A round of a match that goes on is never exact: Pallankuzhi and
        // Rio Kadalis are solved as single rounds.
        let rules = if id.has_rounds() {
            Rules::new(id, "single-round".parse().unwrap_or_default())
                .unwrap_or(Rules::standard(id))
        } else {
            Rules::standard(id)
        };
        for seeds in [8, 12, 16] {
            let games = endgames(rules, seeds, 20);
            let started = Instant::now();
            let (mut solved, mut spent) = (0u64, 0u64);
            for game in &games {
                let mut analyser = Analyser::new(Limit::Nodes(nodes));
                if let Some(Ok(a)) = analyser.solve(game) {
                    solved += 1;
                    spent += a.nodes;
                }
            }
            let secs = started.elapsed().as_secs_f64();
            let _ = writeln!(
                out,
                "{:<14} {seeds:>6} {:>10} {solved:>8} {:>12.2} {:>14}",
                id.as_str(),
                games.len(),
                solved as f64 / secs,
                spent / solved.max(1)
            );
        }
    }
}
