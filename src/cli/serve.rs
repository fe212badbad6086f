//! `cpbim serve`: the analysis board in the browser (docs/board.md).

use super::{limits, stopped};
use anyhow::{Context, Result};
use clap::Args;
use cpbim::server::{self, Hosts, Options};
use std::io::Write;
use std::net::IpAddr;

#[derive(Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port; the first line of output names it).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on: 127.0.0.1 (this machine only) unless told otherwise.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Seconds a job (solve, analyze, move) may run before it is stopped.
    #[arg(long, value_name = "S", default_value_t = 120.0)]
    job_time: f64,
    /// Jobs that may run at once (at least 1).
    #[arg(long, value_name = "N", default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(1..))]
    jobs: u32,
    /// Connections open at once; one more closes the oldest idle one (or waits).
    #[arg(long, value_name = "N", default_value_t = 256)]
    max_connections: usize,
    /// Answer requests for this host name or address too (repeatable; * for any). By default
    /// only localhost, 127.0.0.1, [::1] and the address a request came in on are answered.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
}

pub fn run(args: &ServeArgs) -> Result<()> {
    let options = Options {
        job_time: limits::seconds("job-time", args.job_time)?,
        max_running: args.jobs as usize,
        max_connections: limits::connections(args.max_connections)?,
        hosts: Hosts::new(&args.allow_host).map_err(super::usage_error)?,
        ..Options::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the server's threads")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((args.bind, args.port))
            .await
            .with_context(|| format!("listening on {}:{}", args.bind, args.port))?;
        let addr = listener.local_addr()?;
        let url = format!("http://{addr}/");
        let mut out = std::io::stdout();
        writeln!(out, "listening on {url}")?;
        out.flush()?;
        if args.open {
            open(&url);
        }
        // Ctrl-C (the handler of main) ends the server.
        let shutdown = async {
            while !stopped() {
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            }
        };
        server::serve(listener, options, shutdown)
            .await
            .context("serving")
    })
}

/// Open `url` in the desktop's browser; a note on stderr when that fails: the opener cannot
/// start, or it ends with a failure (no desktop, no browser).
fn open(url: &str) {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    let spawned = std::process::Command::new(program)
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let url = url.to_string();
    match spawned {
        Err(e) => eprintln!("note: could not open a browser ({program}: {e}); open {url} yourself"),
        // The opener hands the page to the browser and ends; its status says whether it could.
        Ok(mut child) => {
            std::thread::spawn(move || {
                if let Ok(status) = child.wait() {
                    if !status.success() {
                        eprintln!(
                            "note: could not open a browser ({program} ended with {status}); open {url} yourself"
                        );
                    }
                }
            });
        }
    }
}
