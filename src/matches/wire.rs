//! What the referee says to an engine and what it reads back, per protocol: Cloudict for
//! Connect6, Gomocup for the games of five. An engine learns the position on its first turn
//! (the opening and the opponent's first reply included) and from then on only the opponent's
//! last move; lines that are not an answer (banners, statistics, `MESSAGE`) are skipped. A
//! line that is an answer in form but names no point of the board (`move ZZZZ`, `99,99`,
//! `-1,-1`) is a malformed answer: the referee scores it as an illegal move at once.

use super::process::{EngineProcess, Failure};
use super::TimeControl;
use crate::geom::Point;
use crate::protocol::cloudict::{letters, points};
use crate::protocol::gomocup;
use crate::text::excerpt;
use crate::Game;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// A protocol the referee speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wire {
    /// Cloudict / ConnectMore (Connect6 on 19×19).
    Cloudict,
    /// Gomocup / Piskvork (the games of five, one stone per move).
    Gomocup,
}

impl Wire {
    /// The protocol engines of `game` speak: Cloudict for Connect6, Gomocup for the games of
    /// one stone per move; an error for the rest.
    pub fn for_game(game: &Game) -> Result<Wire, String> {
        if game.is_connect6() {
            Ok(Wire::Cloudict)
        } else if game.k() == 5 && game.p() == 1 && game.q() == 1 {
            Ok(Wire::Gomocup)
        } else {
            Err(format!(
                "no protocol plays {game}: matches play connect6 (Cloudict protocol) and the \
                 games of five with one stone per move (Gomocup protocol)"
            ))
        }
    }
}

/// The referee's side of the conversation with one engine.
pub struct Speaker {
    wire: Wire,
    game: Game,
    /// Moves the engine has been told of (its own replies included).
    told: usize,
}

/// How long an engine may take to answer `START`.
const START_TIME: Duration = Duration::from_secs(10);

impl Speaker {
    /// Start the conversation: Gomocup engines get `START` (and must answer `OK`), the rule
    /// and the time per move; Cloudict engines need nothing before their first turn.
    pub fn start(
        wire: Wire,
        game: &Game,
        time: TimeControl,
        engine: &mut EngineProcess,
        stop: &AtomicBool,
    ) -> Result<Speaker, Failure> {
        if wire == Wire::Gomocup {
            engine.set_farewell("END");
            let start = if game.m() == game.n() {
                format!("START {}", game.m())
            } else {
                format!("RECTSTART {},{}", game.m(), game.n())
            };
            engine.send(&start)?;
            engine.expect(Instant::now() + START_TIME, stop, |l| l.trim() == "OK")?;
            engine.send(&format!("INFO rule {}", gomocup::rule_bits(game)))?;
            match time {
                TimeControl::None => {}
                TimeControl::PerMove(t) => {
                    engine.send(&format!("INFO timeout_turn {}", t.as_millis()))?;
                    engine.send("INFO timeout_match 0")?;
                }
                TimeControl::Game { base, .. } => {
                    engine.send(&format!("INFO timeout_match {}", base.as_millis()))?;
                    engine.send(&format!("INFO timeout_turn {}", base.as_millis()))?;
                }
            }
        }
        Ok(Speaker {
            wire,
            game: *game,
            told: 0,
        })
    }

    /// The engine's move for the side to move after `moves` (whole moves in play order,
    /// black's first), read before `deadline`; `clock` is what is left of its game time
    /// (Gomocup engines are told: `INFO time_left`). The answer is parsed, not checked: the
    /// referee judges it; an answer that names no point of the board is
    /// [`Failure::Malformed`].
    pub fn ask(
        &mut self,
        engine: &mut EngineProcess,
        moves: &[Vec<Point>],
        clock: Option<Duration>,
        deadline: Instant,
        stop: &AtomicBool,
    ) -> Result<Vec<Point>, Failure> {
        let mut request = Vec::new();
        if let (Wire::Gomocup, Some(left)) = (self.wire, clock) {
            request.push(format!("INFO time_left {}", left.as_millis()));
        }
        request.extend(match self.told {
            0 => self.setup(moves),
            n if n + 1 == moves.len() => vec![self.last_move(&moves[n])],
            n => panic!("the engine knows {n} of {} moves", moves.len()),
        });
        for line in &request {
            engine.send(line)?;
        }
        let line = engine.expect(deadline, stop, |l| self.parse(l).is_some())?;
        self.told = moves.len() + 1;
        match self.parse(&line) {
            Some(Some(stones)) => Ok(stones),
            _ => Err(Failure::Malformed(format!(
                "{}: not a move on the board",
                excerpt(line.trim())
            ))),
        }
    }

