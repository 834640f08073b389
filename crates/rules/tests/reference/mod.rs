//! A deliberately naive second implementation of rules.md, written from the
//! rules text alone and sharing no code with the crate: a `Vec` board, plain
//! loops, and a `HashMap` of every lap-start state for exact cycle detection.
//! It is slow and simple on purpose, so that the differential tests compare
//! two independent readings of the rules.
//!
//! Holes are numbered along the counter-clockwise track: South's row is
//! `0..n` (`A` first), North's row is `n..2n` (`a` first). Sides are `0`
//! (South) and `1` (North).

#![allow(dead_code)]

use std::collections::HashMap;

pub const SOUTH: usize = 0;
pub const NORTH: usize = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefGame {
    Olinda,
    Olowuka,
    Pallankuzhi,
    Rio,
}

/// The rules as flags, read from the names rules.md uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefRules {
    pub game: RefGame,
    pub holes: usize,
    pub seeds: u32,
    pub skip_origin: bool,
    pub series_capture: bool,
    pub same_direction: bool,
    pub pasu_to_owner: bool,
    pub no_pasu_on_last_seed: bool,
    pub capture_opposite: bool,
    pub clockwise: bool,
    pub endless_ends_game: bool,
    pub no_repetition_rule: bool,
    pub play_to_end: bool,
    pub single_round: bool,
    /// `rounds=N`: the match also ends after round N.
    pub rounds: Option<u32>,
}

impl RefRules {
    /// `game` is a rules.md game id, `options` the option words
    /// (`seeds=5 skip-origin`). Panics on anything unknown.
    pub fn parse(game: &str, options: &str) -> RefRules {
        let game = match game {
            "olinda-keliya" => RefGame::Olinda,
            "olowuka" => RefGame::Olowuka,
            "pallankuzhi" => RefGame::Pallankuzhi,
            "rio-kadalis" => RefGame::Rio,
            other => panic!("unknown game {other}"),
        };
        let mut r = RefRules {
            game,
            holes: match game {
                RefGame::Olinda | RefGame::Pallankuzhi => 7,
                RefGame::Olowuka | RefGame::Rio => 6,
            },
            seeds: if game == RefGame::Pallankuzhi { 6 } else { 4 },
            skip_origin: false,
            series_capture: false,
            same_direction: false,
            pasu_to_owner: false,
            no_pasu_on_last_seed: false,
            capture_opposite: false,
            clockwise: false,
            endless_ends_game: false,
            no_repetition_rule: false,
            play_to_end: false,
            single_round: false,
            rounds: None,
        };
        for word in options.split_whitespace() {
            if let Some(n) = word.strip_prefix("seeds=") {
                r.seeds = n.parse().unwrap();
                continue;
            }
            if let Some(n) = word.strip_prefix("rounds=") {
                r.rounds = Some(n.parse().unwrap());
                continue;
            }
            match word {
                "skip-origin" => r.skip_origin = true,
                "series-capture" => r.series_capture = true,
                "same-direction" => r.same_direction = true,
                "pasu-to-owner" => r.pasu_to_owner = true,
                "no-pasu-on-last-seed" => r.no_pasu_on_last_seed = true,
                "capture-opposite" => r.capture_opposite = true,
                "clockwise" => r.clockwise = true,
                "five-holes" => r.holes = 5,
                "endless-ends-game" => r.endless_ends_game = true,
                "no-repetition-rule" => r.no_repetition_rule = true,
                "play-to-end" => r.play_to_end = true,
                "single-round" => r.single_round = true,
                other => panic!("unknown option {other}"),
            }
        }
        r
    }

    pub fn has_rounds(&self) -> bool {
        matches!(self.game, RefGame::Pallankuzhi | RefGame::Rio)
    }

    fn owner(&self, hole: usize) -> usize {
        if hole < self.holes { SOUTH } else { NORTH }
    }

    fn row(&self, side: usize) -> std::ops::Range<usize> {
        if side == SOUTH {
            0..self.holes
        } else {
            self.holes..2 * self.holes
        }
    }
}

