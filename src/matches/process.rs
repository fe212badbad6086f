//! An engine as a child process: lines in, lines out, with deadlines. The child is a shell
//! command line (`sh -c`), so `cd DIR && ./engine` works; it is asked to exit and then
//! killed when dropped.

use crate::files::{self, LineRead};
use std::io::{BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The process groups of the running engines (0: a free slot), for [`kill_all`].
static GROUPS: [AtomicI32; 1024] = [const { AtomicI32::new(0) }; 1024];

/// Note a running engine's process group (a full table only loses [`kill_all`]'s help: the
/// engine is still killed when dropped).
fn enter(group: i32) {
    for slot in &GROUPS {
        if slot
            .compare_exchange(0, group, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
}

fn leave(group: i32) {
    for slot in &GROUPS {
        if slot
            .compare_exchange(group, 0, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
}

/// Kill the process group of every running engine. Async-signal-safe (atomics and
/// `kill(2)` only): a signal handler calls it before the process exits at once.
pub fn kill_all() {
    for slot in &GROUPS {
        let group = slot.load(Ordering::SeqCst);
        if group > 0 {
            kill_group(group);
        }
    }
}

/// Why an engine could not answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It exited or closed its output (or could not be started).
    Crash(String),
    /// It did not answer before the deadline.
    Time,
    /// It answered with a move that names no point of the board (the line, shortened).
    Malformed(String),
    /// The runner was asked to stop (SIGINT, SIGTERM) while it waited.
    Stopped,
}

/// How often a wait for an engine's line looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(50);

/// Is `command` one simple command for `sh` (no `;`, `&`, `|`, parentheses, redirections,
/// line breaks or backquotes outside quotes), which `exec` can run in place of the shell?
fn is_simple(command: &str) -> bool {
    let (mut single, mut double, mut escaped) = (false, false, false);
    for c in command.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if !single => escaped = true,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            ';' | '&' | '|' | '(' | ')' | '<' | '>' | '\n' | '`' if !single && !double => {
                return false
            }
            _ => {}
        }
    }
    let first = command.split_whitespace().next().unwrap_or("");
    // Not an assignment, a reserved word or a builtin that `exec` cannot run.
    let shell_words = [
        "exec", "cd", "exit", "while", "until", "for", "if", "case", "{", "!", "read", "set",
        "export", "trap", ".", "eval", "wait",
    ];
    !first.is_empty() && !first.contains('=') && !shell_words.contains(&first)
}

/// `sh -c line` in a process group of its own, so that what the shell starts dies with it.
fn shell(line: &str) -> Command {
    let mut command = Command::new("sh");
    command.arg("-c").arg(line).process_group(0);
    command
}

/// Kill the process group `group` that a child of ours leads ([`shell`]). Async-signal-safe.
fn kill_group(group: i32) {
    // SAFETY: kill(2) on a process group this process started (process_group(0)).
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The line that asks it to exit (`quit`, Gomocup's `END`).
    farewell: &'static str,
}

impl EngineProcess {
    /// Start `command` with `sh -c`; its standard error is discarded.
    pub fn spawn(command: &str) -> Result<EngineProcess, Failure> {
        Self::spawn_with(command, Stdio::null())
    }

    /// [`EngineProcess::spawn`], its standard error going to ours (a helper program whose
    /// errors the user must see, as `cpbim tune --runner`'s).
    pub fn spawn_showing_errors(command: &str) -> Result<EngineProcess, Failure> {
        Self::spawn_with(command, Stdio::inherit())
    }

    fn spawn_with(command: &str, stderr: Stdio) -> Result<EngineProcess, Failure> {
        // A single command runs in place of the shell (`exec`), so that when the engine closes
        // its output the runner sees the end of it, not a shell still holding the pipe.
        let line = if is_simple(command) {
            format!("exec {command}")
        } else {
            command.to_string()
        };
        let mut child = shell(&line)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|e| Failure::Crash(format!("cannot start `{command}`: {e}")))?;
        enter(child.id() as i32);
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                match files::read_line(&mut r, &mut buf, files::MAX_LINE) {
                    Ok(LineRead::End) | Err(_) => return,
                    // No answer is that long: passed over, as other lines that are no answer.
                    Ok(LineRead::TooLong) => {
                        if files::skip_line(&mut r).is_err() {
                            return;
                        }
                    }
                    Ok(LineRead::Line) => {
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Ok(EngineProcess {
            child,
            stdin,
            lines,
            farewell: "quit",
        })
    }

    /// Can `command` be run at all? Started and watched for `wait` with its input open and
    /// nothing asked: a shell that exits with status 127 (command not found) or 126 (not
    /// executable) says it cannot, with the shell's message; an engine that ends on its own
    /// before it is asked anything (a wrong option, a missing file) cannot play either, and
    /// is reported with its status and the first line it wrote to stderr. An engine still
    /// running passes: its games judge it.
    pub fn check_runs(command: &str, wait: Duration) -> Result<(), String> {
        let mut child = shell(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start a shell: {e}"))?;
        let end = Instant::now() + wait;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < end => std::thread::sleep(Duration::from_millis(10)),
                _ => break None,
            }
        };
        kill_group(child.id() as i32);
        let _ = child.wait();
        let Some(status) = status else {
            return Ok(());
        };
        let mut said = String::new();
        if let Some(mut err) = child.stderr.take() {
            use std::io::Read;
            let _ = err.read_to_string(&mut said);
        }
        let said: String = said
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .chars()
            .take(200)
            .collect();
        match status.code() {
            Some(code @ (126 | 127)) => Err(format!("cannot run it (exit status {code}): {said}")),
            _ => Err(format!(
                "it ended at once, before it was asked anything ({status}){}",
                if said.is_empty() {
                    String::new()
                } else {
                    format!(": {said}")
                }
            )),
        }
    }

    /// The line that asks the engine to exit, sent when it is dropped (default `quit`).
    pub fn set_farewell(&mut self, line: &'static str) {
        self.farewell = line;
    }

    /// Send one line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| Failure::Crash(format!("writing `{line}`: {e}")))
    }

    /// The first line that `wanted` accepts, before `deadline`; other lines are skipped
    /// (banners, statistics). Ends early with [`Failure::Stopped`] when `stop` is set.
    pub fn expect(
        &mut self,
        deadline: Instant,
        stop: &AtomicBool,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<String, Failure> {
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(Failure::Stopped);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left.min(STOP_POLL)) {
                Ok(line) if wanted(&line) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Time),
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.child.try_wait().ok().flatten();
                    return Err(Failure::Crash(match status {
                        Some(s) => format!("exited ({s})"),
                        None => "closed its output".to_string(),
                    }));
                }
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "{}", self.farewell);
        let _ = self.stdin.flush();
        let end = Instant::now() + Duration::from_millis(300);
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Whatever the shell started and left behind dies with the group (a group's id is not
        // reused while any of its members lives).
        let group = self.child.id() as i32;
        kill_group(group);
        let _ = self.child.kill();
        let _ = self.child.wait();
        leave(group);
    }
}

#[cfg(test)]
mod tests {
    use super::is_simple;

    #[test]
    fn single_commands_are_told_from_shell_lines() {
        assert!(is_simple("./gameEngine"));
        assert!(is_simple(r#"python3 -c "import os; os.close(1)""#));
        assert!(is_simple("engine --name 'a;b' x\\;y"));
        assert!(!is_simple("cd dir && ./engine"));
        assert!(!is_simple("while read l; do echo; done"));
        assert!(!is_simple("engine > log"));
        assert!(!is_simple("X=1 engine"));
        assert!(!is_simple("exit 3"));
        assert!(!is_simple(""));
    }
}
