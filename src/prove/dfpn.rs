//! Depth-first proof-number search (df-pn, Nagai 2002) over the nodes of the threat-space
//! search ([`super::lambda`]: the same threat moves and quiet moves, the same defences inside
//! the same zones, the same leaf searches, the same threat budget), so that both prove the
//! same positions within the same limits (a quiet move's win were the defender to pass is
//! searched depth-first, as there); df-pn goes first where the proof looks cheapest (fewest
//! unproven leaves) instead of in the order the moves were generated.
//!
//! Every node keeps its proof and disproof numbers in a table keyed by its stones (exact, not
//! a hash), the threats it may still spend and its kind. Placement games have no cycles, so
//! a node's value does not depend on the path that reached it.

use super::lambda::Prover;
use super::tree::{Reply, ThreatProof};
use crate::board::Board;
use crate::geom::Point;
use crate::model::Model;
use crate::search::proof::ProofNode;
use fxhash::FxHashMap;
use std::sync::Arc;

/// A number no proof or disproof number reaches: solved.
const INF: u32 = u32::MAX / 4;

/// Who is to move at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    /// The attacker, who may still spend the node's threats.
    Attacker,
    /// The defender, after a threat (or at the root); its replies' nodes spend one threat
    /// fewer than it holds (at the root: as many).
    Defender,
    /// The defender of two stones a move, its first stone placed; the attacker nodes after
    /// its second spend one threat fewer than it holds.
    Half,
    /// The defender after the attacker's quiet move (games of one stone a move): its moves
    /// lie in the zone of the attacker's threat-space win were it to pass, searched
    /// depth-first one level down; the attacker nodes after them spend one threat fewer.
    AfterQuiet,
}

type Key = (Box<[u16]>, u32, Kind);

/// Positions the table holds at most (a few hundred bytes each); a search that needs more
/// stops.
const MAX_NODES: usize = 1 << 21;

/// The stones of `b`, in point order, colour in the top bit: a position's exact key.
fn stones_key(b: &Board) -> Box<[u16]> {
    b.iter()
        .map(|(p, c)| p.index() as u16 | ((c.index() as u16) << 15))
        .collect()
}

struct Node {
    pn: u32,
    dn: u32,
    /// The moves to the children and their keys, once expanded.
    children: Option<Vec<(Vec<Point>, Key)>>,
    /// An attacker node won by its leaf search or known won by the store: the proof.
    known: Option<ThreatProof>,
    /// An attacker node solved and told to the store.
    kept: bool,
    /// A defender node: the attacker's leaf win were it to pass (none at a root without one,
    /// or after a first stone that stops it: then every move is searched).
    pass: Option<Arc<ProofNode>>,
    /// Stones the defender places here.
    stones: usize,
    /// A defender node after a threat: the threat's pass win is searched when the node is
    /// first expanded (none: it was no threat, and the node is disproven).
    after_threat: bool,
    /// After a quiet move, or at a root without a leaf win were D to pass (in the quiet
    /// phase): the attacker's threat-space win were D to pass.
    quiet_pass: Option<Arc<ThreatProof>>,
    /// An attacker node whose quiet moves join its children once its threat moves are all
    /// disproven (threats first, as in the depth-first search).
    quiets_pending: bool,
}

impl Node {
    fn new(pass: Option<Arc<ProofNode>>, stones: usize, after_threat: bool) -> Node {
        Node {
            after_threat,
            pn: 1,
            dn: 1,
            children: None,
            known: None,
            kept: false,
            pass,
            stones,
            quiet_pass: None,
            quiets_pending: false,
        }
    }
}

/// The df-pn search's table.
pub(super) struct Dfpn {
    nodes: FxHashMap<Key, Node>,
    /// The root of the search under way (its numbers are published).
    root: Option<Key>,
    /// The attacker.
    a: crate::Color,
}

impl Dfpn {
    /// An empty table for a proof of `a`'s win.
    pub(super) fn new(a: crate::Color) -> Dfpn {
        Dfpn {
            nodes: FxHashMap::default(),
            root: None,
            a,
        }
    }

