//! The Raw model: the intersection array and nothing else. Every query scans the lines of the
//! board; connection and point types come from the table-free classifier at query time. It
//! reads the game (board, k, p, rule) at run time, so one Raw serves every game.

use super::{Level, Model, Threat, TypeCounts};
use crate::board::Board;
use crate::geom::{Color, Dir, Point, PointSet};
use crate::kb::{self, Composite, ConnType, Params};
use crate::model::{level_stones, Played};
use cpbim_kb::{classify_direct_for, point_type as upgrade_type, window_stats_for};

/// The board as an intersection array; no knowledge base, no incremental state.
#[derive(Clone)]
pub struct Raw {
    played: Played,
    /// The classification of each colour (Renju's black and white differ).
    params: [Params; 2],
}

/// A window of k points of a line with no stone of the opponent.
struct Window<'a> {
    /// Stones of the colour in it.
    own: usize,
    /// Its empty points.
    empties: &'a [Point],
    /// Would it lie in a winning row once filled (exactly k under an exact rule)?
    wins_filled: bool,
}

impl Raw {
    /// Call `f` for every window of k points of the board with no stone of the opponent of
    /// `c`.
    fn for_each_window(&self, c: Color, mut f: impl FnMut(Window)) {
        let board = &self.played.board;
        let game = board.game();
        let k = game.k();
        let exact = self.params[c.index()].exact;
        for line in &game.geometry().lines {
            let pts = &line.points[..line.len as usize];
            for (w, window) in pts.windows(k).enumerate() {
                let mut own = 0;
                let mut empties = [Point::CENTER; 8];
                let mut n = 0;
                let mut blocked = false;
                for &p in window {
                    match board.get(p) {
                        Some(s) if s == c => own += 1,
                        Some(_) => {
                            blocked = true;
                            break;
                        }
                        None => {
                            empties[n] = p;
                            n += 1;
                        }
                    }
                }
                if blocked {
                    continue;
                }
                // Filling the window makes a row of exactly k unless a stone of `c` touches it.
                let touches = |i: Option<usize>| {
                    i.and_then(|i| pts.get(i))
                        .is_some_and(|&p| board.get(p) == Some(c))
                };
                let wins_filled = !exact || (!touches(w.checked_sub(1)) && !touches(Some(w + k)));
                f(Window {
                    own,
                    empties: &empties[..n],
                    wins_filled,
                });
            }
        }
    }

    /// The connection of `c` through `p` in direction `dir`, found by scanning the line:
    /// `(|c|, f(c), offset of p in c)`.
    fn connection_through(&self, p: Point, c: Color, dir: Dir) -> Option<(u32, u32, u32)> {
        let board = &self.played.board;
        let geo = board.game().geometry();
        let slot = geo.slot(p, dir)?;
        let line = &geo.lines[slot.line as usize];
        let pts = &line.points[..line.len as usize];
        let free = |i: usize| board.get(pts[i]) != Some(c.opponent());
        let i = slot.offset as usize;
        let mut a = i;
        while a > 0 && free(a - 1) {
            a -= 1;
        }
        let mut b = i;
        while b + 1 < pts.len() && free(b + 1) {
            b += 1;
        }
        let len = b - a + 1;
        if len < board.game().k() {
            return None;
        }
        let f = (a..=b)
            .filter(|&j| board.get(pts[j]) == Some(c))
            .fold(0u32, |f, j| f | 1 << (j - a));
        Some((len as u32, f, (i - a) as u32))
    }
}

impl Model for Raw {
    const NAME: &'static str = "raw";

    fn from_board(board: &Board) -> Self {
        Raw {
            played: Played::new(board),
            params: [Color::Black, Color::White].map(|c| kb::params_of(board.game(), c)),
        }
    }

    fn board(&self) -> &Board {
        &self.played.board
    }

    fn make(&mut self, p: Point, c: Color) {
        self.played.make(p, c);
    }

    fn unmake(&mut self) {
        self.played.unmake();
    }

    fn zobrist(&self) -> u64 {
        self.played.zobrist
    }

    fn has_win(&self, c: Color) -> bool {
        self.played.board.find_win_of(c).is_some()
    }

    fn live_windows(&self, c: Color, out: &mut Vec<Threat>) {
        out.clear();
        let game = *self.played.board.game();
        let need = game.k() - game.p();
        self.for_each_window(c, |w| {
            if w.own >= need && w.wins_filled {
                out.push(Threat::new(w.empties));
            }
        });
        out.sort_unstable();
        out.dedup();
    }

    fn candidates(&self, c: Color, level: Level) -> PointSet {
        let game = *self.played.board.game();
        let need = level_stones(game.k() as u32, game.p() as u32)[level as usize] as usize;
        let mut set = PointSet::EMPTY;
        self.for_each_window(c, |w| {
            let live_ok = level != Level::Live || w.wins_filled;
            if w.own >= need && live_ok {
                for &p in w.empties {
                    set.insert(p);
                }
            }
        });
        set
    }

    fn threats_if_played(&self, p: Point, c: Color, dir: Dir) -> u8 {
        match self.connection_through(p, c, dir) {
            None => 0,
            Some((len, f, i)) => {
                let s = window_stats_for(self.params[c.index()], len, f | 1 << i);
                if s.six {
                    3
                } else {
                    s.threats as u8
                }
            }
        }
    }

    fn point_type(&self, p: Point, c: Color, dir: Dir) -> ConnType {
        if !self.played.board.is_empty(p) {
            return ConnType::O;
        }
        let Some((len, f, i)) = self.connection_through(p, c, dir) else {
            return ConnType::O;
        };
        let params = self.params[c.index()];
        let t = classify_direct_for(params, len, f);
        if t == ConnType::WIN {
            return ConnType::O;
        }
        upgrade_type(t, classify_direct_for(params, len, f | 1 << i))
    }

    fn composite(&self, p: Point, c: Color) -> Composite {
        let types = Dir::ALL.map(|d| self.point_type(p, c, d));
        cpbim_kb::composite_class_for(self.params[0].p, types)
    }

    fn type_counts(&self, c: Color) -> TypeCounts {
        let board = &self.played.board;
        let k = board.game().k();
        let params = self.params[c.index()];
        let mut n = [0u16; 12];
        for line in &board.game().geometry().lines {
            let pts = &line.points[..line.len as usize];
            let mut stones = [0u32; 2];
            for (i, &p) in pts.iter().enumerate() {
                if let Some(s) = board.get(p) {
                    stones[s.index()] |= 1 << i;
                }
            }
            let conns = super::connections::line_connections(k, pts.len(), stones[0], stones[1]);
            for cn in conns.iter().filter(|cn| cn.color == c && cn.f != 0) {
                n[classify_direct_for(params, cn.len, cn.f) as usize] += 1;
            }
        }
        n
    }
}
