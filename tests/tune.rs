//! `cpbim tune` through the binary: runs at a fixed depth are the same run every time, a run
//! whose log lost games resumes to the same history, a signal stops it promptly with every
//! finished game kept, and bad SPECs are refused with the key named.

mod common;

use common::binary::cpbim;
use std::path::{Path, PathBuf};
use std::time::Duration;

const SPEC: &str = r#"{"own[5]": {"min": 20, "max": 120, "step": 6},
  "opponent[5]": {"min": 0, "max": 60, "step": 3},
  "attack[7]": {"min": 100, "max": 260, "step": 8}}"#;

fn spec_file(dir: &Path) -> String {
    let path = dir.join("spec.json");
    std::fs::write(&path, SPEC).unwrap();
    path.display().to_string()
}

/// A tune of 4 iterations of 2 games at depth 1 (deterministic) into `state`.
fn depth_one_run(dir: &Path, state: &Path, extra: &[&str]) -> common::binary::Out {
    let spec = spec_file(dir);
    let state = state.display().to_string();
    let mut args = vec![
        "tune",
        "--params",
        &spec,
        "--state",
        &state,
        "--depth",
        "1",
        "--iterations",
        "4",
        "--r-end",
        "0.2",
        "--seed",
        "5",
    ];
    args.extend_from_slice(extra);
    cpbim(&args, b"", &[])
}