    /// Prove that A wins on `b`: A to move with `t` threats, or (with `defender`) D to move
    /// placing `stones`, A's win were D to pass being `pass`.
    pub(super) fn run<M: Model>(
        &mut self,
        p: &mut Prover<'_, M>,
        b: &mut Board,
        t: u32,
        defender: Option<(Option<Arc<ProofNode>>, usize)>,
    ) -> Option<ThreatProof> {
        let key = match &defender {
            None => (stones_key(b), t, Kind::Attacker),
            Some(_) => (stones_key(b), t + 1, Kind::Defender),
        };
        if let Some((pass, stones)) = defender {
            self.nodes
                .entry(key.clone())
                .or_insert_with(|| Node::new(pass, stones, false));
        }
        self.root = Some(key.clone());
        self.mid(p, b, &key, INF, INF);
        self.keep_solved(p, b, &key);
        (self.nodes.get(&key)?.pn == 0).then(|| self.extract(b, &key))
    }

    /// The root's refutation once it is disproven at a defender root (on `b`): the
    /// defender's move whose node is disproven (through the node of its first stone in
    /// Connect6), or the stone that completes a row of D where a node has no children.
    pub(super) fn refutation(&self, b: &Board) -> Option<Vec<Point>> {
        let mut key = self.root.as_ref()?;
        let (mut b, d) = (b.clone(), self.a.opponent());
        let mut stones = Vec::new();
        while key.2 != Kind::Attacker {
            let node = self.nodes.get(key)?;
            let disproven = node
                .children
                .as_ref()?
                .iter()
                .find(|(_, k)| self.nodes.get(k).is_some_and(|n| n.dn == 0));
            let Some((s, child)) = disproven else {
                let row = b.game().points().find(|&x| {
                    b.is_empty(x) && {
                        b.set(x, Some(d));
                        let wins = b.win_through(x, d).is_some();
                        b.set(x, None);
                        wins
                    }
                })?;
                stones.push(row);
                break;
            };
            s.iter().for_each(|&x| b.set(x, Some(d)));
            stones.extend(s);
            key = child;
        }
        (!stones.is_empty()).then_some(stones)
    }

    /// An attacker node `key` (on `b`) just solved is told to the store (when there is one),
    /// once: its proof is read back from the table only for that.
    fn keep_solved<M: Model>(&mut self, p: &mut Prover<'_, M>, b: &mut Board, key: &Key) {
        if p.limits.store.is_none() {
            return;
        }
        let solved = self.nodes.get(key).and_then(|n| {
            (key.2 == Kind::Attacker && !n.kept && (n.pn == 0 || n.dn == 0)).then_some(n.pn == 0)
        });
        if let Some(won) = solved {
            let found = won.then(|| self.extract(b, key));
            p.keep(b, found.as_ref(), key.1, u64::MAX);
            self.nodes.get_mut(key).expect("solved").kept = true;
        }
    }

