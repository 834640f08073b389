//! Measuring instruments for the tools, outside the product package. Here,
//! the floor probe: how fast the least work a validator of standard Olowuka
//! records must do per ply runs on this machine. It weighs issue 4's target
//! (20 M plies/s per core) against the hardware; it is not a validator and
//! no tool uses it.
//!
//! Per ply it does only this: read the move token (and its `+N`), check the
//! hole is the mover's and not empty, sow with relays on a board held in one
//! `u128`, take the capture chain (grand slam kept), compare the `+N`, look
//! at the feeding rule and the 25, and keep the repetition filter. It reads
//! no tag, checks no result, end reason or "cannot move", writes nothing,
//! and only counts the games it cannot settle (the validator gives those to
//! its full check). So a complete validator can only be slower.
//!
//! ```sh
//! cargo bench -p mancala-bench --bench floor -- FILE [RUNS]
//! ```
//!
//! FILE: Olowuka records (e.g. `mancala-play --games 100000 --quiet`); the
//! file is read into memory first, and the median of RUNS passes (default
//! 7) is reported. `benches/validate.py --floor` runs it beside the
//! validator on the same corpus.

const HOLES: usize = 6;
const TRACK: usize = 2 * HOLES;

/// `RUNS[first][r]`: one seed in each of `r` holes from hole `first` on, as
/// a board read as a little-endian `u128`.
static RUNS: [[u128; TRACK + 1]; TRACK] = {
    let mut table = [[0u128; TRACK + 1]; TRACK];
    let mut first = 0;
    while first < TRACK {
        let mut r = 0;
        while r <= TRACK {
            let mut k = 0;
            while k < r {
                table[first][r] |= 1 << (8 * ((first + k) % TRACK));
                k += 1;
            }
            r += 1;
        }
        first += 1;
    }
    table
};

fn hole(board: u128, i: usize) -> u32 {
    u32::from(board.to_le_bytes()[i % 16])
}

fn empty(board: u128, i: usize) -> u128 {
    board & !(0xFF << (8 * (i % 16)))
}

fn row(board: u128, side: usize) -> u32 {
    (HOLES * side..HOLES * side + HOLES)
        .map(|i| hole(board, i))
        .sum()
}

/// What a pass over the records counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games found.
    pub games: u64,
    /// Plies played (of every game, up to where an unsettled one stopped).
    pub plies: u64,
    /// Games the probe stops in and a validator would give its full check.
    pub unsettled: u64,
}

/// What [`next_token`] read.
enum Token {
    /// `12.` or `12...`: read past.
    MoveNumber,
    /// A hole: its side (0 South, 1 North), its index in the row, and the
    /// `+N` it claims.
    Move {
        side: usize,
        index: usize,
        claimed: Option<u32>,
    },
    /// The result, `*`, or anything else: the movetext ends.
    End,
}

/// The token at `text[*at..]` (after white space); `at` moves past it,
/// except past a result.
#[inline]
fn next_token(text: &[u8], at: &mut usize) -> Token {
    while *at < text.len() && text[*at].is_ascii_whitespace() {
        *at += 1;
    }
    let Some(&c) = text.get(*at) else {
        return Token::End;
    };
    if c.is_ascii_digit() {
        let start = *at;
        while text.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        if text.get(*at) == Some(&b'.') {
            while text.get(*at) == Some(&b'.') {
                *at += 1;
            }
            return Token::MoveNumber;
        }
        *at = start; // the result
        return Token::End;
    }
    if c == b'*' || !c.is_ascii_alphabetic() {
        return Token::End;
    }
    *at += 1;
    let side = usize::from(c.is_ascii_lowercase());
    let index = usize::from(c.to_ascii_lowercase() - b'a');
    let mut claimed = None;
    if text.get(*at) == Some(&b'+') {
        *at += 1;
        let mut n = 0u32;
        while let Some(d) = text.get(*at).filter(|d| d.is_ascii_digit()) {
            n = n * 10 + u32::from(d - b'0');
            *at += 1;
        }
        claimed = Some(n);
    }
    Token::Move {
        side,
        index,
        claimed,
    }
}

