//! Time for a whole game: how much of what is left one move may take.

use std::time::Duration;

/// A side's game clock: the time left for the rest of the game, what each move adds back,
/// and a cap per move when the rules have one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left for the rest of the game.
    pub left: Duration,
    /// Added after every move.
    pub increment: Duration,
    /// Most a single move may take, if the rules say.
    pub per_move: Option<Duration>,
}

/// Moves the engine expects still to play when it shares out its time.
const MOVES_AHEAD: u32 = 20;

/// Kept back from every budget for reading, writing and the process's own start-up.
const OVERHEAD: Duration = Duration::from_millis(50);

impl Clock {
    /// The time for the next move: a twentieth of what is left plus three quarters of the
    /// increment, never more than half of what is left (less the overhead), never more than
    /// four fifths of the cap per move (the engine may overrun its budget by a little).
    pub fn budget(&self) -> Duration {
        let share = (self.left / MOVES_AHEAD).saturating_add(self.increment * 3 / 4);
        let safe = self.left.saturating_sub(OVERHEAD) / 2;
        let cap = self.per_move.map_or(Duration::MAX, |t| t * 4 / 5);
        share.min(safe).min(cap)
    }

    /// A move took `used`: take it off, add the increment.
    pub fn charge(&mut self, used: Duration) {
        self.left = self.left.saturating_sub(used) + self.increment;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn budgets_share_the_time_and_never_reach_the_end_of_it() {
        let c = Clock {
            left: ms(60_000),
            increment: ms(0),
            per_move: None,
        };
        assert_eq!(c.budget(), ms(3_000));
        let c = Clock {
            left: ms(10_000),
            increment: ms(2_000),
            per_move: Some(ms(1_000)),
        };
        assert_eq!(c.budget(), ms(800));
        // Nearly out of time: never more than half of what is left.
        let c = Clock {
            left: ms(150),
            increment: ms(1_000),
            per_move: None,
        };
        assert_eq!(c.budget(), ms(50));
        let c = Clock {
            left: ms(10),
            increment: ms(0),
            per_move: None,
        };
        assert_eq!(c.budget(), ms(0));
        // A whole game of 60 moves on 60 s never overdraws the clock.
        let mut c = Clock {
            left: ms(60_000),
            increment: ms(0),
            per_move: None,
        };
        for _ in 0..200 {
            let b = c.budget();
            assert!(b < c.left || c.left.is_zero());
            c.charge(b);
        }
        assert!(c.left > ms(0));
    }
}
