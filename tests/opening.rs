//! DIF opening names: invariance under the 8 symmetries, the thesis's names, counts.

use cpbim::opening::{
    all_within, name_line, name_white, named_openings, parse_name, transform, NameError, NAMED,
};
use cpbim::Point;

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

fn near(reach: usize) -> Vec<Point> {
    cpbim::Game::CONNECT6
        .points()
        .filter(|&q| q != Point::CENTER && q.distance(Point::CENTER) <= reach)
        .collect()
}

/// Every pair within distance 4 of the centre gets the same name in all 8 orientations and in
/// either stone order, and the name is a fixed point: its stones name themselves, with the
/// first stone in the south-south-west eighth.
#[test]
fn names_are_invariant_under_the_eight_symmetries() {
    let pts = near(4);
    let mut pairs = 0;
    for (i, &a) in pts.iter().enumerate() {
        for &b in &pts[i + 1..] {
            let name = name_white([a, b]);
            for k in 0..8 {
                let (ta, tb) = (transform(a, k), transform(b, k));
                assert_eq!(name_white([ta, tb]), name, "{a} {b} under symmetry {k}");
                assert_eq!(name_white([tb, ta]), name);
            }
            assert_eq!(name_white([name.first, name.second]), name);
            let (dx, dy) = (name.first.col() as i32 - 9, name.first.row() as i32 - 9);
            assert!(
                dy < 0 && dy <= dx && dx <= 0,
                "{name}: first stone outside SSW"
            );
            // The name is one of the images of the pair.
            assert!((0..8).any(|k| {
                let img = [transform(a, k), transform(b, k)];
                img == [name.first, name.second] || img == [name.second, name.first]
            }));
            pairs += 1;
        }
    }
    assert_eq!(pairs, 80 * 79 / 2);
}

/// Burnside's lemma: the 8 symmetries act on the pairs of the (2r+1)² − 1 points within
/// distance r; 90° turns fix no pair, the half turn fixes the 4r(r+1)/2 antipodal pairs, and
/// each of the 4 mirrors fixes C(2r, 2) pairs on its axis plus the ((2r+1)² − 1 − 2r)/2 mirror
/// pairs.
#[test]
fn number_of_distinct_first_moves() {
    for r in 1..=4usize {
        let n = (2 * r + 1).pow(2) - 1;
        let all = n * (n - 1) / 2;
        let half_turn = n / 2;
        let mirror = (2 * r) * (2 * r - 1) / 2 + (n - 2 * r) / 2;
        let orbits = (all + half_turn + 4 * mirror) / 8;
        assert_eq!(all_within(r).len(), orbits, "distance {r}");
    }
    assert_eq!(all_within(1).len(), 6);
    assert_eq!(all_within(2).len(), 44);
    assert_eq!(all_within(3).len(), 162);
}

/// Names worked out by hand from the rules of 000 §2.2.1.
#[test]
fn hand_checked_names() {
    let cases = [
        // (white's stones as played, short name, coordinate name)
        (["I9", "J8"], "X-J8", "I9-J8"),
        (["J8", "I9"], "X-J8", "I9-J8"),
        // K11 turns to I9 (half turn), L10 to H10, then the mirror in the diagonal puts the
        // second stone below (J8) rather than left (H10).
        (["K11", "L10"], "X-J8", "I9-J8"),
        (["L10", "J8"], "TT-L10", "J8-L10"),
        (["H10", "J12"], "TT-L10", "J8-L10"),
        // J9 with I9 or K9: the first stone is J9 (|dy| = 1, |dx| = 0), the second to the right.
        (["J9", "I9"], "T-K9", "J9-K9"),
        (["J11", "K11"], "T-K9", "J9-K9"),
        // Two stones equally near: I8 and K8 map onto each other by the vertical mirror.
        (["K8", "I8"], "TX-K8", "I8-K8"),
        (["L11", "L9"], "TX-K8", "I8-K8"),
        (["I9", "H9"], "X-I8", "I9-I8"),
        (["J11", "J12"], "T-J8", "J9-J8"),
        (["K10", "M10"], "T-J7", "J9-J7"),
        (["H12", "J9"], "T-L12", "J9-L12"),
    ];
    for (white, short, name) in cases {
        let o = name_white([p(white[0]), p(white[1])]);
        assert_eq!(
            (o.short(), o.name()),
            (short.into(), name.into()),
            "{white:?}"
        );
        let line = name_line(&[Point::CENTER, p(white[0]), p(white[1])]).unwrap();
        assert_eq!(line, o);
    }
}

/// Every opening pictured in the thesis is written in its normal form by our rules.
#[test]
fn the_thesis_names_are_normal_forms() {
    for n in NAMED {
        let o = parse_name(n.printed).unwrap();
        let normal = name_white([o.first, o.second]);
        assert_eq!(normal, o, "figure {}: {}", n.figure, n.printed);
        assert_eq!(normal.short(), n.short);
    }
    let distinct = named_openings();
    assert_eq!(distinct.len(), 24);
    assert_eq!(distinct.iter().map(|d| d.1.len()).sum::<usize>(), 26);
    let twice: Vec<String> = distinct
        .iter()
        .filter(|d| d.1.len() == 2)
        .map(|d| d.0.short())
        .collect();
    assert_eq!(twice, ["TT-K8", "TT-L8"]);
}

#[test]
fn names_parse_in_both_forms() {
    assert_eq!(parse_name("x-j8").unwrap(), parse_name("I9-J8").unwrap());
    assert_eq!(parse_name("TL11").unwrap(), parse_name("T-L11").unwrap());
    assert_eq!(
        parse_name("TT-L10").unwrap().stones(),
        [p("J10"), p("J8"), p("L10")]
    );
    for bad in ["", "X", "-J8", "X-J", "Q-J8", "X-Z9"] {
        assert!(
            matches!(parse_name(bad), Err(NameError::BadName(_))),
            "{bad:?} should not parse"
        );
    }
    for (bad, why) in [
        ("X-I9", "both white stones would be on I9"),
        ("T-J10", "on J10, black's first stone"),
        ("J10-K11", "on J10, black's first stone"),
    ] {
        let e = parse_name(bad).unwrap_err();
        assert!(
            matches!(e, NameError::Impossible { .. }) && e.to_string().contains(why),
            "{bad:?}: {e}"
        );
    }
    assert_eq!(
        name_line(&[p("K10"), p("I9"), p("J8")]),
        Err(NameError::NotCentered(p("K10")))
    );
    assert_eq!(name_line(&[p("J10")]), Err(NameError::TooShort(1)));
}
