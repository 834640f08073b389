#![allow(clippy::print_stdout)]
use mancala_engine::{AlphaBeta, AlphaBetaConfig, Greedy, Player, children, play_random};
use mancala_rules::{Game, GameId, Hole, Position, Rules, Side};

fn feats(pos: &Position) -> Vec<f64> {
    let m = pos.to_move();
    let o = m.opposite();
    let n = pos.rules().holes() as u8;
    let nonempty = |s: Side| {
        (0..n)
            .filter(|&i| pos.seeds(Hole::new(s, i)).unwrap_or(0) > 0)
            .count() as f64
    };
    let maxp = |s: Side| {
        (0..n)
            .map(|i| pos.seeds(Hole::new(s, i)).unwrap_or(0))
            .max()
            .unwrap() as f64
    };
    let singles = |s: Side| {
        (0..n)
            .filter(|&i| pos.seeds(Hole::new(s, i)).unwrap_or(0) == 1)
            .count() as f64
    };
    vec![
        pos.store(m) as f64 - pos.store(o) as f64,
        pos.row_seeds(m) as f64 - pos.row_seeds(o) as f64,
        nonempty(m) - nonempty(o),
        maxp(m) - maxp(o),
        singles(m) - singles(o),
    ]
}

fn main() {
    let id: GameId = std::env::args()
        .nth(1)
        .map_or(GameId::OlindaKeliya, |s| s.parse().unwrap());
    let mut rng = fastrand::Rng::with_seed(99);
    let mut data: Vec<(Vec<f64>, f64)> = Vec::new();
    for g in 0..3000u64 {
        let mut a = AlphaBeta::new(AlphaBetaConfig::depth(3), g);
        let mut b = Greedy::new(g + 7);
        let (mut game, _) = Game::new(Position::new(Rules::standard(id))).unwrap();
        let mut seen: Vec<(Vec<f64>, Side)> = Vec::new();
        let randomize = rng.usize(0..4);
        let mut ply = 0;
        while game.outcome().is_none() && ply < 300 {
            let pos = *game.position();
            // only quiet-ish positions: record all
            seen.push((feats(&pos), pos.to_move()));
            if ply < randomize {
                play_random(&mut game, &mut rng);
                ply += 1;
                continue;
            }
            let use_a = (pos.to_move() == Side::South) == (g % 2 == 0);
            let mv = if use_a {
                a.choose(&game)
            } else {
                b.choose(&game)
            };
            let Some(mv) = mv else { break };
            game.play(mv).unwrap();
            ply += 1;
        }
        let Some(o) = game.outcome() else { continue };
        for (f, s) in seen {
            let y = match o.winner {
                None => 0.5,
                Some(w) if w == s => 1.0,
                _ => 0.0,
            };
            data.push((f, y));
        }
    }
    let _ = children;
    let k = data[0].0.len();
    let mut w = vec![0.0; k];
    let lr = 0.002;
    for epoch in 0..300 {
        let mut grad = vec![0.0; k];
        let mut loss = 0.0;
        for (f, y) in &data {
            let z: f64 = f.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            loss -= y * p.max(1e-9).ln() + (1.0 - y) * (1.0 - p).max(1e-9).ln();
            for i in 0..k {
                grad[i] += (p - y) * f[i];
            }
        }
        for i in 0..k {
            w[i] -= lr * grad[i] / data.len() as f64 * 100.0;
        }
        if epoch % 100 == 99 {
            println!(
                "epoch {epoch} loss {:.4} w {:?}",
                loss / data.len() as f64,
                w
            );
        }
    }
    println!(
        "n={} weights relative to store: {:?}",
        data.len(),
        w.iter().map(|x| x / w[0]).collect::<Vec<_>>()
    );
}
