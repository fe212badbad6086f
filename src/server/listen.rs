//! The socket side of the server: the accept loop, the cap on open connections and the time
//! limits on reading a request, so that connections that send half a request and stop cannot
//! take the server's open files or keep it from answering.
//!
//! - hyper closes a connection that has not sent a whole request head within
//!   [`Options::header_time`] (also a kept-alive connection waiting for its next request);
//! - a request's body must arrive within [`Options::body_time`] (and be at most
//!   [`MAX_BODY`] bytes), else 408 (413) and the connection closes;
//! - at most [`Options::max_connections`] connections are open. A connection is *reading*
//!   while it has no request being answered (it is sending a request, or waiting between
//!   requests); one more connection than the cap closes the oldest reading connection, or,
//!   when every connection is being answered (a job's event stream, a `?wait=1`), waits
//!   until one closes or its answer ends. So idle connections never keep a new client out,
//!   and an answer being sent (an event stream) is never cut.

use super::host::LocalAddr;
use super::{ApiError, Options};
use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue, Request, Response, StatusCode};
use axum::response::IntoResponse;
use axum::Router;
use http_body::{Frame, SizeHint};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::{pin, Pin};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{oneshot, Notify};
use tower::ServiceExt;

/// The largest request body read, in bytes (axum's default limit for JSON bodies).
pub const MAX_BODY: usize = 2 << 20;

