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

use common::json::{Compact, Json};
use common::threats::check_threat_proof;
use common::{colour, Plain, Rules};
use cpbim::{Color, Game};

#[test]
#[ignore]
fn a_proof_file_holds() {
    let var = |name: &str| std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set"));
    // A proof of millions of nodes read whole: the compact tree, a tenth of `Value`'s memory.
    let text = std::fs::read_to_string(var("PROOF")).unwrap();
    let value: Compact = serde_json::from_str(&text).unwrap();
    drop(text);
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

/// The compact tree answers as `Value` does on a proof's shapes (keys, points, a long string,
/// null, a key absent); the checker on both trees is compared on every proof of tests/prove.rs.
#[test]
fn the_compact_tree_reads_as_value() {
    let text = r#"{"result":"win","nodes":12,"proof":{"threat":["G9"],"pass":{"six":["E11"]},
        "replies":[{"stones":["E1","a string longer than fourteen"],"next":null}]}}"#;
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    let compact: Compact = serde_json::from_str(text).unwrap();
    fn read<J: Json>(j: &J) -> (String, String, String, bool, bool, bool) {
        let proof = j.get("proof").unwrap();
        let reply = &proof.get("replies").unwrap().as_array().unwrap()[0];
        let stones = reply.get("stones").unwrap().as_array().unwrap();
        let point = |v: &J| v.as_str().unwrap().to_string();
        (
            point(&proof.get("threat").unwrap().as_array().unwrap()[0]),
            point(&stones[0]),
            point(&stones[1]),
            reply.get("next").unwrap().is_null(),
            proof.get("leaf").is_none(),
            proof.get("pass").unwrap().get("six").is_some(),
        )
    }
    let read_value = read(&value);
    assert_eq!(read_value, read(&compact));
    assert_eq!(read_value.2, "a string longer than fourteen");
    assert!(read_value.3 && read_value.4 && read_value.5);
}
