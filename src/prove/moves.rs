//! The attacker's candidate moves at a node of the proof search ([`super::lambda`]): points
//! scored by the windows of both sides through them, the most promising first.

use super::lambda::Prover;
use super::zone::for_each_window;
use crate::board::Board;
use crate::geom::{Point, MAX_POINTS};
use crate::model::Model;
use crate::renju;

impl<M: Model> Prover<'_, M> {
    /// A's threat moves on `b` worth trying, the most promising first, at most `width`: moves
    /// of p legal stones near A's and D's windows that leave D no window to complete.
    pub(super) fn threat_moves(&self, b: &Board, width: usize) -> Vec<Vec<Point>> {
        let game = *b.game();
        let p = game.p();
        let mut score = [0u64; MAX_POINTS];
        let mut open = Vec::new();
        let any = |stones: [usize; 2]| stones != [0, 0];
        for_each_window(b, any, |cells, stones| {
            for (c, weight) in [(self.a, 2), (self.d, 1)] {
                let (own, blocked) = (stones[c.index()], stones[c.opponent().index()] > 0);
                if blocked || own == 0 {
                    continue;
                }
                if c == self.d && own + p >= game.k() {
                    open.push(cells.to_vec());
                }
                let value = weight << (2 * own);
                for &x in cells {
                    score[x.index()] += value;
                }
            }
        });
        let mut points: Vec<Point> = game
            .points()
            .filter(|&x| score[x.index()] > 0 && b.is_empty(x))
            .collect();
        points.sort_by_key(|x| std::cmp::Reverse(score[x.index()]));
        let blocks_all = |m: &[Point]| open.iter().all(|w| w.iter().any(|x| m.contains(x)));
        // Forbidden points only bind black in Renju, a game of one stone a move.
        let forbidden = renju::applies(&game, self.a);
        let legal = |m: &[Point]| !forbidden || !m.iter().any(|&x| renju::is_forbidden(b, x));
        // The candidates stay arrays, and are checked, only until `width` of them are taken.
        let moves: Vec<(u64, [Point; 2])> = if p == 1 {
            points.iter().map(|&x| (score[x.index()], [x, x])).collect()
        } else {
            let top = &points[..points.len().min(width.max(12))];
            let mut pairs = Vec::new();
            for (i, &x) in top.iter().enumerate() {
                for &y in &top[i + 1..] {
                    pairs.push((score[x.index()] + score[y.index()], [x, y]));
                }
            }
            pairs.sort_by_key(|(s, _)| std::cmp::Reverse(*s));
            pairs
        };
        moves
            .iter()
            .map(|(_, m)| &m[..p])
            .filter(|m| blocks_all(m) && legal(m))
            .take(width)
            .map(|m| m.to_vec())
            .collect()
    }
}