/// Board, closed holes and stores (stores, captures or winnings).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RefBoard {
    pub holes: Vec<u32>,
    pub closed: Vec<bool>,
    pub stores: [u32; 2],
}

impl RefBoard {
    pub fn start(rules: &RefRules) -> RefBoard {
        RefBoard {
            holes: vec![rules.seeds; 2 * rules.holes],
            closed: vec![false; 2 * rules.holes],
            stores: [0, 0],
        }
    }

    pub fn row_sum(&self, rules: &RefRules, side: usize) -> u32 {
        rules.row(side).map(|h| self.holes[h]).sum()
    }
}

/// One lap: the hole emptied, the seeds lifted, the hole of the last seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lap {
    pub from: usize,
    pub lifted: u32,
    pub last: usize,
}

/// Seeds leaving the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Take {
    pub hole: usize,
    pub seeds: u32,
    pub taker: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefVerdict {
    Finite {
        board: RefBoard,
        laps: Vec<Lap>,
        takes: Vec<Take>,
        /// Olowuka's grand slam: the hole left on the board, with its seeds.
        kept: Option<(usize, u32)>,
    },
    /// Lap-start state number `first_repeat` equals state `first_repeat - cycle`.
    Endless {
        first_repeat: u64,
        cycle: u64,
    },
    Undecided,
}

enum After {
    Relay(usize),
    Stop,
}

impl RefRules {
    fn step(&self, hole: usize, ccw: bool) -> usize {
        let len = 2 * self.holes;
        if ccw {
            (hole + 1) % len
        } else {
            (hole + len - 1) % len
        }
    }

    fn next_open(&self, b: &RefBoard, hole: usize, ccw: bool) -> usize {
        let mut h = self.step(hole, ccw);
        while b.closed[h] {
            h = self.step(h, ccw);
        }
        h
    }

    fn take(&self, b: &mut RefBoard, hole: usize, taker: usize, takes: &mut Vec<Take>) {
        let seeds = b.holes[hole];
        b.holes[hole] = 0;
        b.stores[taker] += seeds;
        takes.push(Take { hole, seeds, taker });
    }

    /// One lap from `from`; returns the last hole sown and what follows.
    fn lap(
        &self,
        b: &mut RefBoard,
        mover: usize,
        ccw: bool,
        from: usize,
        takes: &mut Vec<Take>,
        kept: &mut Option<(usize, u32)>,
    ) -> (usize, After) {
        let mut hand = b.holes[from];
        b.holes[from] = 0;
        let mut at = from;
        let mut binikh = false;
        while hand > 0 {
            at = self.next_open(b, at, ccw);
            if self.skip_origin && at == from {
                at = self.next_open(b, at, ccw);
            }
            b.holes[at] += 1;
            hand -= 1;
            let last_seed = hand == 0;
            match self.game {
                RefGame::Pallankuzhi => {
                    if b.holes[at] == 4 && !(self.no_pasu_on_last_seed && last_seed) {
                        let taker = if self.pasu_to_owner {
                            self.owner(at)
                        } else {
                            mover
                        };
                        self.take(b, at, taker, takes);
                    }
                }
                RefGame::Rio => {
                    if b.holes[at] == 4 {
                        if last_seed {
                            self.take(b, at, mover, takes);
                            binikh = true;
                        } else {
                            let owner = self.owner(at);
                            self.take(b, at, owner, takes);
                        }
                    }
                }
                RefGame::Olinda | RefGame::Olowuka => {}
            }
        }
        let after = match self.game {
            RefGame::Olinda | RefGame::Pallankuzhi => {
                let next = self.next_open(b, at, ccw);
                if b.holes[next] > 0 {
                    After::Relay(next)
                } else {
                    let target = self.next_open(b, next, ccw);
                    if b.holes[target] > 0 {
                        self.take(b, target, mover, takes);
                        if self.game == RefGame::Olinda && self.series_capture {
                            let mut cur = target;
                            loop {
                                let gap = self.next_open(b, cur, ccw);
                                let beyond = self.next_open(b, gap, ccw);
                                if b.holes[gap] == 0 && b.holes[beyond] > 0 {
                                    self.take(b, beyond, mover, takes);
                                    cur = beyond;
                                } else {
                                    break;
                                }
                            }
                        }
                        if self.game == RefGame::Pallankuzhi && self.capture_opposite {
                            let facing = 2 * self.holes - 1 - target;
                            if !b.closed[facing] && b.holes[facing] > 0 {
                                self.take(b, facing, mover, takes);
                            }
                        }
                    }
                    After::Stop
                }
            }
            RefGame::Olowuka => {
                let c = b.holes[at];
                if c >= 4 {
                    After::Relay(at)
                } else if c == 1 || self.owner(at) == mover {
                    After::Stop
                } else {
                    let opponent = 1 - mover;
                    let mut chain = Vec::new();
                    let mut h = at;
                    while self.owner(h) == opponent
                        && (b.holes[h] == 2 || b.holes[h] == 3)
                        && !chain.contains(&h)
                    {
                        chain.push(h);
                        h = self.step(h, !ccw);
                    }
                    let chain_sum: u32 = chain.iter().map(|&h| b.holes[h]).sum();
                    if chain_sum == b.row_sum(self, opponent) {
                        let left = chain.pop().unwrap();
                        *kept = Some((left, b.holes[left]));
                    }
                    for h in chain {
                        self.take(b, h, mover, takes);
                    }
                    After::Stop
                }
            }
            RefGame::Rio => {
                // Judged just before the last stone dropped: it is alone now
                // exactly when the hole was empty then.
                if binikh || b.holes[at] == 1 {
                    After::Stop
                } else {
                    After::Relay(at)
                }
            }
        };
        (at, after)
    }

