//! The analysis board end to end in a real headless Chromium, driven over WebDriver
//! (fantoccini) against `cpbim serve --port 0`: load the page, place the built-in example's
//! stones by clicking, solve it and read the numbered line from the page, walk the proof,
//! analyse, play moves against the engine, paste an SGF and step through it, watch a long
//! solve's nodes, mark Renju's forbidden points, set up, analyse and extend a Gomoku puzzle
//! diagram, read the move list, the evaluation bar and the opening's name, flip the board,
//! export a PNG, copy the position, and lay the page out in a 400-pixel window. Prints the
//! measured latencies. Chromium and chromedriver come from the OS packages (`.ci/run`
//! installs them); without them the test fails and says how to install them.
//!
//! With `CPBIM_SCREENSHOTS=DIR` the main views are saved as PNG files into DIR (the README's
//! pictures: `CPBIM_SCREENSHOTS=docs/board cargo test --release --test browser`).

mod common;

use common::binary::cpbim;
use common::{gomoku_puzzle, LONG_SOLVE};
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const EXAMPLE: &str = include_str!("../examples/positions/example.txt");
const CHROMIUM: &[&str] = &["/usr/bin/chromium", "/usr/bin/chromium-browser"];
const DRIVER: &str = "/usr/bin/chromedriver";
const INSTALL: &str = "install them with `sudo apt-get install -y chromium chromium-driver` (Debian; Ubuntu: chromium-browser chromium-chromedriver); scripts/test does this";

/// Child processes ended when the test ends, however it ends.
struct Processes(Vec<Child>);

impl Drop for Processes {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().unwrap().port()
}

/// `cpbim serve --port 0`: the process and the URL it prints first.
fn start_server() -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cpbim"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("cpbim serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("first line of cpbim serve: {line:?}"))
        .to_string();
    (child, url)
}

/// chromedriver on a free port, once it answers.
fn start_driver() -> (Child, String) {
    assert!(
        std::path::Path::new(DRIVER).exists(),
        "{DRIVER} is missing: the browser tests need Chromium and its WebDriver; {INSTALL}"
    );
    let port = free_port();
    let child = Command::new(DRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{DRIVER} does not start ({e}); {INSTALL}"));
    let t0 = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "chromedriver does not answer on port {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (child, format!("http://127.0.0.1:{port}"))
}

async fn connect(driver: &str) -> Client {
    let binary = CHROMIUM
        .iter()
        .find(|b| std::path::Path::new(b).exists())
        .unwrap_or_else(|| panic!("Chromium is missing (looked for {CHROMIUM:?}); {INSTALL}"));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": binary,
            "args": ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1200,900"],
        }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(driver)
        .await
        .unwrap_or_else(|e| panic!("no WebDriver session with Chromium: {e}"))
}

/// The page, driven.
struct Page {
    c: Client,
}

