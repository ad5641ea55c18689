//! A small HTTP/1.1 client on the runtime's own HTTP stack (hyper), for plain `http://` URLs:
//! the demo and the tests use it to pay on the payment page, the flight search to reach an HTTP
//! model provider. One connection per request; every request is bounded in time and size.

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::{Method, Request};
use hyper_util::rt::TokioIo;
use std::time::Duration;
use tokio::net::TcpStream;

/// A request gets this long, connection included.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// `GET url`: the status and the body (at most `limit` bytes).
pub async fn get(url: &str, limit: u64) -> Result<(u16, String), String> {
    send(Method::GET, url, &[], None, limit).await
}

/// `GET url` with these headers: the status and the body (at most `limit` bytes).
pub async fn get_with(
    url: &str,
    headers: &[(&str, &str)],
    limit: u64,
) -> Result<(u16, String), String> {
    send(Method::GET, url, headers, None, limit).await
}

/// `POST url` with a JSON body: the status and the body (at most `limit` bytes).
pub async fn post_json(url: &str, body: &str, limit: u64) -> Result<(u16, String), String> {
    let json = [("content-type", "application/json")];
    post(url, &json, body, limit).await
}

/// `POST url` with these headers and body: the status and the body (at most `limit` bytes).
pub async fn post(
    url: &str,
    headers: &[(&str, &str)],
    body: &str,
    limit: u64,
) -> Result<(u16, String), String> {
    send(Method::POST, url, headers, Some(body.to_owned()), limit).await
}

async fn send(
    method: Method,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<String>,
    limit: u64,
) -> Result<(u16, String), String> {
    let exchange = async {
        let uri: hyper::Uri = url.parse().map_err(|e| format!("not a URL: {e}"))?;
        if uri.scheme_str() != Some("http") {
            return Err("only http:// URLs".to_owned());
        }
        let host = uri.host().ok_or("no host")?.to_owned();
        let port = uri.port_u16().unwrap_or(80);
        let stream = TcpStream::connect((host.as_str(), port))
            .await
            .map_err(|e| e.to_string())?;
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| e.to_string())?;
        tokio::spawn(conn);
        let path = uri.path_and_query().map_or("/", |p| p.as_str()).to_owned();
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header("host", format!("{host}:{port}"));
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        let req = req
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|e| e.to_string())?;
        let res = sender.send_request(req).await.map_err(|e| e.to_string())?;
        let status = res.status().as_u16();
        let bytes = Limited::new(res.into_body(), limit as usize)
            .collect()
            .await
            .map_err(|e| e.to_string())?
            .to_bytes();
        Ok((status, String::from_utf8_lossy(&bytes).into_owned()))
    };
    tokio::time::timeout(REQUEST_TIMEOUT, exchange)
        .await
        .map_err(|_| format!("no answer within {} s", REQUEST_TIMEOUT.as_secs()))?
}