    /// Search below `key` (on `b`) until its numbers reach the thresholds or it is solved.
    fn mid<M: Model>(
        &mut self,
        p: &mut Prover<'_, M>,
        b: &mut Board,
        key: &Key,
        th_pn: u32,
        th_dn: u32,
    ) {
        p.dfpn_positions = self.nodes.len();
        if self.nodes.len() >= MAX_NODES {
            // Memory: the search ends as if stopped ("stopped", never a wrong answer).
            p.stopped = true;
        }
        if p.out_of_limits() {
            return;
        }
        if self.nodes.get(key).is_none_or(|n| n.children.is_none()) {
            self.expand(p, b, key);
            if p.stopped {
                return;
            }
        }
        loop {
            let (pn, dn, best) = self.numbers(key);
            if dn == 0 && self.nodes[key].quiets_pending {
                // The threats are all disproven: the quiet moves now.
                let mut node = self.nodes.remove(key).expect("expanded");
                let quiets = self.quiet_children(p, b, key.1, &mut node);
                node.children.as_mut().expect("expanded").extend(quiets);
                self.nodes.insert(key.clone(), node);
                continue;
            }
            let node = self.nodes.get_mut(key).expect("expanded");
            node.pn = pn;
            node.dn = dn;
            if self.root.as_ref() == Some(key) {
                p.root_numbers(pn.min(INF), dn.min(INF));
            }
            let Some((i, child_pn, child_dn, second)) = best else {
                return;
            };
            if pn >= th_pn || dn >= th_dn || p.stopped {
                return;
            }
            let (c_pn, c_dn) = match key.2 {
                Kind::Attacker => (
                    th_pn.min(second.saturating_add(1)),
                    (th_dn - dn).saturating_add(child_dn).min(INF),
                ),
                Kind::Defender | Kind::Half | Kind::AfterQuiet => (
                    (th_pn - pn).saturating_add(child_pn).min(INF),
                    th_dn.min(second.saturating_add(1)),
                ),
            };
            let (stones, child) = self.nodes[key].children.as_ref().expect("expanded")[i].clone();
            let c = if key.2 == Kind::Attacker { p.a } else { p.d };
            stones.iter().for_each(|&x| b.set(x, Some(c)));
            self.mid(p, b, &child, c_pn, c_dn);
            self.keep_solved(p, b, &child);
            stones.iter().for_each(|&x| b.set(x, None));
            if p.stopped {
                let (pn, dn, _) = self.numbers(key);
                let node = self.nodes.get_mut(key).expect("expanded");
                // Threats all disproven with quiet moves still to try: not disproven.
                if dn > 0 || !node.quiets_pending {
                    (node.pn, node.dn) = (pn, dn);
                }
                return;
            }
        }
    }

    /// A node's numbers from its children's, and the child to search next with its numbers and
    /// the second best (proof number at an attacker node, disproof number at a defender's).
    /// `None` for a solved or childless node.
    #[allow(clippy::type_complexity)]
    fn numbers(&self, key: &Key) -> (u32, u32, Option<(usize, u32, u32, u32)>) {
        let node = &self.nodes[key];
        let children = node.children.as_ref().expect("expanded");
        if node.pn == 0 || node.dn == 0 || children.is_empty() {
            return (node.pn, node.dn, None);
        }
        let value = |k: &Key| self.nodes.get(k).map_or((1, 1), |n| (n.pn, n.dn));
        let (mut min, mut sum) = (INF, 0u32);
        let (mut best, mut best_value, mut second) = (0, INF, INF);
        let mut best_numbers = (1, 1);
        for (i, (_, k)) in children.iter().enumerate() {
            let (cpn, cdn) = value(k);
            let (choose, add) = match key.2 {
                Kind::Attacker => (cpn, cdn),
                Kind::Defender | Kind::Half | Kind::AfterQuiet => (cdn, cpn),
            };
            min = min.min(choose);
            sum = sum.saturating_add(add).min(INF);
            if choose < best_value {
                second = best_value;
                (best, best_value, best_numbers) = (i, choose, (cpn, cdn));
            } else if choose < second {
                second = choose;
            }
        }
        let (pn, dn) = match key.2 {
            Kind::Attacker => (min, sum),
            Kind::Defender | Kind::Half | Kind::AfterQuiet => (sum, min),
        };
        (pn, dn, Some((best, best_numbers.0, best_numbers.1, second)))
    }

