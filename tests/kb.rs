//! Known answers from the paper and exhaustive sweeps of the knowledge base.

use cpbim::kb::{self, shape_from_index, shape_index, Composite, ConnType, K, N, SHAPES};
use cpbim_kb::reference::{self, Reference};

/// Table 1 of the paper, by type code (O, L2, D3, S3, L3, D4, S4, L4, D5, L5, DW, WIN).
const TABLE_1: [u64; 12] = [
    5239, 14425, 2186, 55085, 86913, 10775, 191025, 149319, 45952, 181781, 192916, 112896,
];

#[test]
fn table_1_counts_exactly() {
    let s = kb::stats();
    assert_eq!(s.counts, TABLE_1);
    assert_eq!(s.total, 1_048_512);
    assert_eq!(SHAPES, 1_048_512);
}

#[test]
fn generator_run_at_test_time_equals_the_built_in_table() {
    let ct = cpbim_kb::classify_all(N);
    assert_eq!(&ct[..], &kb::ct_bytes()[..]);
}

#[test]
fn table_2_sizes() {
    let s = kb::stats().sizes_kb;
    // The paper prints three decimals.
    let r = |x: f64| (x * 1000.0).round() / 1000.0;
    assert_eq!(r(s.connect6_19), 511.969);
    assert_eq!(r(s.connect6_15), 31.969);
    assert_eq!(r(s.connect6_13), 7.969);
    assert_eq!(r(s.gomoku_15), 31.984);
}

#[test]
fn theorem_1_is_a_bijection_onto_consecutive_numbers() {
    let mut seen = vec![false; SHAPES];
    for len in K..=N {
        for f in 0..1u32 << len {
            let i = shape_index(K, len, f) as usize;
            assert!(i < SHAPES, "({len}, {f}) numbered {i}");
            assert!(!seen[i], "({len}, {f}) shares number {i}");
            seen[i] = true;
            assert_eq!(shape_from_index(K, i as u32), (len, f));
        }
    }
    assert!(seen.iter().all(|&s| s), "numbers are consecutive from 0");
}

#[test]
fn figure_1_shape_numbers() {
    // A = ('B', 11, 208): the printed |A| = 7 cannot hold f = 208.
    assert_eq!(shape_index(K, 11, 208), 2192);
    assert_eq!(shape_index(K, 11, 8), 1992); // B
    assert_eq!(shape_index(K, 7, 0), 64); // C
    assert_eq!(shape_index(K, 19, 0), 524_224); // D and E
}

#[test]
fn every_shape_agrees_with_the_reference_classifier() {
    let mut r = Reference::new();
    for (index, &code) in kb::ct_bytes().iter().enumerate() {
        let (len, f) = shape_from_index(K, index as u32);
        let expected = r.classify(&reference::stones(len, f));
        assert_eq!(
            ConnType::ALL[code as usize],
            expected,
            "shape {index} = (len {len}, f {f:#b})"
        );
    }
}

#[test]
fn table_free_classifier_agrees_on_every_shape() {
    for (index, &code) in kb::ct_bytes().iter().enumerate() {
        let (len, f) = shape_from_index(K, index as u32);
        assert_eq!(
            cpbim_kb::classify_direct(len, f) as u8,
            code,
            "shape {index} = (len {len}, f {f:#b})"
        );
    }
}

#[test]
fn empty_point_table_agrees_with_the_classifier_for_every_shape_and_point() {
    let mut r = Reference::new();
    for index in 0..SHAPES as u32 {
        let (len, f) = shape_from_index(K, index);
        let c = reference::stones(len, f);
        let row = kb::point_type_row(index);
        let win = kb::conn_type(index) == ConnType::WIN;
        for i in 0..kb::TI_STRIDE {
            let expected = if win || i >= len as usize || c[i] {
                kb::NO_POINT_TYPE
            } else {
                r.point_type(&c, i) as u8
            };
            assert_eq!(
                row[i], expected,
                "shape {index} (len {len}, f {f:#b}) point {i}"
            );
        }
    }
}

#[test]
fn point_types_only_name_upgrades() {
    // Definition 14: a stone of the owner never makes a connection worse; a point type is
    // either O or strictly better than the connection.
    for index in 0..SHAPES as u32 {
        let t = kb::conn_type(index);
        for &code in kb::point_type_row(index) {
            if code != kb::NO_POINT_TYPE && code != 0 {
                assert!(code > t as u8, "shape {index}");
            }
        }
    }
}

#[test]
fn composite_classes_depend_only_on_the_multiset() {
    let mut multisets = std::collections::HashSet::new();
    for a in ConnType::ALL {
        for b in ConnType::ALL {
            for c in ConnType::ALL {
                for d in ConnType::ALL {
                    let mut key = [a, b, c, d];
                    key.sort();
                    multisets.insert(key);
                    assert_eq!(kb::composite([a, b, c, d]), kb::composite(key));
                }
            }
        }
    }
    assert_eq!(multisets.len(), 1365);
    use ConnType::*;
    assert_eq!(kb::composite([O, O, O, O]), Composite::Useless);
    assert_eq!(kb::composite([O, L2, O, O]), Composite::Bad);
    assert_eq!(kb::composite([O, D4, O, O]), Composite::Normal);
    assert_eq!(kb::composite([L3, S3, O, O]), Composite::Normal);
    assert_eq!(kb::composite([O, D4, S4, O]), Composite::Good);
    assert_eq!(kb::composite([L4, O, O, O]), Composite::Good);
    assert_eq!(kb::composite([WIN, O, O, O]), Composite::Win);
}

