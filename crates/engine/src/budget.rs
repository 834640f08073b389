//! The search budget both searching engines take: a work limit (alpha-beta's
//! depth, MCTS's playouts) and an optional time limit per move.

use std::fmt;
use std::time::Duration;

/// How long a search may run for one move: a work limit, a time limit, or
/// both, whichever runs out first. What the work limit counts is the
/// engine's: plies of depth for [`AlphaBeta`](crate::AlphaBeta), playouts
/// for [`Mcts`](crate::Mcts).
///
/// Without a time limit the search is fully deterministic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The work limit asked for; `None` for a time limit alone, under
    /// which the engine goes as far as it can.
    limit: Option<u32>,
    time: Option<Duration>,
}

impl Budget {
    /// A work limit alone (at least 1).
    #[must_use]
    pub const fn limit(limit: u32) -> Budget {
        Budget {
            limit: Some(if limit == 0 { 1 } else { limit }),
            time: None,
        }
    }

    /// A work limit and/or a time limit; with neither, `default_limit`.
    #[must_use]
    pub fn new(limit: Option<u32>, time: Option<Duration>, default_limit: u32) -> Budget {
        match (limit, time) {
            (Some(n), _) => Budget {
                time,
                ..Budget::limit(n)
            },
            (None, Some(_)) => Budget { limit: None, time },
            (None, None) => Budget::limit(default_limit),
        }
    }

    /// The work limit asked for, if any.
    #[must_use]
    pub const fn given_limit(&self) -> Option<u32> {
        self.limit
    }

    /// The time limit per move, if any.
    #[must_use]
    pub const fn time(&self) -> Option<Duration> {
        self.time
    }

    /// The time a search may take: the budget's own limit, or `clock` (a
    /// match's time control, which may change from move to move) where
    /// that is shorter.
    pub(crate) fn time_within(&self, clock: Option<Duration>) -> Option<Duration> {
        match (self.time, clock) {
            (Some(own), Some(clock)) => Some(own.min(clock)),
            (own, clock) => own.or(clock),
        }
    }

    /// The work limit, or `unlimited` under a time limit alone.
    pub(crate) fn limit_or(&self, unlimited: u32) -> u32 {
        self.limit.unwrap_or(unlimited)
    }

    /// The same budget with its work limit at most `max`.
    pub(crate) fn capped(self, max: u32) -> Budget {
        Budget {
            limit: self.limit.map(|n| n.min(max)),
            ..self
        }
    }

    /// The record-tag form of `engine` searching with this budget, the work
    /// limit written as `limit_key`: `alphabeta depth=9`, `mcts ms=200`,
    /// `alphabeta depth=8 ms=200`.
    pub(crate) fn write_tag(
        &self,
        f: &mut impl fmt::Write,
        engine: &str,
        limit_key: &str,
    ) -> fmt::Result {
        f.write_str(engine)?;
        if let Some(limit) = self.limit {
            write!(f, " {limit_key}={limit}")?;
        }
        if let Some(time) = self.time {
            write!(f, " ms={}", time.as_millis())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(budget: Budget) -> String {
        let mut out = String::new();
        budget.write_tag(&mut out, "engine", "n").unwrap();
        out
    }

    #[test]
    fn a_budget_has_a_limit_or_a_time_and_prints_what_was_asked() {
        let ms = Some(Duration::from_millis(200));
        assert_eq!(tag(Budget::limit(0)), "engine n=1");
        assert_eq!(tag(Budget::new(None, None, 9)), "engine n=9");
        assert_eq!(tag(Budget::new(Some(3), None, 9)), "engine n=3");
        assert_eq!(tag(Budget::new(None, ms, 9)), "engine ms=200");
        assert_eq!(tag(Budget::new(Some(3), ms, 9)), "engine n=3 ms=200");
        assert_eq!(Budget::new(None, ms, 9).limit_or(64), 64);
        assert_eq!(Budget::limit(100).capped(64).limit_or(0), 64);
        let (short, long) = (Duration::from_millis(5), Duration::from_millis(50));
        assert_eq!(Budget::limit(3).time_within(Some(short)), Some(short));
        assert_eq!(
            Budget::new(None, Some(long), 9).time_within(Some(short)),
            Some(short)
        );
        assert_eq!(
            Budget::new(None, Some(short), 9).time_within(Some(long)),
            Some(short)
        );
        assert_eq!(
            Budget::new(None, Some(short), 9).time_within(None),
            Some(short)
        );
    }
}