fn read(path: PathBuf) -> String {
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_fixed_depth_tune_is_the_same_run_twice_and_its_history_follows_its_games() {
    let dir = common::scratch("tune-twice");
    let (a, b) = (dir.join("a"), dir.join("b"));
    let o = depth_one_run(&dir, &a, &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("best.json"), "{}", o.stdout);
    let o = depth_one_run(&dir, &b, &["--concurrency", "2"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    for file in ["games.csv", "history.csv", "best.json"] {
        let (x, y) = (read(a.join(file)), read(b.join(file)));
        // The games' order in the log may differ with two at once; their set may not.
        let sorted = |t: &str| {
            let mut v: Vec<String> = t.lines().map(String::from).collect();
            v.sort();
            v
        };
        assert_eq!(sorted(&x), sorted(&y), "{file}");
    }
    let games = read(a.join("games.csv"));
    assert_eq!(games.lines().count(), 1 + 4 * 2, "{games}");
    // Each history row's score is the mean of its round's logged scores.
    let history = read(a.join("history.csv"));
    for (r, row) in history.lines().skip(1).enumerate() {
        let score: f64 = row.split(',').nth(1).unwrap().parse().unwrap();
        let logged: Vec<f64> = games
            .lines()
            .skip(1)
            .filter(|l| l.starts_with(&format!("{},", r + 1)))
            .map(|l| l.split(',').nth(6).unwrap().parse().unwrap())
            .collect();
        assert_eq!(logged.len(), 2);
        assert!(
            (score - logged.iter().sum::<f64>() / 2.0).abs() < 1e-9,
            "{row}"
        );
    }
    // best.json is a parameter file the engine takes, with the last row's values.
    let best = read(a.join("best.json"));
    let p = cpbim::engine::Params::from_json(&best).expect("a parameter file");
    let last: Vec<f64> = history
        .lines()
        .last()
        .unwrap()
        .split(',')
        .skip(5)
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(
        [p.own[5], p.opponent[5], p.attack[7]].map(f64::from),
        [last[0].round(), last[1].round(), last[2].round()]
    );
}

#[test]
fn a_log_that_lost_games_resumes_to_the_same_history() {
    let dir = common::scratch("tune-resume");
    let whole = dir.join("whole");
    assert_eq!(depth_one_run(&dir, &whole, &[]).code, 0);
    // A copy that stopped after 3 games, with half a line written, and no outputs yet.
    let cut = dir.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::copy(whole.join("tune.json"), cut.join("tune.json")).unwrap();
    let games = read(whole.join("games.csv"));
    let kept: Vec<&str> = games.lines().take(4).collect();
    std::fs::write(cut.join("games.csv"), kept.join("\n") + "\n3,1,0,1,0").unwrap();
    let o = cpbim(
        &["tune", "--state", &cut.display().to_string(), "--resume"],
        b"",
        &[],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    // Only the missing games were played: rounds 2 (its second game), 3 and 4.
    assert_eq!(o.stderr.matches("round ").count(), 3, "{}", o.stderr);
    for file in ["history.csv", "best.json"] {
        assert_eq!(read(whole.join(file)), read(cut.join(file)), "{file}");
    }
    let resumed = read(cut.join("games.csv"));
    assert!(resumed.starts_with(&(kept.join("\n") + "\n")), "{resumed}");
    assert_eq!(resumed.lines().count(), games.lines().count(), "{resumed}");
}

/// `cpbim tune --params SPEC --state STATE --tc 0.05 --iterations N EXTRA…` sent SIGINT `after`
/// its start: it ends within 2 s with status 130 and says how to resume.
#[cfg(target_os = "linux")]
fn interrupted(spec: &str, state: &str, iterations: &str, extra: &[&str], after: Duration) {
    let mut args = vec![
        "tune",
        "--params",
        spec,
        "--state",
        state,
        "--tc",
        "0.05",
        "--iterations",
        iterations,
    ];
    args.extend_from_slice(extra);
    let (o, took) = common::binary::signalled(&args, after, libc::SIGINT);
    assert_eq!(o.code, 130, "{}", o.stderr);
    assert!(took.as_secs_f64() < 2.0, "took {took:?}");
    assert!(o.stderr.contains("--resume"), "{}", o.stderr);
}

#[cfg(target_os = "linux")]
#[test]
fn a_signal_stops_a_tune_at_once_and_resume_finishes_it() {
    let dir = common::scratch("tune-signal");
    let spec = spec_file(&dir);
    let state = dir.join("state").display().to_string();
    interrupted(
        &spec,
        &state,
        "8",
        &["--concurrency", "2"],
        Duration::from_secs(2),
    );
    let before = read(dir.join("state/games.csv"));
    assert!(before.ends_with('\n'));
    assert!(before.lines().count() < 1 + 16, "{before}");
    // Every game logged once, the old ones kept.
    let o = cpbim(
        &["tune", "--state", &state, "--resume", "--concurrency", "2"],
        b"",
        &[],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let after = read(dir.join("state/games.csv"));
    assert!(after.starts_with(&before));
    let mut ids: Vec<(u32, u32)> = after
        .lines()
        .skip(1)
        .map(|l| {
            let mut f = l.split(',').map(|x| x.parse::<u32>().unwrap());
            (f.next().unwrap(), f.next().unwrap())
        })
        .collect();
    ids.sort();
    let expected: Vec<(u32, u32)> = (1..=8).flat_map(|r| [(r, 1), (r, 2)]).collect();
    assert_eq!(ids, expected);
    assert_eq!(read(dir.join("state/history.csv")).lines().count(), 9);
}

#[test]
fn bad_specs_and_states_are_refused_with_what_is_wrong() {
    let dir = common::scratch("tune-refused");
    let state = dir.join("s").display().to_string();
    let spec = dir.join("bad.json");
    for (text, says) in [
        (r#"{"own[12]": {"min": 0, "max": 9, "step": 1}}"#, "own[12]"),
        (r#"{"own[5]": {"min": 0, "max": 9, "step": 1}}"#, "outside"),
        (r#"{"width": {"min": 1, "max": 30, "step": 1}}"#, "bounds"),
        ("{", "--params"),
    ] {
        std::fs::write(&spec, text).unwrap();
        let o = cpbim(
            &[
                "tune",
                "--params",
                &spec.display().to_string(),
                "--state",
                &state,
                "--depth",
                "1",
            ],
            b"",
            &[],
        );
        assert!(
            o.code != 0 && o.stderr.contains(says),
            "{text}: {}",
            o.stderr
        );
        assert!(!Path::new(&state).join("tune.json").exists());
    }
    let good = spec_file(&dir);
    for (extra, says) in [
        (&["--games-per-step", "3"][..], "--games-per-step"),
        (&["--iterations", "0"][..], "--iterations"),
        (&["--r-end", "0"][..], "--r-end"),
    ] {
        let mut args = vec!["tune", "--params", &good, "--state", &state, "--depth", "1"];
        args.extend_from_slice(extra);
        let o = cpbim(&args, b"", &[]);
        assert!(
            o.code == 2 && o.stderr.contains(says),
            "{extra:?}: {}",
            o.stderr
        );
    }
    // --resume needs a run; a new run needs a directory without one.
    let o = cpbim(&["tune", "--state", &state, "--resume"], b"", &[]);
    assert!(
        o.code == 1 && o.stderr.contains("holds no run"),
        "{}",
        o.stderr
    );
    let o = cpbim(
        &[
            "tune",
            "--params",
            &good,
            "--state",
            &state,
            "--depth",
            "1",
            "--iterations",
            "1",
        ],
        b"",
        &[],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let o = cpbim(&["tune", "--params", &good, "--state", &state], b"", &[]);
    assert!(o.code == 2 && o.stderr.contains("--resume"), "{}", o.stderr);
    let o = cpbim(
        &["tune", "--state", &state, "--resume", "--depth", "2"],
        b"",
        &[],
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
}

/// `cpbim tune --method METHOD --params SPEC --state STATE --depth 1 --iterations 3 ARGS…`.
fn method_run(method: &str, spec: &str, state: &Path, args: &[&str]) -> common::binary::Out {
    let state = state.display().to_string();
    let mut all = vec![
        "tune",
        "--method",
        method,
        "--params",
        spec,
        "--state",
        &state,
        "--depth",
        "1",
        "--iterations",
        "3",
    ];
    all.extend_from_slice(args);
    cpbim(&all, b"", &[])
}

/// The run in `whole` with its game log cut to the first `games` games resumes to the same
/// history and best set.
fn cut_run_resumes_to_the_same_history(dir: &Path, whole: &Path, games: usize) {
    let cut = dir.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::copy(whole.join("tune.json"), cut.join("tune.json")).unwrap();
    let log = read(whole.join("games.csv"));
    let kept: Vec<&str> = log.lines().take(1 + games).collect();
    std::fs::write(cut.join("games.csv"), kept.join("\n") + "\n").unwrap();
    let o = cpbim(
        &["tune", "--state", &cut.display().to_string(), "--resume"],
        b"",
        &[],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        read(whole.join("history.csv")),
        read(cut.join("history.csv"))
    );
    assert_eq!(read(whole.join("best.json")), read(cut.join("best.json")));
}

/// The two sides of every logged game of round `r`.
fn sides_of_round(log: &str, r: u32) -> Vec<(u32, u32)> {
    log.lines()
        .skip(1)
        .filter(|l| l.starts_with(&format!("{r},")))
        .map(|l| {
            let f: Vec<u32> = l
                .split(',')
                .skip(2)
                .take(2)
                .map(|x| x.parse().unwrap())
                .collect();
            (f[0], f[1])
        })
        .collect()
}

#[test]
fn a_ga_run_is_the_same_run_twice_and_resumes_to_the_same_history() {
    let dir = common::scratch("tune-ga");
    let spec = spec_file(&dir);
    let args = ["--population", "4", "--groups", "2", "--seed", "9"];
    let (a, b) = (dir.join("a"), dir.join("b"));
    assert_eq!(method_run("ga", &spec, &a, &args).code, 0);
    let concurrent = [&args[..], &["--concurrency", "2"]].concat();
    assert_eq!(method_run("ga", &spec, &b, &concurrent).code, 0);
    let games = read(a.join("games.csv"));
    // Two groups of 2: one pair each, both colours: 4 games a generation.
    assert_eq!(games.lines().count(), 1 + 3 * 4, "{games}");
    let sorted = |t: String| {
        let mut v: Vec<String> = t.lines().map(String::from).collect();
        v.sort();
        v
    };
    assert_eq!(sorted(games.clone()), sorted(read(b.join("games.csv"))));
    assert_eq!(read(a.join("history.csv")), read(b.join("history.csv")));
    // Each generation's games stay inside its two groups: two pairs, four candidates.
    for r in 1..=3 {
        let pairs: std::collections::BTreeSet<(u32, u32)> = sides_of_round(&games, r)
            .into_iter()
            .map(|(x, y)| (x.min(y), x.max(y)))
            .collect();
        assert_eq!(pairs.len(), 2, "{pairs:?}");
        let sides: std::collections::BTreeSet<u32> =
            pairs.iter().flat_map(|&(x, y)| [x, y]).collect();
        assert_eq!(sides.len(), 4, "{pairs:?}");
    }
    // Cut after the first generation and a half.
    cut_run_resumes_to_the_same_history(&dir, &a, 6);
}

#[test]
fn a_pso_run_is_the_same_run_twice_and_resumes_to_the_same_history() {
    let dir = common::scratch("tune-pso");
    let spec = spec_file(&dir);
    let args = ["--population", "2", "--seed", "11"];
    let (a, b) = (dir.join("a"), dir.join("b"));
    let o = method_run("pso", &spec, &a, &args);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("pso of 3 parameters"), "{}", o.stderr);
    let concurrent = [&args[..], &["--concurrency", "2"]].concat();
    assert_eq!(method_run("pso", &spec, &b, &concurrent).code, 0);
    assert_eq!(read(a.join("history.csv")), read(b.join("history.csv")));
    // Each particle's position plays its pBest (candidates 0–1 against 2–3); a changed pBest
    // plays gBest (candidate 4).
    let games = read(a.join("games.csv"));
    for r in 1..=3 {
        for (x, y) in sides_of_round(&games, r) {
            assert!(y == x + 2 || (y == 4 && (2..4).contains(&x)), "{x} {y}");
        }
    }
    cut_run_resumes_to_the_same_history(&dir, &a, 5);
}

#[test]
fn a_round_robin_of_a_runs_rounds_scores_every_player_and_replays() {
    let dir = common::scratch("tune-robin");
    let state = dir.join("run");
    assert_eq!(depth_one_run(&dir, &state, &[]).code, 0);
    let s = state.display().to_string();
    let robin = |extra: &[&str]| {
        let mut args = vec![
            "tune",
            "--state",
            &s,
            "--round-robin",
            "1,4",
            "--random",
            "1",
        ];
        args.extend_from_slice(extra);
        cpbim(&args, b"", &[])
    };
    let o = robin(&[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let scores = read(state.join("round-robin/scores.csv"));
    let rows: Vec<(String, f64)> = scores
        .lines()
        .skip(1)
        .map(|l| {
            let (name, p) = l.split_once(',').unwrap();
            (name.to_string(), p.parse().unwrap())
        })
        .collect();
    let names: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(names, ["round 1", "round 4", "random 1"]);
    // Three pairs with both colours: 6 games, ±1 each, and the points sum to zero.
    assert_eq!(
        read(state.join("round-robin/games.csv")).lines().count(),
        1 + 6
    );
    assert_eq!(rows.iter().map(|r| r.1).sum::<f64>(), 0.0);
    assert!(rows.iter().all(|r| r.1.abs() <= 4.0));
    assert!(read(state.join("round-robin/scores.svg")).starts_with("<svg"));
    for (name, p) in &rows {
        assert!(o.stdout.contains(&format!("{name}  {p:+}")), "{}", o.stdout);
    }
    // Again: every game is in the log, nothing is played, the same scores.
    let again = robin(&[]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(!again.stderr.contains("game 1/6"), "{}", again.stderr);
    assert_eq!(read(state.join("round-robin/scores.csv")), scores);
    // Refused: a round the run does not have, and run options beside it.
    let o = cpbim(&["tune", "--state", &s, "--round-robin", "5"], b"", &[]);
    assert!(o.code == 2 && o.stderr.contains("4 rounds"), "{}", o.stderr);
    let o = cpbim(
        &["tune", "--state", &s, "--round-robin", "1", "--depth", "2"],
        b"",
        &[],
    );
    assert_eq!(o.code, 2, "{}", o.stderr);
}

/// Copies the files of `from` (not its subdirectories) into a fresh `to`.
fn copy_state(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
}

#[cfg(unix)]
#[test]
fn mutated_specs_settings_logs_and_histories_are_refused_or_run_never_crash() {
    use common::mutate::{mutate, Rng};
    let dir = common::scratch("tune-fuzz");
    let whole = dir.join("whole");
    assert_eq!(depth_one_run(&dir, &whole, &[]).code, 0);
    let limit = std::time::Duration::from_secs(20);
    let check = |what: &str, i: usize, args: &[&str]| {
        let (o, stopped) = common::binary::within(args, limit);
        // A mutation can make a valid run longer than the limit: then the signal ends it (130).
        assert!(
            o.clean() || (stopped && o.code == 130),
            "{what} {i}: {} {}",
            o.code,
            o.stderr
        );
    };
    let mut rng = Rng(20261127);
    let spec = dir.join("spec.json");
    for i in 0..30 {
        std::fs::write(&spec, mutate(SPEC.as_bytes(), &[SPEC.into()], &mut rng)).unwrap();
        let state = dir.join("new");
        let _ = std::fs::remove_dir_all(&state);
        let (spec, state) = (spec.display().to_string(), state.display().to_string());
        let args = ["tune", "--params", &spec, "--state", &state, "--depth", "1"];
        check("spec", i, &[&args[..], &["--iterations", "1"]].concat());
    }
    // A log that still reads replays its missing games (seconds each): fewer of those.
    for (file, n) in [("tune.json", 30), ("games.csv", 10), ("history.csv", 15)] {
        let text = read(whole.join(file));
        for i in 0..n {
            let state = dir.join("mutated");
            copy_state(&whole, &state);
            std::fs::write(
                state.join(file),
                mutate(text.as_bytes(), &[text.clone().into()], &mut rng),
            )
            .unwrap();
            let state = state.display().to_string();
            let args: &[&str] = if file == "history.csv" {
                &[
                    "tune",
                    "--state",
                    &state,
                    "--round-robin",
                    "2,4",
                    "--random",
                    "0",
                ]
            } else {
                &["tune", "--state", &state, "--resume"]
            };
            check(file, i, args);
        }
    }
}

#[test]
fn fixed_opponents_play_every_candidate_in_the_same_colours_and_every_game_is_recorded() {
    let dir = common::scratch("tune-opponents");
    let state = dir.join("state");
    let records = dir.join("sgf");
    let opponent = format!(
        "'{}' engine --protocol cloudict --depth 1",
        env!("CARGO_BIN_EXE_cpbim")
    );
    let records_arg = records.display().to_string();
    let extra = [
        "--iterations",
        "2",
        "--opponent",
        &opponent,
        "--records",
        &records_arg,
    ];
    let spec = spec_file(&dir);
    let state_arg = state.display().to_string();
    let mut args = vec![
        "tune", "--params", &spec, "--state", &state_arg, "--depth", "1",
    ];
    args.extend_from_slice(&extra);
    let o = cpbim(&args, b"", &[]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    // Each of SPSA's 2 games (θ+ = side 0 against θ− = side 1) is played again by each side
    // against the opponent (side 2), in the colour it had: blocks of 3.
    let log = read(state.join("games.csv"));
    let rows: Vec<Vec<u32>> = log
        .lines()
        .skip(1)
        .map(|l| l.split(',').take(6).map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 2 * 2 * 3, "{log}");
    let mut sorted = rows.clone();
    sorted.sort();
    for block in sorted.chunks(3) {
        // round, game, side0, side1, black, opening
        let (direct, a, b) = (&block[0], &block[1], &block[2]);
        assert_eq!((direct[2], direct[3]), (0, 1), "{log}");
        assert_eq!((a[2], a[3], b[2], b[3]), (0, 2, 1, 2), "{log}");
        assert_eq!(a[4], direct[4], "{log}");
        assert_eq!(b[4], 1 - direct[4], "{log}");
        assert!(direct[5] == a[5] && a[5] == b[5], "{log}");
    }
    let sgf: Vec<_> = std::fs::read_dir(&records).unwrap().collect();
    assert_eq!(sgf.len(), rows.len());
    let one = read(records.join("r0001-g001.sgf"));
    assert!(one.starts_with("(;") && one.contains("GM["), "{one}");
    // An opponent that cannot start is named before any game.
    let other = dir.join("other").display().to_string();
    let o = cpbim(
        &[
            "tune",
            "--params",
            &spec,
            "--state",
            &other,
            "--depth",
            "1",
            "--opponent",
            "/nonexistent/engine",
        ],
        b"",
        &[],
    );
    assert!(
        o.code == 1 && o.stderr.contains("--opponent /nonexistent/engine"),
        "{}",
        o.stderr
    );
    // Nothing of that run is kept: the same directory takes the corrected command.
    assert!(!Path::new(&other).join("tune.json").exists());
}

/// `--runner`: a signal stops the tuner while it waits for the runner's answers, at once, with
/// the state kept for `--resume`, and the runner (here one that never answers) is killed with
/// its process group rather than left behind.
#[cfg(target_os = "linux")]
#[test]
fn a_signal_stops_a_tune_waiting_for_its_runner_and_kills_the_runner() {
    let dir = common::scratch("tune-runner-signal");
    let spec = spec_file(&dir);
    let state = dir.join("state").display().to_string();
    let pid_file = dir.join("runner.pid");
    let runner = format!("echo $$ > {}; exec sleep 600", pid_file.display());
    interrupted(
        &spec,
        &state,
        "4",
        &["--runner", &runner],
        Duration::from_millis(1500),
    );
    // Nothing was answered, nothing logged but the header; the state resumes.
    assert_eq!(read(dir.join("state/games.csv")).lines().count(), 1);
    let pid: i32 = read(pid_file).trim().parse().unwrap();
    let gone = (0..50).any(|_| {
        // SAFETY: kill(2) with signal 0 only asks whether the process exists.
        let alive = unsafe { libc::kill(pid, 0) } == 0;
        std::thread::sleep(std::time::Duration::from_millis(20));
        !alive
    });
    assert!(gone, "the runner {pid} is still running");
}