#[test]
fn export_writes_the_spec_layout() {
    let dir = std::env::temp_dir().join(format!("cpbim-export-{}", std::process::id()));
    kb::export(&dir).unwrap();
    let ct = std::fs::read(dir.join("ct.bin")).unwrap();
    let ti = std::fs::read(dir.join("ti.bin")).unwrap();
    assert_eq!(ct.len(), 1_048_512);
    assert_eq!(ti.len(), 1_048_512 * 19);
    // Byte ‖c‖ of ct.bin is ct(c); ti.bin holds 255 past |c| (Figure 1's C: 7 empty points).
    assert_eq!(ct[64], kb::conn_type(64) as u8);
    assert!(ti[64 * 19 + 7..64 * 19 + 19].iter().all(|&b| b == 255));
    // A WIN shape has no point types: six stones in six points, shape 63.
    assert_eq!(ct[63], ConnType::WIN as u8);
    assert!(ti[63 * 19..64 * 19].iter().all(|&b| b == 255));
    assert_eq!(kb::verify(&dir).unwrap(), [None, None]);
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------------
// The knowledge base of every game.

use cpbim::kb::Params;
use cpbim::Game;

/// Every shape's type and every empty point's type under `params` for lines up to `n`, against
/// the reference classifier written from the definitions; and the table-free classifier.
fn sweep(params: Params, ct: &[u8], ti: &[u8], n: u32) {
    let mut r = Reference::for_params(params);
    let k = params.k;
    assert_eq!(ct.len(), cpbim_kb::shape_count(n, k));
    for (index, &code) in ct.iter().enumerate() {
        let (len, f) = shape_from_index(k, index as u32);
        let c = reference::stones(len, f);
        let t = r.classify(&c);
        assert_eq!(
            ConnType::ALL[code as usize],
            t,
            "{params:?} shape {index} = (len {len}, f {f:#b})"
        );
        assert_eq!(
            cpbim_kb::classify_direct_for(params, len, f),
            t,
            "{params:?} direct, shape {index}"
        );
        let row = &ti[index * n as usize..(index + 1) * n as usize];
        for (i, &got) in row.iter().enumerate() {
            let expected = if t == ConnType::WIN || i >= len as usize || c[i] {
                kb::NO_POINT_TYPE
            } else {
                r.point_type(&c, i) as u8
            };
            assert_eq!(got, expected, "{params:?} shape {index} point {i}");
        }
    }
}

#[test]
fn the_games_of_five_agree_with_the_reference_on_every_shape_and_point() {
    for (game, colour) in [
        (Game::GOMOKU, cpbim::Color::Black),
        (Game::GOMOKU_STANDARD, cpbim::Color::White),
        (Game::RENJU, cpbim::Color::Black),
        (Game::RENJU, cpbim::Color::White),
    ] {
        let t = kb::game_tables(&game)[colour.index()];
        assert_eq!(t.origin, kb::Origin::BuiltIn, "{game}");
        assert_eq!(t.params, kb::params_of(&game, colour));
        sweep(t.params, t.ct(), t.ti(), t.n);
    }
    // Renju: black plays exactly five, white five or more.
    let [b, w] = kb::game_tables(&Game::RENJU);
    assert!(b.params.exact && !w.params.exact);
}

#[test]
fn every_k_p_and_rule_agree_with_the_reference() {
    for k in 4..=8 {
        for p in 1..=2 {
            for exact in [false, true] {
                let params = Params { k, p, exact };
                let n = k + 5;
                let ct = cpbim_kb::classify_all_for(params, n);
                let ti = cpbim_kb::point_types_for(k, &ct, n);
                sweep(params, &ct, &ti, n);
            }
        }
    }
}

#[test]
fn connect6_through_the_generic_tables_is_table_1() {
    let t = kb::game_tables(&Game::CONNECT6)[0];
    assert_eq!(t.counts(), TABLE_1);
    assert_eq!(t.origin, kb::Origin::BuiltIn);
    // Connect6 on a smaller board reads the same 19-long tables.
    let small = kb::game_tables(&"connect6:13".parse().unwrap())[0];
    assert!(std::ptr::eq(t, small));
}

#[test]
fn generated_tables_are_cached_checked_and_regenerated_when_bad() {
    use kb::cache;
    let dir = std::env::temp_dir().join(format!("cpbim-kb-cache-{}", std::process::id()));
    let path = dir.join("t.bin");
    let params = Params {
        k: 4,
        p: 2,
        exact: true,
    };
    let n = 9;
    let ct = cpbim_kb::classify_all_for(params, n);
    let ti = cpbim_kb::point_types_for(4, &ct, n);
    cache::write(&path, params, n, &ct, &ti).unwrap();
    let (rct, rti) = cache::read(&path, params, n).expect("a good file reads");
    assert_eq!((rct, rti), (&ct[..], &ti[..]));
    // Other parameters, another length, a flipped byte, a short file: refused.
    assert!(cache::read(
        &path,
        Params {
            exact: false,
            ..params
        },
        n
    )
    .is_none());
    assert!(cache::read(&path, params, n + 1).is_none());
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(cache::read(&path, params, n).is_none());
    std::fs::write(&path, &bytes[..100]).unwrap();
    assert!(cache::read(&path, params, n).is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}
