//! Generates the knowledge base into `OUT_DIR` with the `cpbim-kb` crate (the same generator
//! the library and its tests use): `ct.bin` (connection type per shape), `ti.bin` (empty-point
//! types, 19 bytes per shape) and `composite.bin` (composite class per 4-tuple of types).

use std::{env, fs, path::PathBuf, time::Instant};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=kb/src");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let start = Instant::now();
    let ct = cpbim_kb::classify_all(cpbim_kb::N);
    let ti = cpbim_kb::point_types(&ct, cpbim_kb::N);
    let composite = cpbim_kb::composite_table();
    let generated = start.elapsed();
    fs::write(out.join("ct.bin"), &ct).expect("write ct.bin");
    fs::write(out.join("ti.bin"), &ti).expect("write ti.bin");
    fs::write(out.join("composite.bin"), &composite).expect("write composite.bin");
    fs::write(
        out.join("kb_generation_ms.txt"),
        format!("{}", generated.as_millis()),
    )
    .expect("write timing");
}