    /// Generate a node's children (or settle it: a leaf win, no threat budget, a defence that
    /// completes a row, nothing to answer). A search the stop signal cut short leaves the node
    /// as it was, unexpanded: its "no win" is no answer ([`Prover::leaf`]).
    fn expand<M: Model>(&mut self, p: &mut Prover<'_, M>, b: &mut Board, key: &Key) {
        let mut node = self
            .nodes
            .remove(key)
            .unwrap_or_else(|| Node::new(None, b.game().p(), false));
        let before = (node.pn, node.dn);
        let children = match key.2 {
            Kind::Attacker => self.attacker_children(p, b, key.1, &mut node),
            Kind::Defender => {
                if node.after_threat && node.pass.is_none() {
                    node.pass = p.leaf(b);
                }
                if node.after_threat && node.pass.is_none() {
                    // No win were D to pass: the move was no threat.
                    (node.pn, node.dn) = (INF, 0);
                    Vec::new()
                } else {
                    let mut zone = p.zone_of(b, node.pass.as_deref());
                    if node.pass.is_none() && p.quiet_phase {
                        // A root without a leaf win were D to pass: its threat-space win, as
                        // the depth-first search's defender root has it.
                        if let Some((pass, pass_zone)) = p.quiet_pass(b, key.1 - 1) {
                            (node.quiet_pass, zone) = (Some(Arc::new(pass)), pass_zone);
                        }
                    }
                    let next = if node.stones == 1 {
                        (key.1 - 1, Kind::Attacker)
                    } else {
                        (key.1, Kind::Half)
                    };
                    settle(&mut node, stones_in(p, b, zone, next))
                }
            }
            Kind::Half => {
                // The attacker's win were D to place no second stone; the second stones
                // outside its zone leave it standing.
                node.pass = p.leaf(b);
                let zone = p.zone_of(b, node.pass.as_deref());
                settle(
                    &mut node,
                    stones_in(p, b, zone, (key.1 - 1, Kind::Attacker)),
                )
            }
            Kind::AfterQuiet => self.after_quiet_children(p, b, key, &mut node),
        };
        if p.stopped {
            (node.pn, node.dn) = before;
        } else {
            node.children = Some(children);
        }
        self.nodes.insert(key.clone(), node);
    }

    /// An attacker node's children with `t` threats to spend on `b`: its threat moves, then
    /// (in the quiet phase, with two threats or more) its quiet moves; none when its leaf
    /// search wins, the store knows it, or it has nothing to try (then `node` is settled).
    fn attacker_children<M: Model>(
        &mut self,
        p: &mut Prover<'_, M>,
        b: &mut Board,
        t: u32,
        node: &mut Node,
    ) -> Vec<(Vec<Point>, Key)> {
        let mut children = Vec::new();
        if let Some(known) = p.stored_within(b, t) {
            (node.pn, node.dn) = if known.is_some() { (0, INF) } else { (INF, 0) };
            (node.known, node.kept) = (known, true);
        } else if let Some(leaf) = p.leaf(b) {
            (node.pn, node.dn) = (0, INF);
            node.known = Some(ThreatProof::Leaf { leaf });
        } else if t == 0 {
            (node.pn, node.dn) = (INF, 0);
        } else {
            // Whether each is a threat is asked when it is first chosen.
            children = self.children_of(p, b, t, p.threat_moves(b, p.limits.width), Kind::Defender);
            node.quiets_pending = p.quiet_phase && p.level < p.limits.quiet_depth && t >= 2;
            if children.is_empty() && node.quiets_pending {
                children = self.quiet_children(p, b, t, node);
            }
            if children.is_empty() {
                (node.pn, node.dn) = (INF, 0);
            }
        }
        children
    }

    /// An attacker node's quiet moves on `b` (`t` threats), its quiets no longer pending.
    fn quiet_children<M: Model>(
        &mut self,
        p: &mut Prover<'_, M>,
        b: &mut Board,
        t: u32,
        node: &mut Node,
    ) -> Vec<(Vec<Point>, Key)> {
        node.quiets_pending = false;
        let quiets = p.threat_moves(b, p.limits.quiet);
        self.children_of(p, b, t, quiets, Kind::AfterQuiet)
    }

    /// The children after each of A's `moves` on `b` (`t` threats), of `kind`, in the table.
    fn children_of<M: Model>(
        &mut self,
        p: &Prover<'_, M>,
        b: &mut Board,
        t: u32,
        moves: Vec<Vec<Point>>,
        kind: Kind,
    ) -> Vec<(Vec<Point>, Key)> {
        let stones = b.game().p();
        let after_threat = kind == Kind::Defender;
        let mut children = Vec::new();
        for m in moves {
            m.iter().for_each(|&x| b.set(x, Some(p.a)));
            let k = (stones_key(b), t, kind);
            m.iter().for_each(|&x| b.set(x, None));
            if !self.nodes.contains_key(&k) {
                let node = self.carried_over(&k, stones, after_threat);
                self.nodes.insert(k.clone(), node);
            }
            children.push((m, k));
        }
        children
    }

