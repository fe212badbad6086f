//! The Raw model: the intersection array and nothing else. Every query scans the lines of the
//! board; connection and point types come from the table-free classifier at query time.

use super::{Model, Threat};
use crate::board::Board;
use crate::game::CONNECT6_GEOMETRY as GEOMETRY;
use crate::geom::{Color, Dir, Point, PointSet};
use crate::kb::ConnType;
use crate::model::connections::K;
use crate::model::Played;
use cpbim_kb::{classify_direct, point_type as upgrade_type, window_stats};

/// The board as an intersection array; no knowledge base, no incremental state.
#[derive(Clone)]
pub struct Raw {
    played: Played,
}

impl Raw {
    /// Call `f(own, empties)` for every window of six of the board with no stone of the
    /// opponent of `c`, `own` being its number of `c` stones.
    fn for_each_window(&self, c: Color, mut f: impl FnMut(usize, &[Point])) {
        for line in &GEOMETRY.lines {
            let pts = &line.points[..line.len as usize];
            for w in pts.windows(K) {
                let mut own = 0;
                let mut empties = [Point::CENTER; K];
                let mut n = 0;
                let mut blocked = false;
                for &p in w {
                    match self.played.board.get(p) {
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
                if !blocked {
                    f(own, &empties[..n]);
                }
            }
        }
    }
}

impl Raw {
    /// The connection of `c` through `p` in direction `dir`, found by scanning the line:
    /// `(|c|, f(c), offset of p in c)`.
    fn connection_through(&self, p: Point, c: Color, dir: Dir) -> Option<(u32, u32, u32)> {
        let slot = GEOMETRY.slot(p, dir)?;
        let line = &GEOMETRY.lines[slot.line as usize];
        let pts = &line.points[..line.len as usize];
        let free = |i: usize| self.played.board.get(pts[i]) != Some(c.opponent());
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
        if len < K {
            return None;
        }
        let f = (a..=b)
            .filter(|&j| self.played.board.get(pts[j]) == Some(c))
            .fold(0u32, |f, j| f | 1 << (j - a));
        Some((len as u32, f, (i - a) as u32))
    }
}

impl Model for Raw {
    const NAME: &'static str = "raw";

    fn from_board(board: &Board) -> Self {
        Raw {
            played: Played::new(board),
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

    fn has_six(&self, c: Color) -> bool {
        let mut six = false;
        self.for_each_window(c, |own, _| six |= own == K);
        six
    }

    fn live_windows(&self, c: Color, out: &mut Vec<Threat>) {
        out.clear();
        self.for_each_window(c, |own, empties| {
            if own >= K - 2 {
                out.push(Threat::new(empties));
            }
        });
        out.sort_unstable();
        out.dedup();
    }

    fn candidates(&self, c: Color, min_stones: u32) -> PointSet {
        assert!((2..=4).contains(&min_stones), "min_stones in 2..=4");
        let mut set = PointSet::EMPTY;
        self.for_each_window(c, |own, empties| {
            if own >= min_stones as usize {
                for &p in empties {
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
                let s = window_stats(len, f | 1 << i);
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
        let t = classify_direct(len, f);
        if t == ConnType::WIN {
            return ConnType::O;
        }
        upgrade_type(t, classify_direct(len, f | 1 << i))
    }
}