/// Serve the page and the API ([`super::router`] of `options`) on `listener` until `shutdown`
/// completes; then accept no more connections, let the requests being answered finish, and
/// return.
pub async fn serve(
    listener: TcpListener,
    options: Options,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let router = super::router(options.clone());
    let table = Arc::new(Table::new(options.max_connections));
    let graceful = GracefulShutdown::new();
    let mut shutdown = pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    pause_after(&e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let admitted = tokio::select! {
            admitted = table.admit() => admitted,
            () = &mut shutdown => break,
        };
        connect(stream, admitted, router.clone(), &options, &graceful);
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// After a failed accept: at once when only that connection failed, else (out of open files,
/// say) a short pause before trying again, rather than a busy loop.
async fn pause_after(e: &std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if !matches!(
        e.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Serve one connection on a task of its own, until it ends or is closed to make room.
fn connect(
    stream: TcpStream,
    admitted: Admitted,
    router: Router,
    options: &Options,
    graceful: &GracefulShutdown,
) {
    let Ok(local) = stream.local_addr() else {
        return;
    };
    let body_time = options.body_time;
    let slot = admitted.leave.0.clone();
    let service = hyper::service::service_fn(move |req| {
        let (router, slot) = (router.clone(), slot.clone());
        async move { Ok::<_, Infallible>(answer(router, slot, local, body_time, req).await) }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(options.header_time);
    let conn = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
    tokio::spawn(async move {
        let Admitted { leave, closed } = admitted;
        // An error of the connection is the client's (gone, too slow, not HTTP): nothing
        // to do but close it.
        tokio::select! {
            _ = conn => {}
            _ = closed => {}
        }
        drop(leave);
    });
}

/// Read the whole body of `req` (within `body_time`), then answer it with `router`; the
/// connection is busy from then until the answer has been sent.
async fn answer(
    router: Router,
    slot: Slot,
    local: SocketAddr,
    body_time: Duration,
    req: Request<Incoming>,
) -> Response<Sending> {
    let (mut parts, body) = req.into_parts();
    let body = match read_body(body, body_time).await {
        Ok(body) => body,
        Err(e) => {
            let mut resp = e.into_response();
            resp.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            return resp.map(|body| Sending { body, _busy: None });
        }
    };
    parts.extensions.insert(LocalAddr(local));
    let busy = slot.busy();
    let resp = match router
        .oneshot(Request::from_parts(parts, Body::from(body)))
        .await
    {
        Ok(resp) => resp,
        Err(never) => match never {},
    };
    resp.map(|body| Sending {
        body,
        _busy: Some(busy),
    })
}

/// The body of a request, read within `time`: 408 when it does not arrive in time, 413 when
/// it is larger than [`MAX_BODY`].
async fn read_body(body: Incoming, time: Duration) -> Result<Bytes, ApiError> {
    let read = tokio::time::timeout(time, Limited::new(body, MAX_BODY).collect()).await;
    match read {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Err(_) => Err(ApiError {
            status: StatusCode::REQUEST_TIMEOUT,
            message: format!(
                "the request's body did not arrive within {} s",
                time.as_secs_f64()
            ),
        }),
        Ok(Err(e)) if e.is::<LengthLimitError>() => Err(ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: format!("the request's body is larger than {MAX_BODY} bytes"),
        }),
        Ok(Err(e)) => Err(ApiError {
            status: StatusCode::BAD_REQUEST,
            message: format!("reading the request's body: {e}"),
        }),
    }
}

/// A response body that keeps its connection busy (not to be closed to make room) until it
/// has been sent or dropped.
struct Sending {
    body: Body,
    _busy: Option<Busy>,
}

impl http_body::Body for Sending {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The open connections, oldest first: how many requests each is answering, and the sender
/// whose drop closes it.
struct Table {
    max: usize,
    open: Mutex<Open>,
    /// Told when a connection closes or its answer ends: room may have been made.
    freed: Notify,
}

#[derive(Default)]
struct Open {
    next: u64,
    conns: BTreeMap<u64, Conn>,
}

struct Conn {
    answering: usize,
    _close: oneshot::Sender<()>,
}

/// A connection's place in the [`Table`].
#[derive(Clone)]
struct Slot {
    table: Arc<Table>,
    id: u64,
}

/// Room for one connection: its place, and what tells it to close.
struct Admitted {
    leave: Leave,
    closed: oneshot::Receiver<()>,
}

/// Leaves the table when dropped (the connection has ended).
struct Leave(Slot);

/// Marks its connection as answering a request while it lives.
struct Busy(Slot);

impl Table {
    fn new(max: usize) -> Table {
        Table {
            max: max.max(1),
            open: Mutex::new(Open::default()),
            freed: Notify::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Room for a new connection: at once while below the cap, else by closing the oldest
    /// connection that answers nothing, else once a connection closes or its answer ends.
    async fn admit(self: &Arc<Self>) -> Admitted {
        loop {
            if let Some(admitted) = self.try_admit() {
                return admitted;
            }
            self.freed.notified().await;
        }
    }

    fn try_admit(self: &Arc<Self>) -> Option<Admitted> {
        let mut open = self.lock();
        if open.conns.len() >= self.max {
            let (&oldest, _) = open.conns.iter().find(|(_, c)| c.answering == 0)?;
            // Dropping its sender closes that connection.
            open.conns.remove(&oldest);
        }
        let id = open.next;
        open.next += 1;
        let (close, closed) = oneshot::channel();
        open.conns.insert(
            id,
            Conn {
                answering: 0,
                _close: close,
            },
        );
        let slot = Slot {
            table: Arc::clone(self),
            id,
        };
        Some(Admitted {
            leave: Leave(slot),
            closed,
        })
    }
}

impl Slot {
    fn busy(&self) -> Busy {
        if let Some(conn) = self.table.lock().conns.get_mut(&self.id) {
            conn.answering += 1;
        }
        Busy(self.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let table = &self.0.table;
        if let Some(conn) = table.lock().conns.get_mut(&self.0.id) {
            conn.answering -= 1;
        }
        table.freed.notify_one();
    }
}

impl Drop for Leave {
    fn drop(&mut self) {
        let table = &self.0.table;
        table.lock().conns.remove(&self.0.id);
        table.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_oldest_reading_connection_makes_room() {
        let table = Arc::new(Table::new(2));
        let mut first = table.admit().await;
        let second = table.admit().await;
        let busy = second.leave.0.busy();
        // Full: the third closes the first (reading), not the second (answering).
        let third = table.admit().await;
        assert!(
            matches!(
                first.closed.try_recv(),
                Err(oneshot::error::TryRecvError::Closed)
            ),
            "the first is told to close"
        );
        assert_eq!(table.lock().conns.len(), 2);
        // Full again, and both answering: a fourth waits until an answer ends.
        let _busy3 = third.leave.0.busy();
        let waiting = tokio::spawn({
            let table = Arc::clone(&table);
            async move { table.admit().await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "admitted beyond the cap");
        drop(busy);
        let fourth = tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("admitted once an answer ended")
            .unwrap();
        assert_eq!(fourth.leave.0.id, 3);
        let ids: Vec<u64> = table.lock().conns.keys().copied().collect();
        assert_eq!(ids, [2, 3], "the second, idle again, made room");
        drop(second);
    }
}