    /// The whole position and the request to move.
    fn setup(&self, moves: &[Vec<Point>]) -> Vec<String> {
        match self.wire {
            Wire::Cloudict if moves.is_empty() => vec!["new black".to_string()],
            Wire::Cloudict => {
                let mut lines = vec!["new white".to_string()];
                for (i, m) in moves.iter().enumerate() {
                    let word = if i % 2 == 0 { "black" } else { "white" };
                    lines.push(format!("{word} {}", letters(m)));
                }
                lines.push("next".to_string());
                lines
            }
            Wire::Gomocup if moves.is_empty() => vec!["BEGIN".to_string()],
            Wire::Gomocup => {
                // Field 1: the stones of the side to move, 2: the opponent's.
                let mut lines = vec!["BOARD".to_string()];
                for (i, m) in moves.iter().enumerate() {
                    let own = (i % 2 == moves.len() % 2) as u8;
                    for &p in m {
                        lines.push(format!("{},{}", self.coords(p), 2 - own));
                    }
                }
                lines.push("DONE".to_string());
                lines
            }
        }
    }

    /// The opponent's move, as the engine's next request.
    fn last_move(&self, stones: &[Point]) -> String {
        match self.wire {
            Wire::Cloudict => format!("move {}", letters(stones)),
            Wire::Gomocup => format!("TURN {}", self.coords(stones[0])),
        }
    }

    /// A move answer: `move JJ` / `move KJKK` (Cloudict), `x,y` (Gomocup): `None` for a line
    /// that is no answer, `Some(None)` for one that names no point of the board.
    fn parse(&self, line: &str) -> Option<Option<Vec<Point>>> {
        let line = line.trim();
        match self.wire {
            Wire::Cloudict => {
                // `move` and one word: Cloudict's own help text ("move XXXX   - tell the
                // engine that …", printed at its start) is no answer.
                let mut words = line.split_whitespace();
                let (Some("move"), Some(stones), None) = (words.next(), words.next(), words.next())
                else {
                    return None;
                };
                Some(points(stones).filter(|s| s.iter().all(|&p| self.game.contains(p))))
            }
            Wire::Gomocup => {
                let (x, y) = line.split_once(',')?;
                fn number(t: &str) -> Option<&str> {
                    let t = t.trim();
                    let digits = t.strip_prefix('-').unwrap_or(t);
                    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some(t)
                }
                let (x, y) = (number(x)?, number(y)?);
                let at = |x: &str, y: &str| {
                    let (x, y) = (x.parse::<usize>().ok()?, y.parse::<usize>().ok()?);
                    let row = self.game.n().checked_sub(1 + y)?;
                    Point::new(x, row).filter(|&p| self.game.contains(p))
                };
                Some(at(x, y).map(|p| vec![p]))
            }
        }
    }

    /// Gomocup coordinates ([`gomocup::coords`]).
    fn coords(&self, p: Point) -> String {
        gomocup::coords(&self.game, p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cloudict_answers_are_move_and_one_word() {
        let s = Speaker {
            wire: Wire::Cloudict,
            game: Game::CONNECT6,
            told: 0,
        };
        let j10 = points("JJ").unwrap();
        assert_eq!(s.parse("move JJ"), Some(Some(j10.clone())));
        assert_eq!(s.parse("  move   JJ  "), Some(Some(j10)));
        // Named no point: an answer, and an illegal one.
        assert_eq!(s.parse("move ZZZZ"), Some(None));
        assert_eq!(s.parse("move jjkk"), Some(None));
        // Not answers: Cloudict's help line, words run together, other lines.
        assert_eq!(
            s.parse(
                "            move XXXX   - tell the engine that the opponent take the move XXXX,"
            ),
            None
        );
        assert_eq!(s.parse("moveJJ"), None);
        assert_eq!(s.parse("move"), None);
        assert_eq!(s.parse("VCF node : 1"), None);
    }
}