    /// A new node for `key`, with what its node of one threat fewer found that does not
    /// depend on the budget: a threat's leaf win were D to pass (or that there is none: no
    /// threat), a quiet move's threat-space win were D to pass.
    fn carried_over(&self, key: &Key, stones: usize, after_threat: bool) -> Node {
        let mut node = Node::new(None, stones, after_threat);
        let smaller = (key.1 > 0)
            .then(|| self.nodes.get(&(key.0.clone(), key.1 - 1, key.2)))
            .flatten()
            .filter(|n| n.children.is_some());
        match (smaller, key.2) {
            (Some(n), Kind::Defender) if n.pass.is_none() => {
                // No threat.
                (node.pn, node.dn, node.children) = (INF, 0, Some(Vec::new()));
            }
            (Some(n), Kind::Defender) => node.pass = n.pass.clone(),
            (Some(n), Kind::AfterQuiet) => node.quiet_pass = n.quiet_pass.clone(),
            _ => {}
        }
        node
    }

    /// The defender's moves after A's quiet move (node `key` on `b`): those inside the zone of
    /// A's threat-space win were D to pass, with one threat fewer; none, and `node` disproven,
    /// when the move makes a threat (its threat node proves it) or wins nothing were D to pass.
    fn after_quiet_children<M: Model>(
        &mut self,
        p: &mut Prover<'_, M>,
        b: &mut Board,
        key: &Key,
        node: &mut Node,
    ) -> Vec<(Vec<Point>, Key)> {
        let t = key.1;
        if let Some(pass) = node.quiet_pass.clone() {
            // Found at a smaller budget (a proof is a proof).
            let zone = p.quiet_zone(b, &pass);
            return settle(node, stones_in(p, b, zone, (t - 1, Kind::Attacker)));
        }
        let as_threat = self
            .nodes
            .get(&(key.0.clone(), t, Kind::Defender))
            .filter(|n| n.children.is_some())
            .map(|n| n.pass.is_some());
        let threat = as_threat.unwrap_or_else(|| p.leaf(b).is_some());
        match (!threat && !p.stopped)
            .then(|| p.quiet_pass(b, t - 1))
            .flatten()
        {
            Some((pass, zone)) => {
                node.quiet_pass = Some(Arc::new(pass));
                settle(node, stones_in(p, b, zone, (t - 1, Kind::Attacker)))
            }
            None => {
                (node.pn, node.dn) = (INF, 0);
                Vec::new()
            }
        }
    }

    /// The proof below the proven node `key` on `b`.
    fn extract(&self, b: &mut Board, key: &Key) -> ThreatProof {
        let node = &self.nodes[key];
        let children = node.children.as_ref().expect("a proven node is expanded");
        match key.2 {
            Kind::Attacker => {
                if let Some(proof) = &node.known {
                    return proof.clone();
                }
                let (m, child) = children
                    .iter()
                    .find(|(_, k)| self.nodes.get(k).is_some_and(|n| n.pn == 0))
                    .expect("a proven attacker node has a proven child");
                m.iter().for_each(|&x| b.set(x, Some(self.a)));
                let replies = self.replies(b, child);
                m.iter().for_each(|&x| b.set(x, None));
                let after = &self.nodes[child];
                match child.2 {
                    Kind::AfterQuiet => ThreatProof::Quiet {
                        quiet: m.clone(),
                        pass: after.quiet_pass.clone().expect("a quiet move's pass win"),
                        replies,
                    },
                    _ => ThreatProof::Threat {
                        threat: m.clone(),
                        pass: after.pass.clone().expect("a threat's pass win"),
                        replies,
                    },
                }
            }
            Kind::Defender | Kind::Half | Kind::AfterQuiet => ThreatProof::Defence {
                pass: match &node.quiet_pass {
                    Some(pass) => Some(pass.clone()),
                    None => node
                        .pass
                        .clone()
                        .map(|leaf| Arc::new(ThreatProof::Leaf { leaf })),
                },
                replies: self.replies(b, key),
            },
        }
    }

