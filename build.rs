//! Generates the knowledge base into `OUT_DIR` with the `cpbim-kb` crate (the same generator
//! the library and its tests use): Connect6's `ct.bin` (connection type per shape), `ti.bin`
//! (empty-point types, 19 bytes per shape) and `composite.bin` (composite class per 4-tuple of
//! types), the composite table of the games of one stone a move (`composite-1.bin`), and the
//! tables of the games of five on 15×15 (`ct-5-1-free-15.bin`, …).

use std::{env, fs, path::PathBuf, time::Instant};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=kb/src");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let start = Instant::now();
    let ct = cpbim_kb::classify_all(cpbim_kb::N);
    let ti = cpbim_kb::point_types(&ct, cpbim_kb::N);
    let composite = cpbim_kb::composite_table();
    let composite_1 = cpbim_kb::composite_table_for(1);
    // The games of five on 15×15: Gomoku (five or more) and standard Gomoku / Renju's black
    // (exactly five).
    let fives = [
        (cpbim_kb::Params::FIVE_OR_MORE, "free"),
        (cpbim_kb::Params::EXACTLY_FIVE, "exact"),
    ]
    .map(|(params, rule)| {
        let ct = cpbim_kb::classify_all_for(params, 15);
        let ti = cpbim_kb::point_types_for(params.k, &ct, 15);
        (rule, ct, ti)
    });
    let generated = start.elapsed();
    fs::write(out.join("ct.bin"), &ct).expect("write ct.bin");
    fs::write(out.join("ti.bin"), &ti).expect("write ti.bin");
    fs::write(out.join("composite.bin"), &composite).expect("write composite.bin");
    fs::write(out.join("composite-1.bin"), &composite_1).expect("write composite-1.bin");
    for (rule, ct, ti) in fives {
        fs::write(out.join(format!("ct-5-1-{rule}-15.bin")), ct).expect("write ct");
        fs::write(out.join(format!("ti-5-1-{rule}-15.bin")), ti).expect("write ti");
    }
    fs::write(
        out.join("kb_generation_ms.txt"),
        format!("{}", generated.as_millis()),
    )
    .expect("write timing");
}