    /// Sows the move that empties `from`, in direction `ccw`, with lap
    /// budget `budget`: rules.md's "Bounded work", with every lap-start
    /// state remembered.
    pub fn sow(
        &self,
        start: &RefBoard,
        mover: usize,
        ccw: bool,
        from: usize,
        budget: u64,
    ) -> RefVerdict {
        let mut b = start.clone();
        let mut seen: HashMap<(Vec<u32>, usize), u64> = HashMap::new();
        seen.insert((b.holes.clone(), from), 0);
        let mut laps = Vec::new();
        let mut takes = Vec::new();
        let mut kept = None;
        let mut h = from;
        loop {
            let lifted = b.holes[h];
            let (last, after) = self.lap(&mut b, mover, ccw, h, &mut takes, &mut kept);
            laps.push(Lap {
                from: h,
                lifted,
                last,
            });
            let k = laps.len() as u64;
            match after {
                After::Stop if k <= budget => {
                    return RefVerdict::Finite {
                        board: b,
                        laps,
                        takes,
                        kept,
                    };
                }
                After::Stop => return RefVerdict::Undecided,
                After::Relay(next) => {
                    if k > budget {
                        return RefVerdict::Undecided;
                    }
                    let state = (b.holes.clone(), next);
                    if let Some(&i) = seen.get(&state) {
                        return RefVerdict::Endless {
                            first_repeat: k,
                            cycle: k - i,
                        };
                    }
                    seen.insert(state, k);
                    h = next;
                }
            }
        }
    }
}

// --- whole games -----------------------------------------------------------

