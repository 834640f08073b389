# Recipes for people who have `just`; README and CI never need it.

# Run every test (the README's test command).
test:
    cargo test --workspace

# Formatting and lints, as CI runs them.
lint:
    cargo fmt --all --check
    cargo clippy --workspace --all-targets -- -D warnings

# What CI runs.
ci:
    bash .ci/run

# Benchmarks: rules playouts, engine nodes and analysis (positions and solves per
# second), validator throughput, render --laps memory, engine instructions per
# ply / node / playout (needs valgrind).
bench:
    cargo bench -p mancala-rules
    cargo bench -p mancala-engine
    python3 crates/bench/benches/validate.py --floor
    python3 crates/bench/benches/render_laps.py
    python3 crates/bench/benches/engine_speed.py

# Our random playouts next to OpenSpiel's C++ Oware and Kalah (installs open-spiel
# from PyPI into target/openspiel-venv).
bench-openspiel:
    python3 crates/bench/benches/openspiel.py

# This build's alpha-beta against an older revision's at 100 ms a move (hours).
bench-strength old="e960f4b" games="400":
    python3 crates/bench/benches/ab_strength.py --old {{old}} --games {{games}}

# The same builds' moves where they differ, each rated by a 2-second search.
bench-judge old="e960f4b" games="40":
    python3 crates/bench/benches/ab_judge.py --old {{old}} --games {{games}}

# Play a few games, check them and draw the final positions.
demo game="olowuka":
    cargo build --release --bins
    ./target/release/mancala-play --game {{game}} --games 3 --south alphabeta --north greedy | ./target/release/mancala-validate | ./target/release/mancala-render

# Rewrite insta snapshots after an intended change (review the diff!).
snapshots:
    INSTA_UPDATE=always cargo test --workspace
