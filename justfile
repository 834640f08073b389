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
# second), validator throughput, render --laps memory.
# second), validator throughput, render --laps memory.
bench:
    cargo bench -p mancala-rules
    cargo bench -p mancala-engine
    python3 crates/bench/benches/validate.py --floor
    python3 crates/bench/benches/render_laps.py

# Play a few games, check them and draw the final positions.
demo game="olowuka":
    cargo build --release --bins
    ./target/release/mancala-play --game {{game}} --games 3 --south alphabeta --north greedy | ./target/release/mancala-validate | ./target/release/mancala-render

# Rewrite insta snapshots after an intended change (review the diff!).
snapshots:
    INSTA_UPDATE=always cargo test --workspace