/// A move: the hole, and the direction when the mover chooses one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RefMove {
    pub hole: usize,
    /// `Some(ccw)` on Olinda Keliya's first move.
    pub ccw: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefRoundEnd {
    pub round: u32,
    pub reason: &'static str,
    pub holdings: [u32; 2],
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefOutcome {
    pub score: [u32; 2],
    pub reason: &'static str,
}

/// A game (or match) under rules.md's end checks, the naive way: every
/// position of the round is kept in `history`.
#[derive(Clone, Debug)]
pub struct RefMatch {
    pub rules: RefRules,
    pub budget: u64,
    pub board: RefBoard,
    pub to_move: usize,
    /// Olinda Keliya: South's direction once chosen (`true` = CCW).
    pub south_ccw: Option<bool>,
    pub round: u32,
    pub round_starter: usize,
    pub history: Vec<(Vec<u32>, Vec<bool>, usize)>,
    pub round_ends: Vec<RefRoundEnd>,
    pub outcome: Option<RefOutcome>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefError {
    Illegal(&'static str),
    Undecided,
}

impl RefMatch {
    /// A position, with no end check yet (see [`RefMatch::start`]).
    pub fn at(
        rules: RefRules,
        budget: u64,
        board: RefBoard,
        to_move: usize,
        south_ccw: Option<bool>,
        round: u32,
        round_starter: usize,
    ) -> RefMatch {
        let mut m = RefMatch {
            rules,
            budget,
            board,
            to_move,
            south_ccw,
            round,
            round_starter,
            history: Vec::new(),
            round_ends: Vec::new(),
            outcome: None,
        };
        m.history.push(m.key());
        m
    }

    /// Starts a game or round here: only "cannot move" is checked.
    pub fn start(mut self) -> Result<RefMatch, RefError> {
        self.check_round_start()?;
        Ok(self)
    }

    fn key(&self) -> (Vec<u32>, Vec<bool>, usize) {
        (
            self.board.holes.clone(),
            self.board.closed.clone(),
            self.to_move,
        )
    }

    pub fn direction_due(&self) -> bool {
        self.rules.game == RefGame::Olinda && !self.rules.same_direction && self.south_ccw.is_none()
    }

    /// The direction `side` sows in (`true` = CCW), if fixed.
    pub fn ccw_of(&self, side: usize) -> Option<bool> {
        match self.rules.game {
            RefGame::Rio => Some(!self.rules.clockwise),
            RefGame::Olinda if !self.rules.same_direction => {
                self.south_ccw.map(|s| if side == SOUTH { s } else { !s })
            }
            _ => Some(true),
        }
    }

    /// Every non-empty open hole of the side to move, with both directions
    /// when the direction is still to be chosen.
    pub fn candidates(&self) -> Vec<RefMove> {
        let mut out = Vec::new();
        for h in self.rules.row(self.to_move) {
            if !self.board.closed[h] && self.board.holes[h] > 0 {
                if self.direction_due() {
                    out.push(RefMove {
                        hole: h,
                        ccw: Some(true),
                    });
                    out.push(RefMove {
                        hole: h,
                        ccw: Some(false),
                    });
                } else {
                    out.push(RefMove { hole: h, ccw: None });
                }
            }
        }
        out
    }

    pub fn verdict(&self, mv: RefMove) -> RefVerdict {
        let ccw = mv.ccw.or(self.ccw_of(self.to_move)).unwrap();
        self.rules
            .sow(&self.board, self.to_move, ccw, mv.hole, self.budget)
    }

    fn feeds(&self, after: &RefBoard) -> bool {
        after.row_sum(&self.rules, 1 - self.to_move) > 0
    }

    /// The legal moves, or `Undecided` when some candidate's verdict is.
    pub fn legal_moves(&self) -> Result<Vec<RefMove>, RefError> {
        let mut finite_feeding = Vec::new();
        let mut finite_starving = Vec::new();
        let mut endless = Vec::new();
        for mv in self.candidates() {
            match self.verdict(mv) {
                RefVerdict::Finite { board, .. } => {
                    if self.rules.game == RefGame::Olowuka && !self.feeds(&board) {
                        finite_starving.push(mv);
                    } else {
                        finite_feeding.push(mv);
                    }
                }
                RefVerdict::Endless { .. } => endless.push(mv),
                RefVerdict::Undecided => return Err(RefError::Undecided),
            }
        }
        let mut legal = finite_feeding.clone();
        if finite_feeding.is_empty() {
            legal.extend(finite_starving);
        }
        if self.rules.endless_ends_game {
            legal.extend(endless);
        }
        legal.sort();
        Ok(legal)
    }

    pub fn play(&mut self, mv: RefMove) -> Result<(), RefError> {
        if self.outcome.is_some() {
            return Err(RefError::Illegal("game over"));
        }
        if mv.ccw.is_some() != self.direction_due() {
            return Err(RefError::Illegal("direction"));
        }
        if self.rules.owner(mv.hole) != self.to_move
            || self.board.closed[mv.hole]
            || self.board.holes[mv.hole] == 0
        {
            return Err(RefError::Illegal("hole"));
        }
        let legal = self.legal_moves()?;
        match self.verdict(mv) {
            RefVerdict::Undecided => Err(RefError::Undecided),
            RefVerdict::Endless { .. } => {
                if !self.rules.endless_ends_game {
                    return Err(RefError::Illegal("endless"));
                }
                // The board stays as it was; the turn passes as after any move.
                self.to_move = 1 - self.to_move;
                self.end_round("endless-move")
            }
            RefVerdict::Finite { board, .. } => {
                if !legal.contains(&mv) {
                    return Err(RefError::Illegal("starves"));
                }
                self.apply(mv, board);
                let key = self.key();
                self.history.push(key.clone());
                let twenty_five = self.rules.game == RefGame::Olowuka
                    && !self.rules.play_to_end
                    && self.board.stores.iter().any(|&s| s >= 25);
                let repeated = !self.rules.no_repetition_rule
                    && self.history.iter().filter(|k| **k == key).count() >= 3;
                if twenty_five {
                    self.end_round("twenty-five")
                } else if repeated {
                    self.end_round("repetition")
                } else if self.legal_moves()?.is_empty() {
                    self.end_round("no-moves")
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Puts the result `board` of the finite move `mv` in place and passes
    /// the turn, with no end check (the first move fixes the directions).
    pub fn apply(&mut self, mv: RefMove, board: RefBoard) {
        if let Some(ccw) = mv.ccw {
            self.south_ccw = Some(if self.to_move == SOUTH { ccw } else { !ccw });
        }
        self.board = board;
        self.to_move = 1 - self.to_move;
    }

    fn check_round_start(&mut self) -> Result<(), RefError> {
        if self.legal_moves()?.is_empty() {
            self.end_round("no-moves")
        } else {
            Ok(())
        }
    }

    fn end_round(&mut self, reason: &'static str) -> Result<(), RefError> {
        for side in [SOUTH, NORTH] {
            for h in self.rules.row(side) {
                self.board.stores[side] += self.board.holes[h];
                self.board.holes[h] = 0;
            }
        }
        let holdings = self.board.stores;
        if !self.rules.has_rounds() {
            self.outcome = Some(RefOutcome {
                score: holdings,
                reason,
            });
            return Ok(());
        }
        self.round_ends.push(RefRoundEnd {
            round: self.round,
            reason,
            holdings,
        });
        assert!(
            self.round_ends.len() < 10_000,
            "rounds without end: {:?}",
            &self.round_ends[..8]
        );
        if self.rules.single_round {
            self.outcome = Some(RefOutcome {
                score: holdings,
                reason,
            });
            return Ok(());
        }
        let per = self.rules.seeds;
        if holdings.iter().any(|&s| s < per) {
            self.outcome = Some(RefOutcome {
                score: holdings,
                reason: "cannot-refill",
            });
            return Ok(());
        }
        if self.rules.rounds == Some(self.round) {
            self.outcome = Some(RefOutcome {
                score: holdings,
                reason: "rounds-played",
            });
            return Ok(());
        }
        let n = self.rules.holes;
        for side in [SOUTH, NORTH] {
            let base = side * n;
            // Pallankuzhi fills from the owner's left, Rio Kadalis from the right.
            let order: Vec<usize> = if self.rules.game == RefGame::Rio {
                (0..n).rev().collect()
            } else {
                (0..n).collect()
            };
            for i in order {
                if self.board.stores[side] >= per {
                    self.board.stores[side] -= per;
                    self.board.holes[base + i] = per;
                    self.board.closed[base + i] = false;
                } else {
                    self.board.closed[base + i] = true;
                }
            }
        }
        self.round += 1;
        self.round_starter = 1 - self.round_starter;
        self.to_move = self.round_starter;
        self.history = vec![self.key()];
        self.check_round_start()
    }
}
