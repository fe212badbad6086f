//! The `Host` check. A page of another site can point its own name at 127.0.0.1 (DNS
//! rebinding) and then call the API as if it were the board; its requests still carry that
//! site's name as `Host`. So the server answers only requests whose `Host` names this server:
//! `localhost`, `127.0.0.1`, `[::1]`, the address of the socket the request came in on, and the
//! names the server was told to accept (`--allow-host`). Anything else is refused with 403.

use super::ApiError;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

/// The address of the socket a request came in on, on the server's side: the accept loop
/// ([`super::serve`]) puts it into each request's extensions.
#[derive(Clone, Copy, Debug)]
pub struct LocalAddr(pub SocketAddr);

/// A host as a `Host` header or `--allow-host` names it, without its port.
#[derive(Clone, Debug, PartialEq)]
enum Name {
    /// An address (`127.0.0.1`, `[::1]`), compared as an address.
    Ip(IpAddr),
    /// A name, in lower case.
    Dns(String),
}

impl Name {
    /// `text` as a host: `name`, `name:port`, `1.2.3.4`, `1.2.3.4:port`, `[v6]`, `[v6]:port`
    /// (and, for `--allow-host`, a bare `v6`). `None` when the port is not a number or the
    /// brackets do not close.
    fn parse(text: &str) -> Option<Name> {
        if let Ok(ip) = text.parse::<IpAddr>() {
            return Some(Name::Ip(ip.to_canonical()));
        }
        let host = if let Some(rest) = text.strip_prefix('[') {
            let (inside, after) = rest.split_once(']')?;
            check_port(after.strip_prefix(':').unwrap_or(after))?;
            return inside
                .parse::<Ipv6Addr>()
                .ok()
                .map(|ip| Name::Ip(IpAddr::V6(ip).to_canonical()));
        } else if let Some((host, port)) = text.rsplit_once(':') {
            check_port(port)?;
            host
        } else {
            text
        };
        Some(match host.parse::<IpAddr>() {
            Ok(ip) => Name::Ip(ip.to_canonical()),
            Err(_) => Name::Dns(host.to_ascii_lowercase()),
        })
    }
}

/// `Some` when `port` is empty or digits.
fn check_port(port: &str) -> Option<()> {
    port.bytes().all(|b| b.is_ascii_digit()).then_some(())
}

/// Which `Host` values the server answers.
#[derive(Clone, Debug)]
pub struct Hosts {
    names: Vec<Name>,
    any: bool,
}

impl Default for Hosts {
    /// The names of this machine alone.
    fn default() -> Hosts {
        Hosts {
            names: vec![
                Name::Dns("localhost".into()),
                Name::Ip(IpAddr::V4(Ipv4Addr::LOCALHOST)),
                Name::Ip(IpAddr::V6(Ipv6Addr::LOCALHOST)),
            ],
            any: false,
        }
    }
}

impl Hosts {
    /// The names of this machine (`localhost`, `127.0.0.1`, `[::1]`) and `extra`: names or
    /// addresses, with or without a port (a port is not compared); `*` accepts any host.
    /// An entry that is not a host is refused with its reason.
    pub fn new(extra: &[String]) -> Result<Hosts, String> {
        let Hosts { mut names, mut any } = Hosts::default();
        for text in extra {
            if text == "*" {
                any = true;
                continue;
            }
            match Name::parse(text) {
                Some(Name::Dns(n)) if n.is_empty() => {}
                Some(name) => {
                    names.push(name);
                    continue;
                }
                None => {}
            }
            return Err(format!(
                "--allow-host \"{}\": give a host name or address, with or without a port (board.lan, 192.168.1.5:8080, [fe80::1]), or * for any",
                crate::text::excerpt(text)
            ));
        }
        Ok(Hosts { names, any })
    }

    /// Does a request with `Host: host`, come in on a socket of address `local` (when known),
    /// name this server?
    pub fn allows(&self, host: &str, local: Option<IpAddr>) -> bool {
        if self.any {
            return true;
        }
        let Some(name) = Name::parse(host) else {
            return false;
        };
        self.names.contains(&name)
            || matches!((&name, local), (Name::Ip(ip), Some(l)) if *ip == l.to_canonical())
    }
}

/// The middleware: a request whose `Host` headers do not all name this server gets 403 and
/// `{"error": …}`. A request without `Host` (HTTP/1.0) passes: browsers always send one, so
/// a page cannot use that.
pub async fn check(State(hosts): State<Arc<Hosts>>, req: Request, next: Next) -> Response {
    let local = req.extensions().get::<LocalAddr>().map(|a| a.0.ip());
    let refused = req
        .headers()
        .get_all(header::HOST)
        .iter()
        .find(|v| !v.to_str().is_ok_and(|h| hosts.allows(h, local)));
    match refused {
        Some(host) => refusal(host).into_response(),
        None => next.run(req).await,
    }
}

/// 403: `host` is not a name of this server.
fn refusal(host: &HeaderValue) -> ApiError {
    let shown = crate::text::excerpt(&String::from_utf8_lossy(host.as_bytes()));
    ApiError {
        status: StatusCode::FORBIDDEN,
        message: format!(
            "Host \"{shown}\" is not a name of this server: cpbim serve answers localhost, 127.0.0.1, [::1] and the address it listens on; to answer another name, start it with --allow-host NAME"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hosts(extra: &[&str]) -> Hosts {
        Hosts::new(&extra.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn names_of_this_machine_pass_others_do_not() {
        let h = hosts(&[]);
        for ok in [
            "localhost",
            "LocalHost:8080",
            "127.0.0.1",
            "127.0.0.1:80",
            "[::1]",
            "[::1]:8080",
            "[::ffff:127.0.0.1]:1",
        ] {
            assert!(h.allows(ok, None), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
            "127.0.0.1.nip.io",
            "localhost:http",
            "[::1",
            "",
            "192.168.1.5:8080",
        ] {
            assert!(!h.allows(bad, None), "{bad}");
        }
    }

    #[test]
    fn the_local_address_and_allowed_names_pass() {
        let lan: IpAddr = "192.168.1.5".parse().unwrap();
        let h = hosts(&[]);
        assert!(h.allows("192.168.1.5:8080", Some(lan)));
        assert!(!h.allows("192.168.1.6:8080", Some(lan)));
        let mapped: IpAddr = "::ffff:192.168.1.5".parse().unwrap();
        assert!(h.allows("192.168.1.5", Some(mapped)));
        let h = hosts(&["Board.lan:9000", "10.0.0.2", "fe80::1"]);
        assert!(h.allows("board.LAN", None));
        assert!(h.allows("board.lan:8080", None));
        assert!(h.allows("10.0.0.2:8080", None));
        assert!(h.allows("[fe80::1]:8080", None));
        assert!(!h.allows("evil.example", None));
        assert!(hosts(&["*"]).allows("evil.example", None));
    }

    #[test]
    fn a_bad_allowed_host_is_refused() {
        for bad in ["", "board.lan:x", "[fe80::1", "[board.lan]"] {
            let e = Hosts::new(&[bad.to_string()]).unwrap_err();
            assert!(e.starts_with("--allow-host"), "{e}");
        }
    }
}