    /// The replies of the proven defender node `key` on `b`, each with its proof.
    fn replies(&self, b: &mut Board, key: &Key) -> Vec<Reply> {
        let node = &self.nodes[key];
        let d = self.a.opponent();
        let children = node.children.as_ref().expect("a proven node is expanded");
        let mut out = Vec::new();
        for (stones, k) in children {
            stones.iter().for_each(|&x| b.set(x, Some(d)));
            match k.2 {
                Kind::Half => {
                    let half = &self.nodes[k];
                    let through = self.replies(b, k).into_iter().map(|r| match r {
                        Reply::Move {
                            stones: second,
                            next,
                        } => Reply::Move {
                            stones: [stones.as_slice(), second.as_slice()].concat(),
                            next,
                        },
                        stone => stone,
                    });
                    match &half.pass {
                        Some(pass) => out.push(Reply::Stone {
                            stone: stones[0],
                            pass: pass.clone(),
                            replies: through.collect(),
                        }),
                        None => out.extend(through),
                    }
                }
                _ => out.push(Reply::Move {
                    stones: stones.clone(),
                    next: Arc::new(self.extract(b, k)),
                }),
            }
            stones.iter().for_each(|&x| b.set(x, None));
        }
        out
    }
}

/// D's stones in `zone` on `b`, each with the key of the node after it (`next`: its
/// threats and kind); `None` when one completes a row of D.
fn stones_in<M: Model>(
    p: &mut Prover<'_, M>,
    b: &mut Board,
    zone: crate::geom::PointSet,
    next: (u32, Kind),
) -> Option<Vec<(Vec<Point>, Key)>> {
    let mut out = Vec::new();
    let legal: Vec<Point> = zone.iter().filter(|&x| p.may_defend(b, x)).collect();
    for x in legal {
        b.set(x, Some(p.d));
        let wins = b.win_through(x, p.d).is_some();
        let key = (stones_key(b), next.0, next.1);
        b.set(x, None);
        if wins {
            return None;
        }
        out.push((vec![x], key));
    }
    Some(out)
}

/// A defender node's children `moves`: none to answer proves it, a row of D disproves it.
fn settle(node: &mut Node, moves: Option<Vec<(Vec<Point>, Key)>>) -> Vec<(Vec<Point>, Key)> {
    match moves {
        Some(list) if list.is_empty() => (node.pn, node.dn) = (0, INF),
        Some(list) => return list,
        None => (node.pn, node.dn) = (INF, 0),
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::super::tests::{deep_limits, deep_vcf};
    use super::*;
    use crate::{Color, Raw};
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;

    /// A node whose leaf search the stop signal cut short stays unexpanded: neither the
    /// threat's node (its pass win not found) nor an attacker node without threats to spend
    /// is disproven by a search that did not finish (the store would keep the failure).
    #[test]
    fn a_leaf_search_cut_short_settles_nothing() {
        let pos = deep_vcf();
        let limits = deep_limits();
        let stop = AtomicBool::new(true);
        let mut p = Prover::<Raw>::new(&limits, Color::Black, &stop, Instant::now());
        let mut b = pos.board().clone();
        let mut dfpn = Dfpn::new(Color::Black);
        for key in [
            (stones_key(&b), 2, Kind::Defender),
            (stones_key(&b), 0, Kind::Attacker),
        ] {
            dfpn.nodes.insert(key.clone(), Node::new(None, 1, true));
            p.stopped = false;
            dfpn.expand(&mut p, &mut b, &key);
            assert!(p.stopped, "{:?}: the leaf search was not cut short", key.2);
            let node = &dfpn.nodes[&key];
            assert!(node.children.is_none(), "{:?}: expanded", key.2);
            assert_eq!((node.pn, node.dn), (1, 1), "{:?}: settled", key.2);
        }
        let never = AtomicBool::new(false);
        let mut p = Prover::<Raw>::new(&limits, Color::Black, &never, Instant::now());
        let key = (stones_key(&b), 0, Kind::Attacker);
        dfpn.expand(&mut p, &mut b, &key);
        assert_eq!(dfpn.nodes[&key].pn, 0, "no win to have been cut short");
    }
}
