//! One node of the proof search expanded, for a search whose tree is kept elsewhere: the job
//! level of Wu et al.'s job-level proof-number search, where a master keeps the top of the
//! proof-number tree and runs `prove` on its frontier as jobs (the Python package's
//! `cpbim.dask.prove`; docs/distributed.md). The children are the ones [`super::prove`] itself
//! searches there, so a tree of expansions and proven jobs is a proof of the same form.

use super::lambda::Prover;
use super::limits::Limits;
use crate::board::Position;
use crate::geom::{Color, Point};
use crate::model::Model;
use crate::search::proof::ProofNode;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// A node of `a`'s proof search, expanded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// The defender has a row already: `a` cannot win here.
    Lost,
    /// `a` to move, and the leaf search wins (the node is proven by it).
    Leaf(ProofNode),
    /// `a` to move: its threat moves, the most promising first (each a move after which the
    /// leaf search would win were the defender to pass; at most [`Limits::width`] tried).
    Threats(Vec<Vec<Point>>),
    /// The defender to move.
    Defences {
        /// `a`'s win were the defender to pass (`None`: the leaf search found none).
        pass: Option<ProofNode>,
        /// The moves that must be answered: those inside `pass`'s relevance zone (every
        /// move without one), the defender's forbidden points left out in Renju.
        moves: Vec<Vec<Point>>,
    },
}

/// Expand `pos` for `a`'s win within `limits` (the leaf search's depth and nodes, the width,
/// the zone or full width), `None` where the game places more than one stone a move (the
/// defender's two stones are searched one by one inside a job; its moves are not listed).
pub fn expand<M: Model>(
    pos: &Position,
    a: Color,
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<Expansion> {
    if pos.game().p() != 1 {
        return None;
    }
    let mut prover = Prover::<M>::new(limits, a, stop, Instant::now());
    let mut b = pos.board().clone();
    if b.find_win_of(a.opponent()).is_some() {
        return Some(Expansion::Lost);
    }
    if pos.to_move() != a {
        let pass = prover.leaf(&b).map(Arc::unwrap_or_clone);
        let zone = prover.zone_of(&b, pass.as_ref());
        let moves = prover.first_stones(&b, zone).into_iter().map(|x| vec![x]);
        return Some(Expansion::Defences {
            pass,
            moves: moves.collect(),
        });
    }
    if let Some(leaf) = prover.leaf(&b) {
        return Some(Expansion::Leaf(Arc::unwrap_or_clone(leaf)));
    }
    let mut threats = Vec::new();
    for threat in prover.threat_moves(&b, limits.width) {
        threat.iter().for_each(|&x| b.set(x, Some(a)));
        if prover.leaf(&b).is_some() {
            threats.push(threat.clone());
        }
        threat.iter().for_each(|&x| b.set(x, None));
    }
    Some(Expansion::Threats(threats))
}

/// An expansion as JSON: `{"node": "lost"}`, `{"node": "leaf", "proof": {"leaf": NODE}}`,
/// `{"node": "attacker", "moves": [[stones], …]}` or `{"node": "defender", "pass": NODE |
/// null, "moves": [[stones], …]}` (NODE as in docs/json.md).
pub fn expansion_json(e: &Expansion) -> Value {
    let moves = |ms: &[Vec<Point>]| -> Vec<Vec<String>> {
        ms.iter()
            .map(|m| m.iter().map(|x| x.to_string()).collect())
            .collect()
    };
    let node = |n: &ProofNode| serde_json::to_value(n).expect("a proof serialises");
    match e {
        Expansion::Lost => json!({"node": "lost"}),
        Expansion::Leaf(leaf) => json!({"node": "leaf", "proof": {"leaf": node(leaf)}}),
        Expansion::Threats(ms) => json!({"node": "attacker", "moves": moves(ms)}),
        Expansion::Defences { pass, moves: ms } => json!({
            "node": "defender",
            "pass": pass.as_ref().map(node),
            "moves": moves(ms),
        }),
    }
}
