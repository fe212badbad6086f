//! `cpbim serve`'s API, in process (the router without a socket): every answer equals the
//! CLI's `--json` output for the same input, bad requests get their 4xx with the library's
//! message, jobs stream their events, run side by side, stop when cancelled or out of time.
//! Requests for another host name are refused. Over real sockets: half-sent requests are
//! closed after the time limits, an event stream outlives them, and a thousand idle
//! connections neither keep a new client waiting nor stay open beyond the cap.

mod common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use axum::Router;
use common::binary::cpbim;
use common::{diagram, gomoku_puzzle, LONG_SOLVE};
use cpbim::server::{router, serve, Hosts, Options};
use serde_json::{json, Value};
use std::io::{ErrorKind, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};
use tower::ServiceExt;

const EXAMPLE: &str = include_str!("../examples/positions/example.txt");

/// A long job: the defences of every boundary of the example's first 45 stones within
/// distance 3 (some 20,000 searches, half a minute and more).
fn long_job() -> Value {
    let stones: Vec<&str> = EXAMPLE
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(str::split_whitespace)
        .take(45)
        .collect();
    json!({"record": stones.join(" "), "defenses": true, "radius": 3})
}

fn app() -> Router {
    router(Options::default())
}

/// What came back: the status, the content type and the body.
struct Answer {
    status: StatusCode,
    text: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }

    fn error(&self) -> String {
        self.json()["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error message: {}", self.text))
            .to_string()
    }
}

async fn send(app: &Router, method: Method, path: &str, body: Option<&str>) -> Answer {
    let mut req = Request::builder().method(method).uri(path);
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let req = req
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .unwrap();
    Answer {
        status,
        text: String::from_utf8(bytes.to_vec()).unwrap(),
    }
}

async fn post(app: &Router, path: &str, body: Value) -> Answer {
    send(app, Method::POST, path, Some(&body.to_string())).await
}

async fn get(app: &Router, path: &str) -> Answer {
    send(app, Method::GET, path, None).await
}

