//! The brute-force checker on a proof file a long run wrote (ignored: it needs the file):
//!
//! ```text
//! PROOF=g9.json POSITION="H8 H9 I9 G9" GAME=gomoku SIDE=black \
//!     cargo test --release --test prove_check -- --ignored --nocapture
//! ```
//!
//! `PROOF` is `--proof`'s file or `--json`'s answer (its `proof`); `SIDE` the attacker, the
//! side to move by default.

mod common;

use common::threats::check_threat_proof;
use common::{colour, Plain, Rules};
use cpbim::{Color, Game};

#[test]
#[ignore]
fn a_proof_file_holds() {
    let var = |name: &str| std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set"));
    let text = std::fs::read_to_string(var("PROOF")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let proof = value.get("proof").unwrap_or(&value);
    let game: Game = std::env::var("GAME")
        .unwrap_or_else(|_| "connect6".into())
        .parse()
        .unwrap();
    let pos = cpbim::parse_position(&var("POSITION"), game).unwrap();
    let side = match std::env::var("SIDE") {
        Ok(name) => Color::of_name(&name).unwrap_or_else(|| panic!("SIDE {name}: black or white")),
        Err(_) => pos.to_move(),
    };
    let board = Plain::from_position(Rules::of(pos.game()), &pos);
    let start = std::time::Instant::now();
    let checked = check_threat_proof(&board, colour(side), proof);
    eprintln!(
        "checked in {:.1} s: {checked:?}",
        start.elapsed().as_secs_f64()
    );
    assert!(checked.is_ok(), "{checked:?}");
}
