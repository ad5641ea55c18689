//! The test authorization server of the `auth-remote` tests: a tokio listener on
//! 127.0.0.1:0 answering from a route table (or a handler), counting each path's requests and
//! the most requests it held at once.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// One answer.
#[derive(Clone)]
pub(crate) struct Route {
    pub(crate) status: u16,
    pub(crate) body: Vec<u8>,
    pub(crate) delay: Duration,
}

/// A request as the handler sees it: the path, the head (lowercase not guaranteed), the body.
pub(crate) type Handler = dyn Fn(&str, &str, &[u8]) -> Option<Route> + Send + Sync;

/// The server; clones share it.
#[derive(Clone)]
pub(crate) struct As {
    addr: SocketAddr,
    routes: Arc<Mutex<HashMap<String, Route>>>,
    handler: Arc<Mutex<Option<Arc<Handler>>>>,
    hits: Arc<Mutex<HashMap<String, usize>>>,
    busy: Arc<AtomicUsize>,
    most_busy: Arc<AtomicUsize>,
}

impl As {
    /// Starts it on the current runtime.
    pub(crate) async fn start() -> As {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let server = As {
            addr: listener.local_addr().unwrap(),
            routes: Arc::default(),
            handler: Arc::default(),
            hits: Arc::default(),
            busy: Arc::default(),
            most_busy: Arc::default(),
        };
        let s = server.clone();
        tokio::spawn(async move {
            while let Ok((conn, _)) = listener.accept().await {
                tokio::spawn(s.clone().answer(conn));
            }
        });
        server
    }

    async fn answer(self, mut conn: tokio::net::TcpStream) {
        let mut data = Vec::new();
        let mut buf = [0u8; 4096];
        let head_end = loop {
            if let Some(i) = data.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            match conn.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => data.extend_from_slice(&buf[..n]),
            }
        };
        let head = String::from_utf8_lossy(&data[..head_end]).into_owned();
        let length = head
            .lines()
            .find_map(|l| {
                let (name, value) = l.split_once(':')?;
                name.eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse::<usize>().ok())?
            })
            .unwrap_or(0);
        while data.len() < head_end + length {
            match conn.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => data.extend_from_slice(&buf[..n]),
            }
        }
        let body = &data[head_end..head_end + length];
        let path = head.split(' ').nth(1).unwrap_or("").to_owned();
        *self.hits.lock().unwrap().entry(path.clone()).or_default() += 1;
        let handler = self.handler.lock().unwrap().clone();
        let route = handler
            .and_then(|h| h(&path, &head, body))
            .or_else(|| self.routes.lock().unwrap().get(&path).cloned())
            .unwrap_or(Route {
                status: 404,
                body: b"{}".to_vec(),
                delay: Duration::ZERO,
            });
        let now = self.busy.fetch_add(1, Ordering::SeqCst) + 1;
        self.most_busy.fetch_max(now, Ordering::SeqCst);
        tokio::time::sleep(route.delay).await;
        self.busy.fetch_sub(1, Ordering::SeqCst);
        let answer = format!(
            "HTTP/1.1 {} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\n\r\n",
            route.status,
            route.body.len()
        );
        let _ = conn.write_all(answer.as_bytes()).await;
        let _ = conn.write_all(&route.body).await;
        let _ = conn.shutdown().await;
    }

    /// `http://127.0.0.1:port{path}`.
    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
    /// Answers `path` with `status` and `body`.
    pub(crate) fn serve(&self, path: &str, status: u16, body: impl Into<Vec<u8>>) {
        self.serve_slowly(path, status, body, Duration::ZERO);
    }
    /// The same, after `delay`.
    pub(crate) fn serve_slowly(
        &self,
        path: &str,
        status: u16,
        body: impl Into<Vec<u8>>,
        delay: Duration,
    ) {
        let route = Route {
            status,
            body: body.into(),
            delay,
        };
        self.routes.lock().unwrap().insert(path.into(), route);
    }
    /// Answers with `handler` first (the route table when it returns `None`).
    pub(crate) fn handle(
        &self,
        handler: impl Fn(&str, &str, &[u8]) -> Option<Route> + Send + Sync + 'static,
    ) {
        *self.handler.lock().unwrap() = Some(Arc::new(handler));
    }
    /// How many requests `path` got.
    pub(crate) fn hits(&self, path: &str) -> usize {
        self.hits.lock().unwrap().get(path).copied().unwrap_or(0)
    }
    /// The most requests answered at once.
    pub(crate) fn most_busy(&self) -> usize {
        self.most_busy.load(Ordering::SeqCst)
    }
}
