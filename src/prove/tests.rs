//! The prover's own state: what it remembers when a search is cut short.

use super::lambda::Prover;
use super::limits::Limits;
use crate::board::Position;
use crate::notation::{parse_position, Reading};
use crate::{Color, Game, Raw};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Black to move in mintaka-deep-a (tests/data/vcf/problems.txt): a VCF of 81 plies, which
/// the leaf search needs more than a publication interval of nodes to find.
pub(super) fn deep_vcf() -> Position {
    let text = include_str!("../../tests/data/vcf/problems.txt");
    let block = text
        .split("\n\n")
        .find(|b| b.contains("# id: mintaka-deep-a"))
        .expect("the problem");
    let diagram: Vec<&str> = block.lines().filter(|l| !l.starts_with('#')).collect();
    let how = Reading {
        game: Game::RENJU,
        to_move: Some(Color::Black),
    };
    parse_position(&diagram.join("\n"), how).expect("the diagram")
}

/// Limits under which the leaf search finds [`deep_vcf`]'s win.
pub(super) fn deep_limits() -> Limits {
    Limits {
        leaf_depth: 170,
        leaf_nodes: u64::MAX,
        ..Limits::default()
    }
}

/// A leaf search cut short by the stop signal (as a worker's is when a sibling job decides the
/// root) leaves nothing in the table: the position is unknown afterwards, not "no threat",
/// though the search found no win. The position: [`deep_vcf`].
#[test]
fn a_leaf_search_cut_short_is_not_remembered() {
    let pos = deep_vcf();
    let limits = deep_limits();
    let stop = AtomicBool::new(true);
    {
        let never = AtomicBool::new(false);
        let mut fresh = Prover::<Raw>::new(&limits, Color::Black, &never, Instant::now());
        assert!(fresh.leaf(pos.board()).is_some(), "no win at all");
    }
    let mut prover = Prover::<Raw>::new(&limits, Color::Black, &stop, Instant::now());
    let mut b = pos.board().clone();
    assert!(
        prover.leaf(&b).is_none(),
        "the leaf search is not cut short"
    );
    prover.stopped = false;
    // After an empty "threat": the leaf search asked whether black wins were white to pass.
    assert!(prover.threat(&mut b, &[], 2).is_none());
    assert!(prover.stopped, "a cut leaf search did not stop the prover");
    stop.store(false, Ordering::Relaxed);
    prover.stopped = false;
    assert!(
        prover.recall(&b, 2).is_none(),
        "a leaf search cut short was remembered"
    );
    assert!(prover.leaf(&b).is_some(), "no win to have forgotten");
    let mut fresh = Prover::<Raw>::new(&limits, Color::Black, &stop, Instant::now());
    assert!(fresh.leaf(&b).is_some(), "no win to have forgotten (fresh)");
}