impl Page {
    async fn js(&self, script: &str) -> Value {
        self.c
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    /// Wait until `script` returns something other than null/false/"" (20 s at most).
    async fn until(&self, what: &str, script: &str) -> Value {
        let t0 = Instant::now();
        loop {
            let v = self.js(script).await;
            if !(v.is_null() || v == json!(false) || v == json!("")) {
                return v;
            }
            if t0.elapsed() > Duration::from_secs(20) {
                let msg = self
                    .js("return document.getElementById('message').textContent")
                    .await;
                panic!("waited 20 s for {what}; the page says {msg}");
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    async fn click(&self, css: &str) {
        self.c
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    /// Stones on the board as the page counts them.
    async fn stones(&self) -> u64 {
        self.js("return Number(document.body.dataset.stones)")
            .await
            .as_u64()
            .unwrap_or(0)
    }

    async fn wait_stones(&self, n: u64) {
        self.until(
            &format!("{n} stones"),
            &format!("return document.body.dataset.stones === '{n}' && document.querySelectorAll('#stones circle').length === {n}"),
        )
        .await;
    }

    /// Click the point `pt` and wait for the board to show `n` stones.
    async fn place(&self, pt: &str, n: u64) {
        self.click(&format!("rect[data-point='{pt}']")).await;
        self.wait_stones(n).await;
    }

    /// An empty Gomoku board, its side to move taken from the records loaded.
    async fn new_gomoku_board(&self) {
        self.js("const g = document.getElementById('game'); g.value = 'gomoku'; g.dispatchEvent(new Event('change')); document.getElementById('to-move').value = '';").await;
        self.wait_stones(0).await;
    }

    /// Put `text` into the record box and load it.
    async fn load(&self, text: &str) {
        self.c
            .execute(
                "document.getElementById('record-text').value = arguments[0];",
                vec![json!(text)],
            )
            .await
            .unwrap();
        self.click("#load").await;
    }

    /// A real click of the mouse at (x, y) of the viewport, wherever the page has put things.
    async fn click_at(&self, x: f64, y: f64) {
        let (x, y) = (x.round(), y.round());
        let mouse = MouseActions::new("mouse".into())
            .then(PointerAction::MoveTo {
                duration: None,
                x,
                y,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.c
            .perform_actions(mouse)
            .await
            .unwrap_or_else(|e| panic!("click at ({x}, {y}): {e}"));
    }

    /// The evaluation shown beside the board: its text and where it comes from.
    async fn evaluation(&self) -> (String, String) {
        let v = self
            .js("return [document.getElementById('eval-text').textContent, document.getElementById('eval-source').dataset.source]")
            .await;
        (
            v[0].as_str().unwrap().to_string(),
            v[1].as_str().unwrap_or("").to_string(),
        )
    }

    async fn screenshot(&self, name: &str) {
        let Ok(dir) = std::env::var("CPBIM_SCREENSHOTS") else {
            return;
        };
        let png = self.c.screenshot().await.expect("a screenshot");
        std::fs::create_dir_all(&dir).unwrap();
        let path = std::path::Path::new(&dir).join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap();
        eprintln!("wrote {}", path.display());
    }
}

/// The example's stones in play order.
fn example_stones() -> Vec<String> {
    EXAMPLE
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(|l| l.split_whitespace())
        .map(String::from)
        .collect()
}

/// Each move's points, sorted (a move's stones have no order).
fn moves_of(v: &Value) -> Vec<Vec<String>> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let mut pts: Vec<String> = m
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap().to_string())
                .collect();
            pts.sort();
            pts
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_in_chromium() {
    let (driver, driver_url) = start_driver();
    let (server, url) = start_server();
    let _processes = Processes(vec![driver, server]);
    let client = connect(&driver_url).await;
    let page = Page { c: client.clone() };
    // The session is closed (and Chromium with it) whether the checks pass or fail.
    let outcome = tokio::spawn(drive(page, url)).await;
    let _ = client.close().await;
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

/// Every check of the page, in one browser session.
async fn drive(page: Page, url: String) {
    // Load: the board is drawn.
    let t0 = Instant::now();
    page.c.goto(&url).await.expect("the page loads");
    let ready = page
        .until("the board", "return document.body.dataset.readyMs")
        .await;
    let wall = t0.elapsed();
    let ready_ms: f64 = ready.as_str().unwrap().parse().unwrap();
    eprintln!(
        "latency: page ready (board drawn) {ready_ms:.1} ms after navigation start; {:.1} ms by the test's clock (WebDriver included)",
        wall.as_secs_f64() * 1e3
    );
    assert!(ready_ms < 1000.0, "the page took {ready_ms} ms to load");
    let points = page
        .js("return document.querySelectorAll('rect[data-point]').length")
        .await;
    assert_eq!(points, json!(361));

    // Set up the built-in example by clicking its stones.
    let stones = example_stones();
    let t0 = Instant::now();
    for (i, pt) in stones.iter().enumerate() {
        page.place(pt, i as u64 + 1).await;
    }
    eprintln!(
        "placed {} stones by clicking in {:.1} s",
        stones.len(),
        t0.elapsed().as_secs_f64()
    );
    let side = page.js("return document.body.dataset.toMove").await;
    assert_eq!(side, json!("black"));
    let listed = page
        .js("return document.getElementById('list').textContent")
        .await;
    let listed: Vec<&str> = listed.as_str().unwrap().split_whitespace().collect();
    assert_eq!(listed, stones);
    // The opening's DIF name, as `cpbim name` gives it; no evaluation known yet.
    let name = cpbim(&["name", &stones[..3].join(" "), "--json"], b"", &[]);
    let name: Value = serde_json::from_str(name.stdout.trim()).unwrap();
    let opening = page
        .js("const o = document.getElementById('opening'); return [o.dataset.opening, o.textContent]")
        .await;
    assert_eq!(opening[0], name["short"]);
    let said = opening[1].as_str().unwrap();
    assert!(
        said.contains(name["name"].as_str().unwrap()) && said.contains("thesis fig. 2.9"),
        "{said}"
    );
    assert_eq!(page.evaluation().await, ("—".to_string(), String::new()));
    page.screenshot("setup").await;

    // Solve: the line drawn with move numbers is cpbim solve's line.
    let cli = cpbim(&["solve", "--example", "--json"], b"", &[]);
    let cli: Value = serde_json::from_str(cli.stdout.trim()).unwrap();
    let mut solve_ms = Vec::new();
    for _ in 0..3 {
        page.click("#solve").await;
        let ms = page
            .until(
                "the solve",
                "return document.getElementById('solve-result').dataset.solveMs",
            )
            .await;
        solve_ms.push(ms.as_str().unwrap().parse::<f64>().unwrap());
    }
    let drawn = page
        .js("return Array.from(document.querySelectorAll('[data-move-number]')).map(e => [Number(e.dataset.moveNumber), e.dataset.point])")
        .await;
    let n = cli["line"].as_array().unwrap().len();
    let mut by_move = vec![Vec::new(); n];
    for d in drawn.as_array().unwrap() {
        let k = d[0].as_u64().unwrap() as usize;
        assert!((1..=n).contains(&k), "move number {k} of {n}");
        by_move[k - 1].push(d[1].as_str().unwrap().to_string());
    }
    by_move.iter_mut().for_each(|m| m.sort());
    assert_eq!(by_move, moves_of(&cli["line"]), "the drawn line");
    let best = solve_ms.iter().cloned().fold(f64::INFINITY, f64::min);
    eprintln!(
        "latency: solve of the built-in example back on the page in {solve_ms:?} ms (click to line drawn; best {best:.1} ms; the search itself {} ms)",
        cli["time_ms"]
    );
    assert!(
        best < 1000.0,
        "solving the example took {best} ms on the page"
    );
    // The evaluation bar: the win Solve found.
    assert_eq!(
        page.evaluation().await,
        (
            format!("black wins in {} plies", cli["depth"]),
            "solve".to_string()
        )
    );
    let share = page
        .js("return document.getElementById('eval-bar').dataset.share")
        .await;
    assert_eq!(share, json!("1.000"));
    page.screenshot("solve").await;

    // Walk the proof: choose the first defence; the attacker's answer is drawn as move 3.
    let attack = page
        .js("return document.getElementById('proof-node').dataset.attack")
        .await;
    assert_eq!(
        attack,
        json!(cli["line"][0]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect::<Vec<_>>()
            .join(" "))
    );
    page.click("button.defense").await;
    page.until("the answer", "return document.querySelectorAll('[data-move-number=\"3\"]').length > 0 && document.getElementById('proof-back')").await;
    page.click("#proof-top").await;

    // Analyse a short line with its defences.
    page.load("J10 K11 I11 H11 I10 J11 L11 J9 K9").await;
    page.wait_stones(9).await;
    page.click("#analyze").await;
    let rows = page
        .until(
            "the analysis",
            "return document.querySelectorAll('#analysis tr.boundary').length || null",
        )
        .await;
    assert_eq!(rows, json!(5));
    let cli = cpbim(
        &[
            "analyze",
            "J10 K11 I11 H11 I10 J11 L11 J9 K9",
            "--defenses",
            "--json",
        ],
        b"",
        &[],
    );
    let last: Value = serde_json::from_str(cli.stdout.lines().last().unwrap()).unwrap();
    let hold = page
        .js("return document.querySelector('#analysis tr.boundary:last-child td.hold').textContent")
        .await;
    let d = &last["defenses"];
    let expected = if d["needed"] == json!(true) {
        format!("{}/{}", d["holding"], d["pairs"])
    } else {
        "no threat".to_string()
    };
    assert_eq!(hold, json!(expected));
    // Every move's verdict is the command line's.
    let verdicts = page
        .js("return Array.from(document.querySelectorAll('#analysis tr.boundary')).map(tr => tr.dataset.verdict || '')")
        .await;
    let expected: Vec<String> = cli
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|b| b["review"]["verdict"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(verdicts, json!(expected));
    assert!(expected[..4].iter().all(|v| !v.is_empty()), "{expected:?}");
    page.screenshot("analyse").await;
    move_list(&page, "J10 K11 I11 H11 I10 J11 L11 J9 K9", &cli.stdout).await;

    // Play against the engine at a fixed depth: the engine (black) opens, we answer, it answers.
    page.click("#new-game").await;
    page.wait_stones(0).await;
    page.c
        .execute(
            "document.getElementById('play-depth').value = '1'; document.getElementById('play-color').value = 'white';",
            vec![],
        )
        .await
        .unwrap();
    let t0 = Instant::now();
    page.click("#play-start").await;
    page.until("the engine's first move", "return document.body.dataset.engineMoves === '1' && document.body.dataset.toMove === 'white'").await;
    let first = cpbim(&["move", "", "--depth", "1", "--json"], b"", &[]);
    let first: Value = serde_json::from_str(first.stdout.trim()).unwrap();
    let mut n = first["move"].as_array().unwrap().len() as u64;
    page.wait_stones(n).await;
    // The engine's evaluation of the position its move made (its value, black's).
    assert_eq!(
        page.evaluation().await,
        (eval_text(first["eval"].as_i64().unwrap()), "engine".into())
    );
    for (round, reply) in [["K11", "I11"], ["H11", "L11"]].iter().enumerate() {
        // Our move: the first two free points of a fixed list.
        let taken = page.js("return Array.from(document.querySelectorAll('#stones circle')).map(c => c.dataset.stone)").await;
        let taken: Vec<&str> = taken
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let ours: Vec<&str> = reply
            .iter()
            .copied()
            .chain(["A1", "S19", "A19", "S1"])
            .filter(|p| !taken.contains(p))
            .take(2)
            .collect();
        // The first stone shows alone; after the second the engine answers at once.
        page.place(ours[0], n + 1).await;
        page.click(&format!("rect[data-point='{}']", ours[1])).await;
        n += 2;
        let moves = round + 2;
        page.until("the engine's answer", &format!("return document.body.dataset.engineMoves === '{moves}' && document.body.dataset.toMove === 'white'")).await;
        n += 2;
        page.wait_stones(n).await;
    }
    eprintln!(
        "played 3 engine moves at depth 1 in {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    let list = page
        .js("return document.getElementById('list').textContent")
        .await;
    let record = cpbim::parse_record(list.as_str().unwrap(), cpbim::Game::CONNECT6)
        .expect("the game played on the page is legal");
    assert_eq!(record.stones().len() as u64, n);
    assert_eq!(
        record.stones()[0].to_string(),
        first["move"][0].as_str().unwrap()
    );
    page.click("#hint").await;
    page.until(
        "the hint",
        "return document.querySelectorAll('[data-hint]').length === 2",
    )
    .await;
    page.screenshot("play").await;
    page.click("#play-stop").await;

    // Paste an SGF and step through it.
    let sgf = cpbim(&["position", EXAMPLE, "--format", "sgf"], b"", &[]).stdout;
    page.load(&sgf).await;
    page.wait_stones(47).await;
    page.click("#first").await;
    page.wait_stones(0).await;
    page.click("#forward").await;
    page.wait_stones(1).await;
    page.click("#forward").await;
    page.wait_stones(3).await;
    page.click("#last").await;
    page.wait_stones(47).await;
    page.click("#back").await;
    page.wait_stones(45).await;
    assert_eq!(page.stones().await, 45);
    flip_and_export(&page, &stones[..45]).await;

    // A long solve shows its nodes while it runs.
    page.load(LONG_SOLVE).await;
    page.wait_stones(143).await;
    page.c
        .execute(
            "document.getElementById('solve-time').value = '1.5'; document.getElementById('solve-depth').value = '';",
            vec![],
        )
        .await
        .unwrap();
    page.click("#solve").await;
    let shown = page
        .until(
            "the solve's progress",
            "const t = document.getElementById('solve-result').textContent; return Number(document.getElementById('job-progress').dataset.nodes) > 0 && t.includes('nodes') && t",
        )
        .await;
    eprintln!("while solving, the page shows: {shown}");
    assert!(
        shown.as_str().unwrap().starts_with("searching… "),
        "{shown}"
    );
    let result = page
        .until(
            "the solve's end",
            "return document.getElementById('solve-result').dataset.result",
        )
        .await;
    assert_eq!(result, json!("unknown"));

    // Renju: a 15×15 board, black's forbidden points from the server, refused on click.
    page.c
        .execute(
            "const g = document.getElementById('game'); g.value = 'renju'; g.dispatchEvent(new Event('change'));",
            vec![],
        )
        .await
        .unwrap();
    page.until(
        "the Renju board",
        "return document.querySelectorAll('rect[data-point]').length === 225",
    )
    .await;
    // The name of a three-stone opening of the games of five (five_openings.rs).
    page.load("H8 H9 I9").await;
    page.wait_stones(3).await;
    page.until(
        "the opening's name",
        "return document.getElementById('opening').dataset.opening === 'Kagetsu'",
    )
    .await;
    let said = page
        .js("return document.getElementById('opening').textContent")
        .await;
    assert!(said.as_str().unwrap().contains("花月, direct"), "{said}");
    let renju = "H8 A1 I9 A15 J8 O1 I7 O15";
    page.load(renju).await;
    page.wait_stones(8).await;
    let marked = page
        .js("return Array.from(document.querySelectorAll('[data-forbidden]')).map(e => e.dataset.forbidden)")
        .await;
    let marked: Vec<&str> = marked
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let cli = cpbim(
        &["position", renju, "--game", "renju", "--forbidden"],
        b"",
        &[],
    );
    let listed = cli.stdout.lines().last().unwrap().to_string();
    assert!(!marked.is_empty());
    for pt in &marked {
        assert!(listed.contains(&format!(" {pt} (")), "{pt} not in {listed}");
    }
    page.click(&format!("rect[data-point='{}']", marked[0]))
        .await;
    let said = page
        .until(
            "the refusal",
            "return document.getElementById('message').textContent",
        )
        .await;
    assert!(said.as_str().unwrap().contains("forbidden"), "{said}");
    assert_eq!(page.stones().await, 8);
    page.place("A3", 9).await;
    let color = page
        .js("return document.querySelector('[data-stone=\"A3\"]').dataset.color")
        .await;
    assert_eq!(color, json!("black"));

    // A depth that is not whole rounds: refused as the command line refuses it, and the result
    // box says so (it does not stay "solving…").
    let step = page
        .js("return document.getElementById('solve-depth').step")
        .await;
    assert_eq!(step, json!("2"));
    page.js("document.getElementById('solve-depth').value = '3'")
        .await;
    page.click("#solve").await;
    let said = page
        .until(
            "the refused depth",
            "const t = document.getElementById('solve-result').textContent; return t.startsWith('error') && t",
        )
        .await;
    let cli = cpbim(
        &["solve", "--game", "renju", "--depth", "3", "H8"],
        b"",
        &[],
    );
    assert_eq!(cli.code, 2, "{}", cli.stderr);
    let reason = |t: &str| t.split_once(": depths").map(|(_, r)| r.trim().to_string());
    assert_eq!(
        reason(said.as_str().unwrap()),
        reason(&cli.stderr),
        "{said}"
    );
    page.js("document.getElementById('solve-depth').value = ''")
        .await;

    puzzle(&page).await;
    variations(&page).await;
    prove_job(&page).await;
    narrow(&page).await;
}

/// The evaluation bar's text for the engine value `v` (black's view; not a decided game).
fn eval_text(v: i64) -> String {
    match v {
        0 => "even (0)".to_string(),
        v if v > 0 => format!("black +{v}"),
        v => format!("white +{}", -v),
    }
}

/// The move list after an analysis of `line` (`analyzed`: `cpbim analyze --json`'s lines):
/// one entry per move with the verdict mark of the command line, the current move marked, a
/// click on an entry goes there, and the evaluation bar shows the analysis's evaluation of
/// the position at the cursor, or nothing where there is none.
async fn move_list(page: &Page, line: &str, analyzed: &str) {
    let boundaries: Vec<Value> = analyzed
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let stones: Vec<&str> = line.split_whitespace().collect();
    // Connect6: black's one stone, then two a move; the move from boundary i is entry i + 2.
    let mut expected = vec![(format!("1. {}", stones[0]), String::new())];
    for (i, b) in boundaries.iter().enumerate().take(stones.len() / 2) {
        let mark = b["review"]["mark"].as_str().unwrap();
        let text = format!("{}. {}", i + 2, stones[1 + 2 * i..3 + 2 * i].join(" "));
        let text = if mark.is_empty() {
            text
        } else {
            format!("{text} {mark}")
        };
        let verdict = b["review"]["verdict"].as_str().unwrap().to_string();
        expected.push((text, verdict));
    }
    let shown = page
        .js("return Array.from(document.querySelectorAll('#moves .move')).map(b => [b.textContent, b.dataset.verdict || ''])")
        .await;
    let shown: Vec<(String, String)> = serde_json::from_value(shown).unwrap();
    assert_eq!(shown, expected);
    assert!(shown.iter().any(|(t, _)| t.ends_with("??")), "{shown:?}");
    let current =
        "return Array.from(document.querySelectorAll('#moves .current')).map(b => b.dataset.move)";
    assert_eq!(page.js(current).await, json!(["5"]));
    // A click on move 4: the board after it, move 4 marked, the analysis's evaluation there.
    page.click("#moves .move[data-move='4']").await;
    page.wait_stones(7).await;
    assert_eq!(page.js(current).await, json!(["4"]));
    let at7 = boundaries.iter().find(|b| b["stones"] == json!(7)).unwrap();
    let v = at7["eval"]["value"].as_i64().unwrap();
    let black = if at7["to_move"] == json!("black") {
        v
    } else {
        -v
    };
    assert_eq!(
        page.evaluation().await,
        (eval_text(black), "analyse".into())
    );
    page.js("document.getElementById('list').scrollIntoView({block: 'end'})")
        .await;
    page.screenshot("movelist").await;
    page.js("window.scrollTo(0, 0)").await;
    // After the move that walked into a loss: white's win, found by the analysis.
    page.click("#moves .move[data-move='5']").await;
    page.wait_stones(9).await;
    let at9 = boundaries.iter().find(|b| b["stones"] == json!(9)).unwrap();
    assert_eq!(at9["win"]["result"], json!("win"));
    let plies = at9["win"]["depth"].as_u64().unwrap();
    let won = if plies == 0 {
        "white wins: the row now".to_string()
    } else {
        format!("white wins in {plies} plies")
    };
    assert_eq!(page.evaluation().await, (won, "analyse".into()));
    // The empty board: nothing known, nothing shown.
    key(page, "Home").await;
    page.wait_stones(0).await;
    assert_eq!(page.evaluation().await, ("—".to_string(), String::new()));
    let none = page
        .js("return document.getElementById('eval-bar').classList.contains('none') && document.querySelectorAll('#moves .current').length")
        .await;
    assert_eq!(none, json!(0));
}

/// Flip (the key f): the board upside down, the labels with it, and a real click where a point
/// is drawn places that point. The board as a PNG picture of the board's size with its stones;
/// the position's text copied, through the clipboard or the export box.
async fn flip_and_export(page: &Page, line: &[String]) {
    let centre = |pt: &str| {
        format!("const r = document.querySelector('rect[data-point=\"{pt}\"]').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]")
    };
    let top_left = page.js(&centre("A19")).await;
    key(page, "f").await;
    page.until(
        "the flipped board",
        "return document.body.dataset.flipped === 'true'",
    )
    .await;
    let labels = page
        .js("const by = (s, k) => Array.from(document.querySelectorAll(s)).sort((a, b) => a.getBoundingClientRect()[k] - b.getBoundingClientRect()[k]).map(e => e.textContent).join(' '); return [by('[data-column]', 'x'), by('[data-row]', 'y')]")
        .await;
    let columns: Vec<&str> = "S R Q P O N M L K J I H G F E D C B A".split(' ').collect();
    let rows: Vec<String> = (1..=19).map(|r| r.to_string()).collect();
    assert_eq!(labels, json!([columns.join(" "), rows.join(" ")]));
    // Where A19 was drawn, S1 is now: a real click there places S1 (white's first stone).
    assert_eq!(page.js(&centre("S1")).await, top_left);
    page.click_at(top_left[0].as_f64().unwrap(), top_left[1].as_f64().unwrap())
        .await;
    page.wait_stones(46).await;
    let placed = page
        .js("return Array.from(document.querySelectorAll('#stones .pending')).map(c => [c.dataset.stone, c.dataset.color])")
        .await;
    assert_eq!(placed, json!([["S1", "white"]]));
    page.click("#undo").await;
    page.wait_stones(45).await;

    // The PNG: the board's drawing at twice its size, flipped as shown, its stones in it.
    page.click("#png").await;
    page.until(
        "the PNG",
        "return document.getElementById('export-text').dataset.format === 'png'",
    )
    .await;
    let png = page
        .c
        .execute_async(
            "const done = arguments[arguments.length - 1];
            (async () => {
              const a = document.getElementById('export-download');
              const blob = await (await fetch(a.href)).blob();
              const head = Array.from(new Uint8Array(await blob.slice(0, 8).arrayBuffer()));
              const bmp = await createImageBitmap(blob);
              const c = document.createElement('canvas');
              [c.width, c.height] = [bmp.width, bmp.height];
              const ctx = c.getContext('2d');
              ctx.drawImage(bmp, 0, 0);
              const px = (x, y) => Array.from(ctx.getImageData(2 * x, 2 * y, 1, 1).data.slice(0, 3));
              const at = (pt) => { const s = document.querySelector(`[data-stone='${pt}']`); return px(s.cx.baseVal.value, s.cy.baseVal.value); };
              done({type: blob.type, name: a.download, head, size: [bmp.width, bmp.height],
                    viewBox: document.getElementById('board').getAttribute('viewBox'),
                    black: at(arguments[0]), white: at(arguments[1]), empty: px(45, 45)});
            })().catch((e) => done({error: String(e)}));",
            vec![json!(line[0]), json!(line[1])],
        )
        .await
        .expect("the PNG is read back");
    assert_eq!(png["error"], Value::Null, "{png}");
    assert_eq!(png["type"], json!("image/png"));
    assert_eq!(png["name"], json!("position.png"));
    assert_eq!(png["head"], json!([137, 80, 78, 71, 13, 10, 26, 10]));
    assert_eq!(png["viewBox"], json!("0 0 600 600"));
    assert_eq!(png["size"], json!([1200, 1200]));
    let rgb = |k: &str| -> Vec<u64> {
        png[k]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect()
    };
    assert!(rgb("black").iter().all(|&c| c < 60), "{png}");
    assert!(rgb("white").iter().all(|&c| c > 200), "{png}");
    // The board's colour (#e8c07a) between four points.
    let empty = rgb("empty");
    let wood = [0xe8, 0xc0, 0x7a];
    assert!(
        empty.iter().zip(wood).all(|(&c, w)| c.abs_diff(w) < 8),
        "{png}"
    );
    key(page, "f").await;
    page.until(
        "the board upright",
        "return document.body.dataset.flipped === 'false'",
    )
    .await;

    // Copy: the stone list of the position on the board, as `cpbim position` writes it.
    let list = cpbim(&["position", &line.join(" "), "--format", "list"], b"", &[]);
    let list = list.stdout.trim_end();
    let copied = "const s = document.getElementById('copy-status'); return s.dataset.how && [s.dataset.how, s.dataset.text, s.textContent]";
    page.click("#copy").await;
    let how = page.until("the copy", copied).await;
    eprintln!("copy: {how}");
    assert_eq!(how[1], json!(list));
    assert!(
        how[0] == json!("clipboard") || how[0] == json!("selection"),
        "{how}"
    );
    // A browser that refuses the clipboard: the text in the export box, selected and copied.
    page.js("navigator.clipboard.writeText = () => Promise.reject(new Error('refused'))")
        .await;
    page.click("#copy").await;
    let how = page.until("the copy without the clipboard", copied).await;
    assert_ne!(how[0], json!("clipboard"), "{how}");
    let boxed = page
        .js("const b = document.getElementById('export-text'); return [b.value, b.value.substring(b.selectionStart, b.selectionEnd)]")
        .await;
    assert_eq!(boxed, json!([list, list]));
}

/// A 400-pixel window: the board scales to the width, the panels stack below it, and nothing
/// scrolls sideways.
async fn narrow(page: &Page) {
    page.c
        .set_window_size(400, 900)
        .await
        .expect("a 400-pixel window");
    page.until("the narrow window", "return window.innerWidth <= 400")
        .await;
    page.click("#analyze").await;
    page.until(
        "the analysis",
        "return document.querySelectorAll('#analysis tr.boundary').length > 0",
    )
    .await;
    let layout = page
        .js(
            "const r = (id) => document.getElementById(id).getBoundingClientRect();
             return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
                     board: [r('board').width, r('board').height], boardBottom: r('board').bottom,
                     right: [r('right').top, r('right').right], moves: r('moves').height}",
        )
        .await;
    eprintln!("at 400 pixels: {layout}");
    let n = |k: &str, i: usize| layout[k][i].as_f64().unwrap();
    assert!(
        layout["scroll"].as_f64().unwrap() <= 400.0,
        "scrolls sideways: {layout}"
    );
    assert!(
        (300.0..=400.0).contains(&n("board", 0)),
        "the board's width: {layout}"
    );
    assert!(
        (n("board", 0) - n("board", 1)).abs() < 1.0,
        "a square board: {layout}"
    );
    assert!(
        n("right", 0) >= layout["boardBottom"].as_f64().unwrap() && n("right", 1) <= 400.0,
        "the panels below the board: {layout}"
    );
    assert!(layout["moves"].as_f64().unwrap() > 0.0, "{layout}");
    page.js("window.scrollTo(0, 0)").await;
    page.screenshot("narrow").await;
}

/// The prove job: a threat-space proof of the position on the board, worded as the command
/// line words it, its first threat drawn; and one it cannot prove, said so.
async fn prove_job(page: &Page) {
    page.new_gomoku_board().await;
    let stones = "H8 A1 J8 C1 I7 A3 I9 O15";
    page.load(stones).await;
    page.wait_stones(8).await;
    let cli = cpbim(&["prove", stones, "--game", "gomoku", "--json"], b"", &[]);
    let cli: Value = serde_json::from_str(cli.stdout.trim()).unwrap();
    assert_eq!(cli["result"], json!("proven"));
    let first = cli["proof"]["threat"][0].as_str().unwrap().to_string();
    page.click("#prove").await;
    let said = page
        .until(
            "the proof",
            "const b = document.getElementById('prove-result'); return b.dataset.result && b.textContent",
        )
        .await;
    let said = said.as_str().unwrap();
    assert!(
        said.starts_with(&format!(
            "proven: black wins with 1 threat on the longest line (first threat {first})"
        )),
        "{said}"
    );
    let drawn = page
        .js("return Array.from(document.querySelectorAll('[data-move-number=\"1\"]')).map(e => e.dataset.point)")
        .await;
    assert_eq!(drawn, json!([first]));
    page.screenshot("prove").await;
    // White's win there: not proven, and the box says what that means.
    page.js("document.getElementById('prove-side').value = 'white'")
        .await;
    page.click("#prove").await;
    let said = page
        .until(
            "the failure",
            "const b = document.getElementById('prove-result'); return b.dataset.result && b.textContent",
        )
        .await;
    let said = said.as_str().unwrap();
    assert!(
        said.starts_with(
            "not proven within the limits (threats ≤ 2, width 24); this says nothing of who wins; \
             black's "
        ) && said.contains(" is not answered within them"),
        "{said}"
    );
    page.js("document.getElementById('prove-side').value = ''")
        .await;
}

/// Send a key to the page as the board's keyboard handler receives it.
async fn key(page: &Page, key: &str) {
    page.js(&format!(
        "document.dispatchEvent(new KeyboardEvent('keydown', {{key: '{key}'}}))"
    ))
    .await;
}

/// A click in the past starts a variation and loses nothing; ↑/↓ step between variations;
/// the address holds the game, its line and the cursor, and a reload restores them with every
/// variation; Home/End go to the ends.
async fn variations(page: &Page) {
    page.new_gomoku_board().await;
    page.load("h8 h9 i9 j10").await;
    page.wait_stones(4).await;
    key(page, "ArrowLeft").await;
    page.wait_stones(3).await;
    key(page, "ArrowLeft").await;
    page.wait_stones(2).await;
    page.place("G7", 3).await;
    let counter = "return document.getElementById('counter').textContent";
    let said = page.js(counter).await;
    assert_eq!(said, json!("3/3 stones · variation 2 of 2 (↑/↓)"));
    let has = |pt: &str| {
        format!("return document.querySelectorAll('[data-stone=\"{pt}\"]').length === 1")
    };
    // The old line is still there: ↑ goes back to it, its continuation J10 kept.
    key(page, "ArrowUp").await;
    page.until("the first variation", &has("I9")).await;
    assert_eq!(
        page.js(counter).await,
        json!("3/4 stones · variation 1 of 2 (↑/↓)")
    );
    page.screenshot("variations").await;
    let hash = page.js("return location.hash").await;
    assert_eq!(hash, json!("#game=gomoku&line=H8,H9,I9,J10&at=3"));
    // A reload restores the line, the cursor and the other variation.
    page.js("location.reload()").await;
    page.until(
        "the board after a reload",
        "return document.body.dataset.readyMs",
    )
    .await;
    page.wait_stones(3).await;
    page.until("the restored line", &has("I9")).await;
    assert_eq!(
        page.js(counter).await,
        json!("3/4 stones · variation 1 of 2 (↑/↓)")
    );
    key(page, "ArrowDown").await;
    page.until("the second variation", &has("G7")).await;
    key(page, "End").await;
    page.wait_stones(3).await;
    key(page, "ArrowUp").await;
    page.until("the first variation again", &has("I9")).await;
    key(page, "End").await;
    page.wait_stones(4).await;
    // A flipped board stays flipped: in the address, and after a reload (of a Gomoku line of
    // an even number of stones: cut into whole moves of Gomoku, not of the page's first game).
    key(page, "f").await;
    page.until(
        "the flip in the address",
        "return location.hash.endsWith('&flip=1') && document.body.dataset.flipped === 'true'",
    )
    .await;
    page.js("location.reload()").await;
    page.until(
        "the board after a reload",
        "return document.body.dataset.readyMs",
    )
    .await;
    page.wait_stones(4).await;
    page.until(
        "the flipped board restored",
        "return document.body.dataset.flipped === 'true'",
    )
    .await;
    key(page, "f").await;
    page.until(
        "the board upright again",
        "return document.body.dataset.flipped === 'false' && !location.hash.includes('flip')",
    )
    .await;
    key(page, "Home").await;
    page.wait_stones(0).await;
}

/// A Gomoku puzzle diagram: the page asks who is to move, analyses it as `cpbim analyze
/// --to-move` does, and clicks extend it with the chosen side's stones first.
async fn puzzle(page: &Page) {
    page.new_gomoku_board().await;
    let puzzle = gomoku_puzzle();
    page.load(&puzzle).await;
    let said = page
        .until(
            "the question of the side to move",
            "return document.getElementById('to-move').classList.contains('wanted') && document.getElementById('message').textContent",
        )
        .await;
    assert!(said.as_str().unwrap().contains("to move"), "{said}");
    let choose = |side: &str| {
        format!("const s = document.getElementById('to-move'); s.value = '{side}'; s.dispatchEvent(new Event('change'));")
    };
    page.js(&choose("black")).await;
    page.until(
        "the puzzle, black to move",
        "return document.body.dataset.toMove === 'black' && document.body.dataset.stones === '3'",
    )
    .await;
    page.click("#analyze").await;
    page.until(
        "the puzzle's analysis",
        "return document.querySelectorAll('#analysis tr.boundary').length === 1",
    )
    .await;
    let shown = page
        .js("return Array.from(document.querySelectorAll('#analysis tr.boundary td')).map(td => td.textContent)")
        .await;
    let cli = cpbim(
        &[
            "analyze",
            "--game",
            "gomoku",
            "--to-move",
            "black",
            "--defenses",
            "--json",
            &puzzle,
        ],
        b"",
        &[],
    );
    assert_eq!(cli.code, 0, "{}", cli.stderr);
    let lines = cli.lines();
    assert_eq!(lines.len(), 1, "{}", cli.stdout);
    let b: Value = serde_json::from_str(lines[0]).unwrap();
    let res = |s: &Value| format!("{} {}", s["result"].as_str().unwrap(), s["depth"]);
    let hold = if b["defenses"]["needed"] == json!(true) {
        format!("{}/{}", b["defenses"]["holding"], b["defenses"]["pairs"])
    } else {
        "no threat".to_string()
    };
    let expected = json!([
        b["stones"].to_string(),
        b["to_move"],
        "",
        format!(
            "{}/{}",
            b["live_windows"]["black"], b["live_windows"]["white"]
        ),
        format!("{}/{}", b["thn"]["black"], b["thn"]["white"]),
        res(&b["win"]),
        res(&b["threat"]),
        hold,
        // A diagram has no move played from it.
        "",
    ]);
    assert_eq!(shown, expected);
    assert!(b.get("review").is_none(), "{b}");
    assert_eq!(b["win"]["result"], "win");
    page.screenshot("puzzle").await;
    // Clicks extend the puzzle: black's stone first, then white's.
    page.place("A1", 4).await;
    page.place("O15", 5).await;
    let colors = page
        .js("return ['A1', 'O15'].map(p => document.querySelector(`[data-stone=\"${p}\"]`).dataset.color)")
        .await;
    assert_eq!(colors, json!(["black", "white"]));
    assert_eq!(
        page.js("return document.body.dataset.toMove").await,
        json!("black")
    );
    page.click("#undo").await;
    page.wait_stones(4).await;
    // The other side: the puzzle again, and white's stone first.
    page.js(&choose("white")).await;
    page.wait_stones(3).await;
    page.until(
        "the puzzle, white to move",
        "return document.body.dataset.toMove === 'white'",
    )
    .await;
    page.place("A1", 4).await;
    let color = page
        .js("return document.querySelector('[data-stone=\"A1\"]').dataset.color")
        .await;
    assert_eq!(color, json!("white"));
    // The engine plays from a puzzle too: a hint for black, now to move.
    page.click("#hint").await;
    page.until(
        "the puzzle's hint",
        "return document.querySelectorAll('[data-hint]').length === 1",
    )
    .await;
}
