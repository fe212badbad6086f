//! The line and the proof tree of a win (`docs/search.md`, "The line" and "Proof trees"),
//! rebuilt after the search by re-searching with its warm table. The limits no longer apply:
//! the win is known.

use super::attacks::Attack;
use super::proof::{Defense, ProofNode};
use super::tree::{Found, Searcher};
use crate::geom::Point;
use crate::Model;

impl<M: Model> Searcher<'_, M> {
    /// The depth of the current A-node's win within `budget`, as the driver counts depths: the
    /// smallest (with `minimal`, by iterative deepening), or else the depth of the proof the
    /// win search finds. `None` when it is not won within `budget`.
    fn win_depth(&mut self, ply: usize, budget: u32) -> Option<u32> {
        if self.minimal {
            (0..=budget)
                .step_by(self.round as usize)
                .find(|&b| matches!(self.win_a(ply, b), Some(Found::Win(_))))
        } else {
            match self.win_a(ply, budget) {
                Some(Found::Win(d)) => Some(d),
                _ => None,
            }
        }
    }

    /// The stones completing the winning row from the first live window of A.
    fn six(&mut self) -> Vec<Point> {
        let mut w = Vec::new();
        self.m.live_windows(self.a, &mut w);
        w.first().map(|t| t.points().collect()).unwrap_or_default()
    }

    /// The stones of a move `(p, q)`: one when `p == q`.
    fn stones(p: Point, q: Point) -> Vec<Point> {
        if p == q {
            vec![p]
        } else {
            vec![p, q]
        }
    }

    /// The first attack (in search order) winning the current A-node within `budget`.
    fn winning_attack(&mut self, ply: usize, budget: u32) -> Option<Attack> {
        let best = self
            .tt
            .probe(
                self.m.zobrist(),
                self.rounds(budget),
                super::tt::Question::Win,
            )
            .best;
        let attacks = self.ordered_attacks(ply, best, false)?;
        for att in attacks {
            if att.thn > self.p {
                return Some(att);
            }
            self.make_pair(att.p, att.q, self.a);
            let won = matches!(
                self.win_d(ply + 2, budget - self.round),
                Some(Found::Win(_))
            );
            self.unmake_pair(att.p, att.q);
            if won {
                return Some(att);
            }
        }
        None
    }

    /// The principal line of a win within `budget` from the current A-node — attack, the
    /// defence that holds out longest, attack, … — and its depth in plies.
    pub(super) fn line(&mut self, budget: u32) -> (Vec<Vec<Point>>, u32) {
        let mut line = Vec::new();
        let mut made = Vec::new();
        let mut budget = budget;
        let mut plies = 0;
        let mut ply = 0;
        loop {
            if self.m.thn(self.a) > 0 {
                line.push(self.six());
                break;
            }
            let Some(b) = self.win_depth(ply, budget) else {
                break;
            };
            let Some(att) = self.winning_attack(ply, b) else {
                break;
            };
            line.push(Self::stones(att.p, att.q));
            plies += self.round;
            self.make_pair(att.p, att.q, self.a);
            made.push((att.p, att.q));
            let (_, pairs) = self.defences();
            // The defence that holds out longest.
            let mut best: Option<((Point, Point), u32)> = None;
            for (x, y) in pairs {
                self.make_pair(x, y, self.d);
                let depth = self.win_depth(ply + 4, b - self.round).unwrap_or(u32::MAX);
                self.unmake_pair(x, y);
                if best.is_none_or(|(_, d)| depth > d) {
                    best = Some(((x, y), depth));
                }
            }
            let Some(((x, y), depth)) = best else {
                break;
            };
            line.push(Self::stones(x, y));
            self.make_pair(x, y, self.d);
            made.push((x, y));
            budget = depth;
            ply += 4;
        }
        for (p, q) in made.into_iter().rev() {
            self.unmake_pair(p, q);
        }
        (line, plies)
    }

    /// The proof tree of a win within `budget` from the current A-node.
    pub(super) fn prove(&mut self, budget: u32) -> ProofNode {
        self.prove_at(0, budget)
    }

    fn prove_at(&mut self, ply: usize, budget: u32) -> ProofNode {
        if self.m.thn(self.a) > 0 {
            return ProofNode::Six { six: self.six() };
        }
        let b = self.win_depth(ply, budget).expect("proving a won node");
        let att = self
            .winning_attack(ply, b)
            .expect("a won node has a winning attack");
        self.make_pair(att.p, att.q, self.a);
        let (_, pairs) = self.defences();
        let mut defenses = Vec::with_capacity(pairs.len());
        for (x, y) in pairs {
            self.make_pair(x, y, self.d);
            let next = self.prove_at(ply + 4, b - self.round);
            self.unmake_pair(x, y);
            defenses.push(Defense {
                stones: Self::stones(x, y),
                next,
            });
        }
        self.unmake_pair(att.p, att.q);
        ProofNode::Attack {
            attack: Self::stones(att.p, att.q),
            defenses,
        }
    }
}