/// Sows hole `h` of `board` for `mover`, lap after lap, and captures into
/// `stores`; false when the move runs past 1000 laps (the full check's).
#[inline]
fn sow(board: &mut u128, mut h: usize, mover: usize, stores: &mut [u32; 2]) -> bool {
    let mut laps = 0;
    loop {
        laps += 1;
        if laps > 1000 {
            return false;
        }
        let seeds = hole(*board, h) as usize;
        *board = empty(*board, h);
        let (q, r) = (seeds / TRACK, seeds % TRACK);
        let last = (h + r) % TRACK;
        *board += RUNS[(h + 1) % TRACK][r] + RUNS[0][TRACK] * q as u128;
        let count = hole(*board, last);
        if count >= 4 {
            h = last;
            continue;
        }
        if count != 1 && last / HOLES != mover {
            capture(board, last, mover, stores);
        }
        return true;
    }
}

/// Takes the chain back from the `last` hole sown through 2s and 3s on
/// the opponent's row, unless it is the whole row.
#[inline]
fn capture(board: &mut u128, last: usize, mover: usize, stores: &mut [u32; 2]) {
    let low = HOLES * (1 - mover);
    let (mut chain, mut len, mut sum) = ([0usize; HOLES], 0, 0);
    let mut j = last;
    while j >= low && matches!(hole(*board, j), 2 | 3) {
        chain[len] = j;
        len += 1;
        sum += hole(*board, j);
        if j == low {
            break;
        }
        j -= 1;
    }
    let take = if sum == row(*board, 1 - mover) {
        len - 1
    } else {
        len
    };
    for &k in &chain[..take] {
        stores[mover] += hole(*board, k);
        *board = empty(*board, k);
    }
}

/// Plays the movetext starting at `text[at..]`; returns where it stopped.
fn game(text: &[u8], mut at: usize, keys: &mut Vec<u128>, tally: &mut Tally) -> usize {
    let mut board = RUNS[0][TRACK] * 4;
    let mut stores = [0u32; 2];
    let mut mover = 0;
    let mut seen = [0u64; 16];
    keys.clear();
    let settled = loop {
        let (side, index, claimed) = match next_token(text, &mut at) {
            Token::MoveNumber => continue,
            Token::End => break true,
            Token::Move {
                side,
                index,
                claimed,
            } => (side, index, claimed),
        };
        let h = index + HOLES * side;
        if side != mover || index >= HOLES || hole(board, h) == 0 {
            break false;
        }
        let before = stores[mover];
        let finite = sow(&mut board, h, mover, &mut stores);
        let gained = stores[mover] - before;
        // Endless or long moves, starving moves and wrong `+N`: the full
        // check's.
        if !finite || row(board, 1 - mover) == 0 || claimed.is_some_and(|n| n != gained) {
            break false;
        }
        mover = 1 - mover;
        let key = board | (mover as u128) << 127;
        if gained != 0 {
            keys.clear();
            seen = [0; 16];
        }
        let hash = (((key as u64) ^ ((key >> 64) as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54)
            as usize;
        let bit = 1 << (hash & 63);
        if seen[hash >> 6] & bit != 0 && keys.iter().filter(|k| **k == key).count() >= 2 {
            break false;
        }
        seen[hash >> 6] |= bit;
        keys.push(key);
        tally.plies += 1;
        if stores.iter().any(|s| *s >= 25) {
            break true;
        }
    };
    tally.games += 1;
    tally.unsettled += u64::from(!settled);
    at
}

/// One pass over the records: each game's movetext follows its first blank
/// line after a `[Game` tag.
#[must_use]
pub fn pass(text: &[u8]) -> Tally {
    let mut tally = Tally::default();
    let mut keys = Vec::with_capacity(64);
    let mut at = 0;
    while let Some(found) = find(&text[at..], b"[Game ") {
        at += found;
        let Some(blank) = find(&text[at..], b"\n\n") else {
            break;
        };
        at = game(text, at + blank + 2, &mut keys, &mut tally);
    }
    tally
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack, needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_plays_standard_olowuka_and_leaves_the_rest() {
        // Captures with their `+N`, then a wrong `+N`: the second game is
        // the full check's, its plies up to there counted.
        let text = b"[Game \"olowuka\"]\n\n1. C b+3 2. F c 3. C+3 f+3 *\n\n\
                     [Game \"olowuka\"]\n\n1. C b+3 2. F c+1 *\n";
        assert_eq!(
            pass(text),
            Tally {
                games: 2,
                plies: 9,
                unsettled: 1
            }
        );
    }
}