/// The CLI's one JSON line (or lines) for `args`.
fn cli_json(args: &[&str]) -> Vec<Value> {
    let out = cpbim(args, b"", &[]);
    assert_eq!(out.code, 0, "cpbim {args:?}: {}", out.stderr);
    out.lines()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `v` without its wall times (`time_ms` anywhere), which differ from run to run.
fn timeless(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(o) => {
                o.remove("time_ms");
                o.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn position_objects() {
    let app = app();
    let a = post(&app, "/api/position", json!({"record": EXAMPLE})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let p = a.json();
    assert_eq!(p["game"], "connect6");
    assert_eq!(
        (p["columns"].as_u64(), p["rows"].as_u64()),
        (Some(19), Some(19))
    );
    assert_eq!(p["stones"].as_array().unwrap().len(), 47);
    assert_eq!(p["stones"][0], json!(["J10", "black"]));
    assert_eq!(p["stones"][1], json!(["I9", "white"]));
    assert_eq!(p["to_move"], "black");
    assert_eq!(p["stones_to_place"], 2);
    assert_eq!(p["finished"], Value::Null);
    assert_eq!(p["ordered"], true);
    // The opening's DIF name, as `cpbim name` gives it, and the thesis's figure of it.
    let name = cpbim(&["name", "J10 I9 H11", "--json"], b"", &[]);
    let mut name: Value = serde_json::from_str(name.stdout.trim()).unwrap();
    name["figures"] = json!(["2.9"]);
    assert_eq!(p["opening"], name);
    for (game, record) in [
        ("connect6", "J10 A1 A2"),
        ("connect6", "J10"),
        ("connect6", "K10 A1 A2"),
        ("gomoku", "H8 H9 H10"),
        ("renju", "H8 H9 I9 A1"),
        ("gomoku", "H8 I9 I7"),
        ("gomoku", "H8 H9 K8"),
        ("gomoku", "H8 H9"),
    ] {
        let p = post(
            &app,
            "/api/position",
            json!({"game": game, "record": record}),
        )
        .await
        .json();
        let figures = &p["opening"]["figures"];
        match record {
            "J10 A1 A2" => assert_eq!(
                (p["opening"]["short"].as_str(), figures),
                (Some("TXXXXXXXX-A1"), &json!([]))
            ),
            // The games of five: the name of the three-stone opening (five_openings.rs).
            "H8 H9 H10" => assert_eq!(
                (&p["opening"]["short"], &p["opening"]["name"]),
                (&json!("Kansei"), &json!("寒星, direct, H8 H9 H10"))
            ),
            "H8 H9 I9 A1" => assert_eq!(p["opening"]["kanji"], "花月"),
            "H8 I9 I7" => assert_eq!(p["opening"]["short"], "Hogetsu"),
            _ => assert_eq!(p["opening"], Value::Null, "{game} {record}"),
        }
    }
    // The first stone of a move in progress.
    let p = post(
        &app,
        "/api/position",
        json!({"record": "J10", "pending": ["K11"]}),
    )
    .await
    .json();
    assert_eq!(p["pending"], json!([["K11", "white"]]));
    assert_eq!(
        (p["to_move"].as_str(), p["stones_to_place"].as_u64()),
        (Some("white"), Some(1))
    );
    // A pending stone that completes the move is played.
    let p = post(
        &app,
        "/api/position",
        json!({"record": "J10 K11", "pending": ["I11"]}),
    )
    .await;
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", p.text);
    let p = post(
        &app,
        "/api/position",
        json!({"record": "J10", "pending": ["K11", "I11"]}),
    )
    .await;
    assert_eq!(p.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", p.text);
    // A row made by the first stone of a move ends the game there.
    let line = "J10 A1 A2 D5 E5 A3 A4 F5 G5 A6 A7 H5 C7 A8 A9";
    let p = post(
        &app,
        "/api/position",
        json!({"record": line, "pending": ["I5"]}),
    )
    .await
    .json();
    assert_eq!(p["finished"]["winner"], "black");
    assert_eq!(
        p["finished"]["row"],
        json!(["D5", "E5", "F5", "G5", "H5", "I5"])
    );
    assert_eq!(p["pending"], json!([]));
    // Renju: black's forbidden points, as `position --forbidden` lists them.
    let renju = "H8 A1 I9 A15 J8 O1 I7 O15";
    let p = post(
        &app,
        "/api/position",
        json!({"game": "renju", "record": renju}),
    )
    .await
    .json();
    assert_eq!(
        (p["columns"].as_u64(), p["k"].as_u64(), p["p"].as_u64()),
        (Some(15), Some(5), Some(1))
    );
    let listed: Vec<String> = p["forbidden"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{} ({})", f[0].as_str().unwrap(), f[1].as_str().unwrap()))
        .collect();
    let cli = cpbim(
        &[
            "position",
            renju,
            "--game",
            "renju",
            "--forbidden",
            "--format",
            "list",
        ],
        b"",
        &[],
    );
    let comment = cli.stdout.lines().last().unwrap().to_string();
    let expected = comment.trim_start_matches("# forbidden to black: ");
    assert_eq!(listed.join(", "), expected, "{comment}");
    assert!(
        !listed.is_empty(),
        "the test position has a forbidden point"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exports_equal_cpbim_position() {
    let app = app();
    for format in ["list", "diagram", "sgf", "contest", "csv"] {
        let a = post(
            &app,
            "/api/export",
            json!({"record": EXAMPLE, "format": format}),
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "{format}: {}", a.text);
        let cli = cpbim(&["position", EXAMPLE, "--format", format], b"", &[]);
        assert_eq!(cli.code, 0, "{}", cli.stderr);
        assert_eq!(a.text, cli.stdout, "{format}");
    }
    let finished = "J10 A1 A2 D5 E5 A3 A4 F5 G5 A6 A7 H5 I5";
    let a = post(
        &app,
        "/api/export",
        json!({"record": finished, "format": "list"}),
    )
    .await;
    assert_eq!(
        a.text,
        cpbim(&["position", finished, "--format", "list"], b"", &[]).stdout
    );
    // The board as analyze --svg draws it: one circle per stone, the last move ringed.
    let a = post(
        &app,
        "/api/export",
        json!({"record": EXAMPLE, "format": "svg"}),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(a.text.starts_with("<svg"), "{}", a.text);
    assert_eq!(a.text.matches("<circle").count(), 47 + 2);
    // A Gomoku game.
    let a = post(
        &app,
        "/api/export",
        json!({"game": "gomoku", "record": "h8 i9 j10", "format": "sgf"}),
    )
    .await;
    let cli = cpbim(
        &[
            "position",
            "h8 i9 j10",
            "--game",
            "gomoku",
            "--format",
            "sgf",
        ],
        b"",
        &[],
    );
    assert_eq!(a.text, cli.stdout);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solve_equals_cpbim_solve() {
    let app = app();
    let a = post(&app, "/api/solve?wait=1", json!({"record": EXAMPLE})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let cli = cli_json(&["solve", "--example", "--json"]);
    assert_eq!(timeless(a.json()), timeless(cli[0].clone()));
    assert_eq!(a.json()["result"], "win");
    let a = post(
        &app,
        "/api/solve?wait=1",
        json!({"record": EXAMPLE, "proof": true, "depth": 16}),
    )
    .await;
    let cli = cli_json(&["solve", EXAMPLE, "--json", "--proof", "--depth", "16"]);
    assert_eq!(timeless(a.json()), timeless(cli[0].clone()));
    assert!(a.json()["proof"]["attack"].is_array());
    // A finished game is not searched.
    let finished = "J10 A1 A2 D5 E5 A3 A4 F5 G5 A6 A7 H5 I5";
    let a = post(&app, "/api/solve?wait=1", json!({"record": finished})).await;
    assert_eq!(a.json(), cli_json(&["solve", finished, "--json"])[0]);
    // Gomoku: VCF.
    let g = "h8 h9 i8 i9 j8 a1 j9 a2 k9 a3";
    let a = post(
        &app,
        "/api/solve?wait=1",
        json!({"game": "gomoku", "record": g}),
    )
    .await;
    let cli = cli_json(&["solve", g, "--game", "gomoku", "--json"]);
    assert_eq!(timeless(a.json()), timeless(cli[0].clone()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyze_equals_cpbim_analyze() {
    let app = app();
    let line = "J10 K11 I11 H11 I10 J11 L11 J9 K9";
    let a = post(
        &app,
        "/api/analyze?wait=1",
        json!({"record": line, "defenses": true, "depth": 12}),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let cli = cli_json(&["analyze", line, "--defenses", "--depth", "12", "--json"]);
    assert_eq!(timeless(a.json()), timeless(Value::Array(cli)));
    // A finished game ends with its end object; a DIF name is a line.
    let finished = "J10 A1 A2 D5 E5 A3 A4 F5 G5 A6 A7 H5 I5";
    let a = post(
        &app,
        "/api/analyze?wait=1",
        json!({"record": finished, "depth": 4}),
    )
    .await;
    let cli = cli_json(&["analyze", finished, "--depth", "4", "--json"]);
    assert_eq!(timeless(a.json()), timeless(Value::Array(cli)));
    let a = post(
        &app,
        "/api/analyze?wait=1",
        json!({"record": "X-J8", "depth": 8}),
    )
    .await;
    let cli = cli_json(&["analyze", "X-J8", "--depth", "8", "--json"]);
    assert_eq!(timeless(a.json()), timeless(Value::Array(cli)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_equals_cpbim_move() {
    let app = app();
    for (game, record) in [
        ("connect6", "J10 K11 I11"),
        ("renju", "H8 H9 I8"),
        ("connect6", EXAMPLE),
    ] {
        let a = post(
            &app,
            "/api/move?wait=1",
            json!({"game": game, "record": record, "depth": 1}),
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        let cli = cli_json(&["move", record, "--game", game, "--depth", "1", "--json"]);
        assert_eq!(
            timeless(a.json()),
            timeless(cli[0].clone()),
            "{game} {record}"
        );
    }
    let a = post(
        &app,
        "/api/move?wait=1",
        json!({"game": "renju", "record": "H8", "player": "seed004", "depth": 1}),
    )
    .await;
    let cli = cli_json(&[
        "move", "H8", "--game", "renju", "--player", "seed004", "--depth", "1", "--json",
    ]);
    assert_eq!(timeless(a.json()), timeless(cli[0].clone()));
}

/// Mutated records (every format, `tests/common/mutate.rs`) and mutated request bodies: every
/// answer is 200 or a 4xx JSON error, never a server error or a panic.
/// POST `text` to `path`: `true` when answered (200), `false` when refused with a 4xx that
/// carries a message; anything else fails the test.
async fn answered_or_refused(app: &Router, path: &str, text: &str) -> bool {
    let a = send(app, Method::POST, path, Some(text)).await;
    assert!(
        a.status == StatusCode::OK || a.status.is_client_error(),
        "{path} {text:?}: {} {}",
        a.status,
        a.text
    );
    if a.status != StatusCode::OK {
        assert!(!a.error().is_empty(), "{path} {text:?}: {}", a.text);
    }
    a.status == StatusCode::OK
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutated_requests_get_answers() {
    let app = app();
    let mut rng = common::mutate::Rng(2026);
    let games = ["connect6", "gomoku", "renju", "gomoku:7", "bogus"];
    let sides = [json!(null), json!("black"), json!("white"), json!(3)];
    let (mut ok, mut refused) = (0, 0);
    for record in common::mutate::mutated(150, 2026) {
        let record = String::from_utf8_lossy(&record).into_owned();
        let pending = &["J10", "A1", "ZZ9"][..rng.below(4)];
        let body = json!({
            "game": games[rng.below(games.len())],
            "record": record,
            "to_move": sides[rng.below(sides.len())],
            "pending": pending,
        });
        let raw = body.to_string();
        let bent = common::mutate::mutate(raw.as_bytes(), &[raw.as_bytes().to_vec()], &mut rng);
        for (path, text) in [
            ("/api/position", raw.clone()),
            ("/api/export", raw),
            ("/api/position", String::from_utf8_lossy(&bent).into_owned()),
        ] {
            if answered_or_refused(&app, path, &text).await {
                ok += 1;
            } else {
                refused += 1;
            }
        }
    }
    // Both kinds of answer occur: the mutations are not all fatal, nor all harmless.
    assert!(ok > 0 && refused > 0, "{ok} answered, {refused} refused");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_4xx_with_the_librarys_message() {
    let app = app();
    // JSON that does not parse; an unknown field; a field of the wrong type; no content type.
    let a = send(&app, Method::POST, "/api/position", Some("{\"record\": ")).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    assert!(!a.error().is_empty());
    let a = post(
        &app,
        "/api/position",
        json!({"record": "J10", "colour": "black"}),
    )
    .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(a.error().contains("colour"), "{}", a.error());
    let a = post(
        &app,
        "/api/solve",
        json!({"record": "J10", "depth": "deep"}),
    )
    .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    let a = send(&app, Method::POST, "/api/solve", None).await;
    assert_eq!(a.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{}", a.text);
    a.error();
    // A record that is not a game: the CLI's message.
    for record in ["J10 T11 I11", "J10 J10", "(;B[j10", "J10 K11"] {
        let a = post(&app, "/api/position", json!({"record": record})).await;
        assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{record}");
        let cli = cpbim(&["position", record], b"", &[]);
        assert_eq!(cli.code, 1);
        assert_eq!(format!("error: {}\n", a.error()), cli.stderr, "{record}");
        let a = post(&app, "/api/solve", json!({"record": record})).await;
        assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{record}");
    }
    // Bad limits, games, players, formats.
    let a = post(&app, "/api/solve", json!({"record": "J10", "depth": 5})).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    let cli = cpbim(&["solve", "J10", "--depth", "5"], b"", &[]);
    // The same words; the page names the field, the command line its option.
    assert_eq!(format!("error: --{}\n", a.error()), cli.stderr);
    let a = post(&app, "/api/solve", json!({"record": "J10", "time": -1})).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    let a = post(
        &app,
        "/api/position",
        json!({"game": "connect(3,3,3,1,1)", "record": ""}),
    )
    .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    let a = post(
        &app,
        "/api/move",
        json!({"record": "J10", "player": "nobody"}),
    )
    .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    let a = post(&app, "/api/move", json!({"record": "J10", "depth": 9})).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    let finished = "J10 A1 A2 D5 E5 A3 A4 F5 G5 A6 A7 H5 I5";
    let a = post(&app, "/api/move", json!({"record": finished})).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    let cli = cpbim(&["move", finished], b"", &[]);
    assert_eq!(format!("error: {}\n", a.error()), cli.stderr);
    let a = post(
        &app,
        "/api/export",
        json!({"record": "J10", "format": "png"}),
    )
    .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    let a = post(&app, "/api/analyze", json!({"record": "Q-Z9"})).await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    // Unknown jobs, paths and methods.
    assert_eq!(
        get(&app, "/api/jobs/999").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        send(&app, Method::DELETE, "/api/jobs/999", None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let a = get(&app, "/api/nothing").await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    a.error();
    let a = get(&app, "/api/solve").await;
    assert_eq!(a.status, StatusCode::METHOD_NOT_ALLOWED);
    a.error();
    assert_eq!(
        get(&app, "/assets/nothing.js").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_is_served() {
    let app = app();
    let a = get(&app, "/").await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(a.text.contains("<svg id=\"board\""));
    // Every asset the page names is served.
    let named: Vec<&str> = a
        .text
        .split("\"/assets/")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect();
    assert_eq!(
        named,
        ["board.css", "moves.js", "export.js", "board.js"],
        "the page's assets"
    );
    for f in named {
        let a = get(&app, &format!("/assets/{f}")).await;
        assert_eq!(a.status, StatusCode::OK, "{f}");
        assert!(!a.text.is_empty());
    }
}

/// Start a job; its id.
async fn start(app: &Router, path: &str, body: Value) -> u64 {
    let a = post(app, path, body).await;
    assert_eq!(a.status, StatusCode::ACCEPTED, "{}", a.text);
    a.json()["id"].as_u64().unwrap()
}

/// The server-sent events of a job, to its end: (event, data) pairs.
async fn events(app: &Router, id: u64) -> Vec<(String, Value)> {
    let a = get(app, &format!("/api/jobs/{id}/events")).await;
    assert_eq!(a.status, StatusCode::OK);
    let mut out = Vec::new();
    for block in a.text.split("\n\n") {
        let mut name = None;
        let mut data = None;
        for line in block.lines() {
            if let Some(n) = line.strip_prefix("event: ") {
                name = Some(n.to_string());
            } else if let Some(d) = line.strip_prefix("data: ") {
                data = Some(serde_json::from_str(d).unwrap());
            }
        }
        if let (Some(n), Some(d)) = (name, data) {
            out.push((n, d));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prove_equals_cpbim_prove() {
    // The times of a search (every `..time_ms`) differ from run to run.
    fn untimed(mut v: Value) -> Value {
        let o = v.as_object_mut().unwrap();
        o.retain(|k, _| !k.ends_with("time_ms"));
        v
    }
    let app = app();
    let g = "H8 A1 J8 C1 I7 A3 I9 O15";
    for (side, quiet, step) in [("black", 0, 1), ("white", 2, 2)] {
        let body = json!({"game": "gomoku", "record": g, "side": side, "quiet": quiet,
                          "threat_step": step, "time": 30});
        let id = start(&app, "/api/prove", body).await;
        let evs = events(&app, id).await;
        let names: Vec<&str> = evs.iter().map(|e| e.0.as_str()).collect();
        assert_eq!(names[names.len() - 2..], ["result", "end"], "{names:?}");
        for (name, p) in &evs[..evs.len() - 2] {
            assert_eq!(name, "progress");
            // The job's own first event has only the time; the search's have its counts.
            assert!(
                p["nodes"].is_null() || p["threats"].is_number() && p["leaf_searches"].is_number(),
                "{p}"
            );
        }
        let cli = cli_json(&[
            "prove",
            g,
            "--game",
            "gomoku",
            "--side",
            side,
            "--quiet",
            &quiet.to_string(),
            "--threat-step",
            &step.to_string(),
            "--time",
            "30",
            "--threads",
            "1",
            "--json",
        ]);
        let result = evs[evs.len() - 2].1.clone();
        assert_eq!(untimed(result), untimed(cli[0].clone()), "{side}");
    }
    // Each reply on its own (`--each-reply`): white to move, black's win; the replies' times
    // differ too.
    fn untimed_replies(v: Value) -> Value {
        let mut v = untimed(v);
        for r in v["each_reply"].as_array_mut().unwrap() {
            r.as_object_mut().unwrap().remove("time_ms");
        }
        v["each_reply_total"]
            .as_object_mut()
            .unwrap()
            .remove("time_ms");
        v
    }
    let g9 = format!("{g} I8");
    let body =
        json!({"game": "gomoku", "record": g9, "side": "black", "each_reply": 5, "time": 30});
    let a = post(&app, "/api/prove?wait=1", body).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let cli = cli_json(&[
        "prove",
        &g9,
        "--game",
        "gomoku",
        "--side",
        "black",
        "--each-reply",
        "5",
        "--time",
        "30",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(a.json()["each_reply"].as_array().unwrap().len(), 225 - 9);
    assert_eq!(untimed_replies(a.json()), untimed_replies(cli[0].clone()));
    // Refused as the command line refuses it (422, its message).
    for (body, says) in [
        (
            json!({"record": "J10 K11 K10", "quiet": 3}),
            "the games of one stone a move only",
        ),
        (
            json!({"record": ""}),
            "`prove` starts from a move of 2 stones",
        ),
        (
            json!({"game": "gomoku", "record": g, "threats": 13}),
            "--threats 13: at most 12",
        ),
        (
            json!({"game": "gomoku", "record": g, "threat_step": 0}),
            "--threat-step is at least 1",
        ),
        (
            json!({"game": "gomoku", "record": g, "each_reply": 5}),
            "each_reply: the replies of the side to move",
        ),
        (
            json!({"record": "J10 K11 K10", "side": "white", "each_reply": 5}),
            "each_reply: the games of one stone a move only",
        ),
        (
            json!({"game": "gomoku", "record": g, "side": "white", "each_reply": -1}),
            "each_reply -1: give a positive number of seconds",
        ),
    ] {
        let a = post(&app, "/api/prove?wait=1", body.clone()).await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            a.text
        );
        assert!(
            a.json()["error"].as_str().unwrap().contains(says),
            "{}",
            a.text
        );
    }
}

/// `book` (a book's text, as `--book FILE` reads it) and `late` give the command line's
/// answer; a book of another game and a book that does not read are refused with its words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prove_with_a_book_and_late_moves_equals_cpbim_prove() {
    fn untimed(mut v: Value) -> Value {
        v.as_object_mut()
            .unwrap()
            .retain(|k, _| !k.ends_with("time_ms"));
        v
    }
    let dir = tempfile::tempdir().unwrap();
    let (store, book) = (dir.path().join("s.redb"), dir.path().join("book.txt"));
    let (store, book) = (store.to_str().unwrap(), book.to_str().unwrap());
    let pos = "H8 H9 K6 K11 L13 J7 H10 H7 G6 H12 J10 G5 H6 L11";
    let opts = [
        "--game",
        "renju",
        "--threats",
        "4",
        "--time",
        "30",
        "--threads",
        "1",
        "--json",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["prove".to_string(), pos.to_string()];
        args.extend(opts.iter().chain(extra).map(|a| a.to_string()));
        args
    };
    let stored = cpbim(
        &with(&["--store", store, "--store-min-nodes", "0"]),
        b"",
        &[],
    );
    assert_eq!(stored.code, 0, "{}", stored.stderr);
    let out = cpbim(
        &["store", "book", store, "--game", "renju", "--out", book],
        b"",
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = std::fs::read_to_string(book).unwrap();
    let app = app();
    for (late, args) in [
        (0, vec!["--book", book]),
        (2, vec!["--book", book, "--late", "2"]),
    ] {
        let args = with(&args);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let cli = cli_json(&args);
        assert!(cli[0]["book_moves"].as_u64().unwrap() >= 1, "{}", cli[0]);
        let body = json!({"game": "renju", "record": pos, "threats": 4, "time": 30, "late": late, "book": text});
        let a = post(&app, "/api/prove?wait=1", body).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        assert_eq!(untimed(a.json()), untimed(cli[0].clone()));
    }
    for (game, book, says) in [
        ("gomoku", text.as_str(), "book: the book is of renju"),
        ("renju", "game renju\nblack H8 H9 threat\n", "book: line 2:"),
    ] {
        let body = json!({"game": game, "record": pos, "book": book});
        let a = post(&app, "/api/prove?wait=1", body).await;
        assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
        let error = a.json()["error"].as_str().unwrap().to_string();
        assert!(error.starts_with(says), "{error}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jobs_stream_progress_then_the_result() {
    let app = app();
    let id = start(
        &app,
        "/api/analyze",
        json!({"record": "J10 K11 I11 H11 I10", "depth": 12}),
    )
    .await;
    let evs = events(&app, id).await;
    let names: Vec<&str> = evs.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(names.last(), Some(&"end"), "{names:?}");
    assert_eq!(names[names.len() - 2], "result", "{names:?}");
    assert!(
        names[..names.len() - 2].iter().all(|n| *n == "progress"),
        "{names:?}"
    );
    assert!(evs[0].1["elapsed_ms"].is_number() || evs[0].0 == "result");
    let result = evs[evs.len() - 2].1.clone();
    let cli = cli_json(&["analyze", "J10 K11 I11 H11 I10", "--depth", "12", "--json"]);
    assert_eq!(timeless(result), timeless(Value::Array(cli)));
    // Done: the job's state holds the same result.
    let s = get(&app, &format!("/api/jobs/{id}")).await.json();
    assert_eq!(s["state"], "done");
    assert_eq!(s["kind"], "analyze");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_solve_streams_its_nodes_and_depth() {
    let app = app();
    let id = start(
        &app,
        "/api/solve",
        json!({"record": LONG_SOLVE, "time": 1.5}),
    )
    .await;
    let evs = events(&app, id).await;
    let names: Vec<&str> = evs.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(names[names.len() - 2..], ["result", "end"], "{names:?}");
    let result = &evs[evs.len() - 2].1;
    assert_eq!(result["result"], "unknown", "{result}");
    // Every progress event but perhaps one sent before the search began has the nodes so far
    // and the depth of the iteration running.
    let progress: Vec<&Value> = evs
        .iter()
        .filter(|e| e.0 == "progress")
        .map(|e| &e.1)
        .skip_while(|p| p.get("nodes").is_none())
        .collect();
    assert!(progress.len() >= 4, "{evs:?}");
    let nodes: Vec<u64> = progress
        .iter()
        .map(|p| p["nodes"].as_u64().unwrap())
        .collect();
    let depths: Vec<u64> = progress
        .iter()
        .map(|p| p["depth"].as_u64().unwrap())
        .collect();
    eprintln!("progress of a 1.5 s solve: nodes {nodes:?}, depths {depths:?}");
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{nodes:?}");
    assert!(nodes[nodes.len() - 1] > nodes[0], "{nodes:?}");
    assert!(nodes[nodes.len() - 1] <= result["nodes"].as_u64().unwrap());
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    assert!(depths.iter().all(|d| d % 4 == 0 && *d <= 28), "{depths:?}");
    assert!(depths[depths.len() - 1] > 0, "{depths:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_diagram_is_analysed_and_extended() {
    let app = app();
    let puzzle = gomoku_puzzle();
    // The counts do not tell the side to move: the request must.
    let a = post(
        &app,
        "/api/analyze?wait=1",
        json!({"game": "gomoku", "record": puzzle}),
    )
    .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    assert!(a.error().contains("--to-move"), "{}", a.text);
    for side in ["black", "white"] {
        let a = post(
            &app,
            "/api/analyze?wait=1",
            json!({"game": "gomoku", "record": puzzle, "to_move": side, "defenses": true}),
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        let args = [
            "analyze",
            "--game",
            "gomoku",
            "--to-move",
            side,
            "--defenses",
            "--json",
            &puzzle,
        ];
        let cli = cpbim(&args, b"", &[]);
        assert_eq!(cli.code, 0, "{}", cli.stderr);
        let cli: Vec<Value> = cli
            .lines()
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(timeless(a.json()), timeless(Value::Array(cli)));
        assert_eq!(a.json()[0]["to_move"], side);
        assert_eq!(a.json()[0]["stones"], 3);
    }
    // Black to move wins with an open four; white, to move, faces that threat.
    let a = post(
        &app,
        "/api/analyze?wait=1",
        json!({"game": "gomoku", "record": puzzle, "to_move": "white"}),
    )
    .await;
    assert_eq!(
        (
            &a.json()[0]["win"]["result"],
            &a.json()[0]["threat"]["result"]
        ),
        (&json!("none"), &json!("win"))
    );
    // Connect6: a stone of the side to move after the diagram is a move in progress; a second
    // that makes six ends the game.
    // White's first `n` stones of A1–E1 and black J10.
    let white_row = |n: usize| {
        let mut stones: Vec<(&str, char)> = ["A1", "B1", "C1", "D1", "E1"][..n]
            .iter()
            .map(|&p| (p, 'O'))
            .collect();
        stones.push(("J10", 'X'));
        diagram(19, 19, &stones)
    };
    let c6 = white_row(4);
    let p = post(
        &app,
        "/api/position",
        json!({"record": c6, "to_move": "white", "pending": ["E1"]}),
    )
    .await;
    assert_eq!(p.status, StatusCode::OK, "{}", p.text);
    let p = p.json();
    assert_eq!(p["pending"], json!([["E1", "white"]]));
    assert_eq!(
        (&p["to_move"], &p["stones_to_place"]),
        (&json!("white"), &json!(1))
    );
    let p = post(
        &app,
        "/api/position",
        json!({"record": c6, "to_move": "black", "pending": ["F1"]}),
    )
    .await;
    assert_eq!(p.json()["pending"], json!([["F1", "black"]]));
    let taken = post(
        &app,
        "/api/position",
        json!({"record": c6, "to_move": "white", "pending": ["A1"]}),
    )
    .await;
    assert_eq!(taken.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(taken.error().contains("occupied"), "{}", taken.text);
    let whole = post(
        &app,
        "/api/position",
        json!({"record": c6, "to_move": "white", "pending": ["E1", "F1"]}),
    )
    .await;
    assert!(whole.error().contains("whole move"), "{}", whole.text);
    let six = white_row(5);
    let p = post(
        &app,
        "/api/position",
        json!({"record": six, "to_move": "white", "pending": ["F1"]}),
    )
    .await
    .json();
    assert_eq!(p["finished"]["winner"], "white", "{p}");
    assert_eq!(p["stones_to_place"], 0);
}

/// Wait until no job thread works any more; how long that took.
async fn idle(app: &Router, within: Duration) -> Duration {
    let t0 = Instant::now();
    loop {
        let busy = get(app, "/api/jobs").await.json()["busy"].as_u64().unwrap();
        if busy == 0 {
            return t0.elapsed();
        }
        assert!(
            t0.elapsed() < within,
            "still {busy} job threads after {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_job_stops_at_once_and_jobs_run_side_by_side() {
    let app = app();
    let long = start(&app, "/api/analyze", long_job()).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let s = get(&app, &format!("/api/jobs/{long}")).await.json();
    assert_eq!(s["state"], "running", "the long job should still run: {s}");
    // Another job answers while the long one runs.
    let t0 = Instant::now();
    let a = post(&app, "/api/solve?wait=1", json!({"record": EXAMPLE})).await;
    assert_eq!(a.json()["result"], "win");
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    let s = get(&app, &format!("/api/jobs/{long}")).await.json();
    assert_eq!(s["state"], "running");
    // Cancel: the searches themselves stop (the job's thread ends), quickly.
    let a = send(&app, Method::DELETE, &format!("/api/jobs/{long}"), None).await;
    assert_eq!(a.status, StatusCode::NO_CONTENT);
    let took = idle(&app, Duration::from_secs(2)).await;
    eprintln!("the cancelled job stopped in {took:?}");
    let s = get(&app, &format!("/api/jobs/{long}?wait=1")).await.json();
    assert_eq!(s["state"], "cancelled");
    let evs = events(&app, long).await;
    assert_eq!(
        evs.iter().map(|e| e.0.as_str()).collect::<Vec<_>>(),
        ["cancelled", "end"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_stops_at_the_servers_time_limit() {
    let app = router(Options {
        job_time: Duration::from_millis(300),
        ..Options::default()
    });
    let t0 = Instant::now();
    let a = post(&app, "/api/analyze?wait=1", long_job()).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert!(t0.elapsed() < Duration::from_secs(3), "{:?}", t0.elapsed());
    // Answered with what was known: defences stopped or left undecided.
    let objects = a.json();
    let cut = objects.as_array().unwrap().iter().any(|b| {
        let d = &b["defenses"];
        d["stopped"] == json!(true) || d["unknown"].as_u64().unwrap_or(0) > 0
    });
    assert!(cut, "the time limit cut no defence search");
}

/// `cpbim serve --port 0`: the first line names the address, on 127.0.0.1; the page answers
/// over a real socket, for the names of this machine and `--allow-host`, not for others.
#[test]
fn cpbim_serve_listens_on_localhost() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cpbim"))
        .args(["serve", "--port", "0"])
        .args(["--allow-host", "board.lan", "--max-connections", "8"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .and_then(|a| a.strip_suffix('/'))
        .map(str::to_string);
    let ask = |addr: &str, host: &str| -> Option<String> {
        let mut s = TcpStream::connect(addr).ok()?;
        s.set_read_timeout(Some(Duration::from_secs(20))).ok()?;
        write!(
            s,
            "GET /assets/board.css HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .ok()?;
        let mut text = String::new();
        s.read_to_string(&mut text).ok()?;
        Some(text)
    };
    let answers: Option<Vec<String>> = addr.as_deref().and_then(|addr| {
        [addr, "board.lan:8080", "evil.example"]
            .iter()
            .map(|host| ask(addr, host))
            .collect()
    });
    let _ = child.kill();
    let _ = child.wait();
    let (addr, answers) = addr
        .zip(answers)
        .unwrap_or_else(|| panic!("no page from {line:?}"));
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    assert!(answers[0].starts_with("HTTP/1.1 200"), "{}", answers[0]);
    assert!(answers[1].starts_with("HTTP/1.1 200"), "{}", answers[1]);
    assert!(answers[2].starts_with("HTTP/1.1 403"), "{}", answers[2]);
    // Options that cannot work are refused before listening.
    for (args, message) in [
        (
            &["--max-connections", "0"][..],
            "--max-connections 0: give at least 1",
        ),
        (
            &["--allow-host", "board.lan:x"][..],
            "--allow-host \"board.lan:x\": give a host name",
        ),
    ] {
        let out = cpbim(&[&["serve", "--port", "0"][..], args].concat(), b"", &[]);
        // Bad usage: status 2.
        assert_eq!(out.code, 2, "{args:?}: {}", out.stdout);
        assert!(out.stderr.contains(message), "{args:?}: {}", out.stderr);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_move_stops_the_engine() {
    let app = app();
    let body = json!({"record": "J10 K11 L11 K9 K10", "time": 30});
    let id = start(&app, "/api/move", body).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let s = get(&app, &format!("/api/jobs/{id}")).await.json();
    assert_eq!(s["state"], "running", "the engine should still think: {s}");
    let a = send(&app, Method::DELETE, &format!("/api/jobs/{id}"), None).await;
    assert_eq!(a.status, StatusCode::NO_CONTENT);
    // The engine's thread ends, not after the 30 s of the move.
    let took = idle(&app, Duration::from_secs(2)).await;
    eprintln!("the cancelled move stopped in {took:?}");
    let s = get(&app, &format!("/api/jobs/{id}?wait=1")).await.json();
    assert_eq!(s["state"], "cancelled");
}

/// `GET path` with `Host: host` (none when `None`).
async fn get_as(app: &Router, path: &str, host: Option<&str>) -> Answer {
    let mut req = Request::builder().uri(path);
    if let Some(host) = host {
        req = req.header("host", host);
    }
    let resp = app
        .clone()
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .unwrap();
    Answer {
        status,
        text: String::from_utf8(bytes.to_vec()).unwrap(),
    }
}

fn hosts(extra: &[&str]) -> Hosts {
    Hosts::new(&extra.iter().map(|h| h.to_string()).collect::<Vec<_>>()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_for_other_host_names_are_refused() {
    let app = app();
    for host in [
        Some("localhost"),
        Some("localhost:8080"),
        Some("127.0.0.1:8080"),
        Some("[::1]:8080"),
        None,
    ] {
        let a = get_as(&app, "/api/jobs", host).await;
        assert_eq!(a.status, StatusCode::OK, "{host:?}: {}", a.text);
    }
    for host in [
        "evil.example",
        "evil.example:8080",
        "localhost.evil.example",
        "192.168.1.5:8080",
    ] {
        let a = get_as(&app, "/", Some(host)).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{host}: {}", a.text);
        assert!(a.error().contains(host), "{}", a.error());
        assert!(a.error().contains("--allow-host"), "{}", a.error());
    }
    // A page of another site that has rebound its name to 127.0.0.1 starts no job.
    let req = Request::builder()
        .method(Method::POST)
        .uri("/api/solve")
        .header("host", "evil.example:8080")
        .header("content-type", "application/json")
        .body(Body::from(json!({"record": EXAMPLE}).to_string()))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
    assert_eq!(get(&app, "/api/jobs").await.json()["jobs"], json!([]));
    // Names allowed for a deliberate LAN setup, with or without their port; * for any.
    let lan = router(Options {
        hosts: hosts(&["board.lan", "192.168.1.5"]),
        ..Options::default()
    });
    for host in [
        "board.lan:8080",
        "BOARD.LAN",
        "192.168.1.5:8080",
        "localhost",
    ] {
        let a = get_as(&lan, "/api/jobs", Some(host)).await;
        assert_eq!(a.status, StatusCode::OK, "{host}: {}", a.text);
    }
    let a = get_as(&lan, "/api/jobs", Some("evil.example")).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    let any = router(Options {
        hosts: hosts(&["*"]),
        ..Options::default()
    });
    let a = get_as(&any, "/api/jobs", Some("evil.example")).await;
    assert_eq!(a.status, StatusCode::OK);
}

/// A server of `options` on `ip`, port 0, on a runtime of its own.
struct Served {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Served {
    fn start(ip: &str, options: Options) -> Served {
        let ip: IpAddr = ip.parse().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (tx, rx) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind((ip, 0)).await.unwrap();
                tx.send(listener.local_addr().unwrap()).unwrap();
                let shutdown = async {
                    let _ = stopped.await;
                };
                serve(listener, options, shutdown).await.unwrap();
            });
        });
        Served {
            addr: rx.recv().expect("the server listens"),
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Stop the server: how long it took to return.
    fn stop(mut self) -> Duration {
        let t0 = Instant::now();
        let _ = self.stop.take().unwrap().send(());
        self.thread.take().unwrap().join().unwrap();
        t0.elapsed()
    }

    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        s
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Everything the server sends on `s` until it closes the connection (or resets it, or 20 s
/// pass), and how long that took.
fn read_to_close(s: &mut TcpStream) -> (String, Duration) {
    let t0 = Instant::now();
    let mut bytes = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
        }
    }
    (String::from_utf8_lossy(&bytes).into_owned(), t0.elapsed())
}

/// Send `request` on a new connection and read the answer to the end.
fn exchange(served: &Served, request: &str) -> String {
    let mut s = served.connect();
    s.write_all(request.as_bytes()).unwrap();
    read_to_close(&mut s).0
}

/// A POST of `body` to `path`, the connection closed after the answer.
fn post_request(path: &str, body: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// The body of a whole HTTP answer (not chunked).
fn body_of(answer: &str) -> &str {
    answer.split_once("\r\n\r\n").map_or("", |(_, b)| b)
}

#[test]
fn half_sent_requests_are_closed_after_the_time_limits() {
    let limit = Duration::from_millis(500);
    let served = Served::start(
        "127.0.0.1",
        Options {
            header_time: limit,
            body_time: limit,
            ..Options::default()
        },
    );
    // Half a head, nothing at all, a head with half its body: each on its own connection,
    // side by side.
    let half_head = "POST /api/position HTTP/1.1\r\nHost: localhost\r\nContent-Le";
    let half_body = "POST /api/position HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"record\": \"J10";
    let clients: Vec<_> = [half_head, "", half_body]
        .into_iter()
        .map(|sent| {
            let mut s = served.connect();
            std::thread::spawn(move || {
                s.write_all(sent.as_bytes()).unwrap();
                let (text, took) = read_to_close(&mut s);
                (sent, text, took)
            })
        })
        .collect();
    for client in clients {
        let (sent, text, took) = client.join().unwrap();
        eprintln!("{sent:?}: closed after {took:?}");
        assert!(
            took >= limit.mul_f64(0.9) && took < Duration::from_secs(8),
            "{sent:?}: closed after {took:?}, the limit is {limit:?}: {text:?}"
        );
        if sent == half_body {
            assert!(text.starts_with("HTTP/1.1 408"), "{text:?}");
            let error: Value = serde_json::from_str(body_of(&text)).unwrap();
            assert!(
                error["error"].as_str().unwrap().contains("0.5 s"),
                "{error}"
            );
        } else {
            assert!(!text.contains(" 200 "), "{sent:?}: {text:?}");
        }
    }
    // A whole request is answered; an event stream runs past the limits to its end.
    let a = exchange(
        &served,
        &post_request(
            "/api/solve",
            &json!({"record": LONG_SOLVE, "time": 1.5}).to_string(),
        ),
    );
    assert!(a.starts_with("HTTP/1.1 202"), "{a}");
    let id = serde_json::from_str::<Value>(body_of(&a)).unwrap()["id"].clone();
    let mut s = served.connect();
    write!(
        s,
        "GET /api/jobs/{id}/events HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let (events, took) = read_to_close(&mut s);
    eprintln!("the event stream of a 1.5 s solve lasted {took:?}");
    assert!(events.starts_with("HTTP/1.1 200"), "{events}");
    assert!(took > Duration::from_secs(1), "{took:?}");
    assert!(events.contains("event: result"), "{events}");
    assert!(events.contains("event: end"), "{events}");
    let took = served.stop();
    assert!(
        took < Duration::from_secs(5),
        "the server stopped in {took:?}"
    );
}

/// Let this process open `n` more files where its soft limit is lower (never system-wide).
fn allow_open_files(n: u64) {
    #[cfg(unix)]
    {
        let mut l = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write one `rlimit` through valid pointers.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut l) == 0 && l.rlim_cur < n {
                l.rlim_cur = l.rlim_max.min(n);
                libc::setrlimit(libc::RLIMIT_NOFILE, &l);
            }
        }
    }
    let _ = n;
}

#[test]
fn idle_connections_keep_no_client_out() {
    const IDLE: usize = 1000;
    const CAP: usize = 64;
    allow_open_files(4 * IDLE as u64);
    // Time limits far beyond the test: only the cap can make room.
    let served = Served::start(
        "127.0.0.1",
        Options {
            header_time: Duration::from_secs(120),
            body_time: Duration::from_secs(120),
            max_connections: CAP,
            ..Options::default()
        },
    );
    let t0 = Instant::now();
    let idle: Vec<TcpStream> = (0..IDLE)
        .map(|_| {
            let mut s = served.connect();
            // A write may find the connection closed already, to make room.
            let _ = s.write_all(b"POST /api/position HTTP/1.1\r\nHost: localhost\r\nContent-Le");
            s
        })
        .collect();
    eprintln!("{IDLE} idle connections opened in {:?}", t0.elapsed());
    let t0 = Instant::now();
    let a = exchange(
        &served,
        &post_request("/api/position", r#"{"record": "J10"}"#),
    );
    let took = t0.elapsed();
    eprintln!("a request with {IDLE} idle connections open (cap {CAP}) answered in {took:?}");
    assert!(a.starts_with("HTTP/1.1 200"), "{a}");
    let p: Value = serde_json::from_str(body_of(&a)).unwrap();
    assert_eq!(p["stones"], json!([["J10", "black"]]));
    assert!(took < Duration::from_secs(5), "{took:?}");
    // The server holds at most CAP connections: the others have been closed.
    let still_open = |idle: &[TcpStream]| {
        idle.iter()
            .filter(|s| {
                s.set_nonblocking(true).unwrap();
                let mut s: &TcpStream = s;
                matches!(s.read(&mut [0u8; 64]), Err(e) if e.kind() == ErrorKind::WouldBlock)
            })
            .count()
    };
    let t0 = Instant::now();
    let mut open = still_open(&idle);
    while open > CAP && t0.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(100));
        open = still_open(&idle);
    }
    eprintln!("{open} of the {IDLE} idle connections still open");
    assert!(
        open <= CAP,
        "{open} idle connections open, the cap is {CAP}"
    );
    assert!(open > 0, "the cap closed every idle connection");
    drop(idle);
    let took = served.stop();
    assert!(
        took < Duration::from_secs(5),
        "the server stopped in {took:?}"
    );
}

/// The address a request came in on names the server: what `--bind 0.0.0.0` needs to be
/// reached by its LAN address. (127.0.0.2 is this machine on Linux, but not a default name.)
#[cfg(target_os = "linux")]
#[test]
fn the_address_a_request_came_in_on_is_a_name_of_the_server() {
    let served = Served::start("127.0.0.2", Options::default());
    let port = served.addr.port();
    for (host, status) in [
        (format!("127.0.0.2:{port}"), "200"),
        ("127.0.0.2".to_string(), "200"),
        (format!("localhost:{port}"), "200"),
        (format!("127.0.0.3:{port}"), "403"),
        ("evil.example".to_string(), "403"),
    ] {
        let a = exchange(
            &served,
            &format!("GET /api/jobs HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
        );
        assert!(a.starts_with(&format!("HTTP/1.1 {status}")), "{host}: {a}");
    }
    served.stop();
}

/// The job endpoints take mutated requests too: every answer is a result or a 4xx with a
/// message, never a server error, and the server answers on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutated_job_requests_get_answers() {
    let app = router(Options {
        job_time: Duration::from_secs(2),
        ..Options::default()
    });
    let mut rng = common::mutate::Rng(27);
    let games = ["connect6", "gomoku", "renju", "gomoku:7", "bogus"];
    let (mut ok, mut refused) = (0, 0);
    let real = ["J10 K11 I11 K9 K10", "h8 h9 i9 j10", "", "J10"];
    let records = common::mutate::mutated(8, 27)
        .into_iter()
        .map(|r| String::from_utf8_lossy(&r).into_owned())
        .chain(real.map(String::from));
    for record in records {
        // The real records with their own game; the mutated ones with any.
        let game = match record.as_str() {
            "h8 h9 i9 j10" => "gomoku",
            r if real.contains(&r) => "connect6",
            _ => games[rng.below(games.len())],
        };
        for (path, limits) in [
            ("/api/solve", json!({"time": 0.05, "depth": 8})),
            ("/api/analyze", json!({"time": 0.05})),
            ("/api/prove", json!({"time": 0.05, "threats": 1})),
            ("/api/move", json!({"time": 0.05})),
        ] {
            let mut body = json!({"game": game, "record": record});
            for (k, v) in limits.as_object().unwrap() {
                body[k] = v.clone();
            }
            let raw = body.to_string();
            let bent = common::mutate::mutate(raw.as_bytes(), &[raw.as_bytes().to_vec()], &mut rng);
            for text in [raw.clone(), String::from_utf8_lossy(&bent).into_owned()] {
                if answered_or_refused(&app, &format!("{path}?wait=1"), &text).await {
                    ok += 1;
                } else {
                    refused += 1;
                }
            }
        }
    }
    assert!(ok > 0 && refused > 0, "{ok} answered, {refused} refused");
    let a = post(&app, "/api/position", json!({"record": "J10"})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
}
