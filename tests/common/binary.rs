//! Running the `cpbim` binary as a user does: arguments, bytes on standard input, and what
//! comes back.

use std::ffi::OsStr;
use std::io::Write;
use std::process::{Command, Stdio};

/// What a run of the binary gave.
pub struct Out {
    /// Exit status (-1 when ended by a signal).
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<std::process::Output> for Out {
    fn from(out: std::process::Output) -> Out {
        Out {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// `cpbim ARGS` as the tests run it: in the package's directory, progress lines off.
fn command<S: AsRef<OsStr>>(args: &[S]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cpbim"));
    cmd.args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("CPBIM_PROGRESS_SECS");
    cmd
}

impl Out {
    pub fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }

    /// Ended normally (0), with a reported error (1) or with clap refusing an argument (2):
    /// never a panic (101) or a signal.
    pub fn clean(&self) -> bool {
        (0..=2).contains(&self.code) && !self.stderr.contains("panicked")
    }
}

/// Run `cpbim ARGS` in the package's directory with `stdin` and extra environment `env`
/// (progress lines off unless `env` sets `CPBIM_PROGRESS_SECS`).
pub fn cpbim<S: AsRef<OsStr>>(args: &[S], stdin: &[u8], env: &[(&str, &str)]) -> Out {
    let mut cmd = command(args);
    cmd.envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    let data = stdin.to_vec();
    // Written from a thread: a large input must not wait on output nobody reads yet.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("the binary ends");
    writer.join().expect("the writer ends");
    Out::from(out)
}

/// A run of `cpbim ARGS` (no standard input) sent `signal` after `after`: what came back, and
/// how long the process took to end after the signal.
#[cfg(unix)]
pub fn signalled<S: AsRef<OsStr>>(
    args: &[S],
    after: std::time::Duration,
    signal: i32,
) -> (Out, std::time::Duration) {
    let child = command(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    std::thread::sleep(after);
    // SAFETY: kill(2) on our own child, not yet reaped.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let sent = std::time::Instant::now();
    let out = child.wait_with_output().expect("the binary ends");
    let took = sent.elapsed();
    (Out::from(out), took)
}

/// `cpbim ARGS` with every file it writes limited to `bytes` (RLIMIT_FSIZE, SIGXFSZ
/// ignored): a larger write fails with "File too large", as on a full disk.
#[cfg(unix)]
pub fn with_file_limit<S: AsRef<OsStr>>(args: &[S], bytes: u64) -> Out {
    use std::os::unix::process::CommandExt;
    let mut cmd = command(args);
    cmd.stdin(Stdio::null());
    // SAFETY: only async-signal-safe calls (setrlimit, signal) between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    let out = cmd.output().expect("the binary runs");
    Out::from(out)
}

/// `cpbim ARGS` (no standard input) given at most `limit`: a run still going then is sent
/// SIGINT. What came back, and whether the signal was sent.
#[cfg(unix)]
pub fn within<S: AsRef<OsStr>>(args: &[S], limit: std::time::Duration) -> (Out, bool) {
    let mut child = command(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let deadline = std::time::Instant::now() + limit;
    let mut sent = false;
    while child
        .try_wait()
        .expect("the child can be waited for")
        .is_none()
    {
        if std::time::Instant::now() >= deadline {
            // SAFETY: kill(2) on our own child, not yet reaped.
            unsafe {
                libc::kill(child.id() as i32, libc::SIGINT);
            }
            sent = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    (
        Out::from(child.wait_with_output().expect("the binary ends")),
        sent,
    )
}
