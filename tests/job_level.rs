//! Proofs written by the Python package's job level (`cpbim.dask.prove` and the simulation of
//! `cpbim.jobs`, crates/cpbim-py) hold on the raw board: the brute-force checker of
//! `tests/common/threats.rs`, which trusts no zone, reads each. The Python tests
//! (crates/cpbim-py/tests/test_jobs.py) write them, one JSON object `{"position", "game",
//! "side", "proof"}` a file, into the folder `CPBIM_JOB_PROOFS` names; `scripts/test` runs this
//! test after them.

mod common;

use common::threats::check_threat_proof;
use common::{colour, Plain, Rules};
use cpbim::{Color, Game};

#[test]
#[ignore = "reads the proofs the Python tests write; scripts/test runs it after them"]
fn job_level_proofs_pass_the_brute_force_checker() {
    let dir = std::env::var("CPBIM_JOB_PROOFS").expect("CPBIM_JOB_PROOFS names the proofs' folder");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("the proofs' folder") {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let game: Game = json["game"].as_str().unwrap().parse().unwrap();
        let pos = cpbim::parse_position(json["position"].as_str().unwrap(), game).unwrap();
        let side = match json["side"].as_str().unwrap() {
            "black" => Color::Black,
            _ => Color::White,
        };
        let board = Plain::from_position(Rules::of(pos.game()), &pos);
        if let Err(e) = check_threat_proof(&board, colour(side), &json["proof"]) {
            panic!("{}: the checker refuses the proof: {e}", path.display());
        }
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} proofs in {dir}");
}
