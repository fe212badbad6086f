//! An engine as a child process: lines in, lines out, with deadlines. The child is a shell
//! command line (`sh -c`), so `cd DIR && ./engine` works; it is asked to exit and then
//! killed when dropped.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Instant;

/// Why an engine could not answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It exited or closed its output (or could not be started).
    Crash(String),
    /// It did not answer before the deadline.
    Time,
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
        use std::os::unix::process::CommandExt;
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            // Its own process group, so that what the shell starts dies with it.
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Failure::Crash(format!("cannot start `{command}`: {e}")))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        if tx
                            .send(line.trim_end_matches(['\n', '\r']).to_string())
                            .is_err()
                        {
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
    /// (banners, statistics).
    pub fn expect(
        &mut self,
        deadline: Instant,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<String, Failure> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if wanted(&line) => return Ok(line),
                Ok(_) => {}
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
        let end = Instant::now() + std::time::Duration::from_millis(300);
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        // SAFETY: kill(2) on the child's process group, which it leads (process_group(0)).
        unsafe {
            libc::kill(-(self.child.id() as i32), libc::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
