//! The client's end of the in-memory pipe: sending, the transcript, routing what the server
//! sends (responses to pending requests, back-channel requests answered from the script).

use super::{Direction, Frame, Reply, Script};
use crate::protocol::{self, Error, Inbound, RequestId};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, WriteHalf};
use tokio::sync::oneshot;

pub(super) struct Shared {
    pub(super) writer: tokio::sync::Mutex<WriteHalf<DuplexStream>>,
    pub(super) transcript: Mutex<Vec<Frame>>,
    pub(super) pending: Mutex<HashMap<RequestId, oneshot::Sender<Result<Value, Error>>>>,
    pub(super) script: Mutex<Script>,
}

impl Shared {
    pub(super) async fn send(&self, msg: Value) {
        self.transcript
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(Frame {
                direction: Direction::Sent,
                message: msg.clone(),
            });
        let mut line = msg.to_string().into_bytes();
        line.push(b'\n');
        let mut w = self.writer.lock().await;
        let _ = w.write_all(&line).await;
        let _ = w.flush().await;
    }
    pub(super) fn take_reply(&self, method: &str, key: Option<&str>) -> Option<Reply> {
        self.script
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take(method, key)
    }
}

pub(super) async fn read_loop(
    mut r: BufReader<tokio::io::ReadHalf<DuplexStream>>,
    shared: Arc<Shared>,
) {
    let mut line = String::new();
    loop {
        line.clear();
        match r.read_line(&mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let Ok(msg) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        shared
            .transcript
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(Frame {
                direction: Direction::Received,
                message: msg.clone(),
            });
        match Inbound::from_value(msg) {
            Ok(Inbound::Response { id, outcome }) => {
                if let Some(tx) = shared
                    .pending
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .remove(&id)
                {
                    let _ = tx.send(outcome);
                }
            }
            Ok(Inbound::Request(req)) => {
                let reply = shared
                    .take_reply(req.method.as_str(), None)
                    .and_then(|r| r.to_value());
                let shared = shared.clone();
                tokio::spawn(async move {
                    match reply {
                        Some(Ok(v)) => shared.send(protocol::response(&req.id, v)).await,
                        Some(Err(e)) => {
                            shared
                                .send(protocol::error_response(Some(&req.id), &e))
                                .await
                        }
                        None => {}
                    }
                });
            }
            Err(rej) => {
                let id = rej.id;
                if let Some(tx) = id.and_then(|id| {
                    shared
                        .pending
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .remove(&id)
                }) {
                    let _ = tx.send(Err(rej.error));
                }
            }
            Ok(Inbound::Notification { .. }) => {}
        }
    }
    for (_, tx) in shared
        .pending
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .drain()
    {
        let _ = tx.send(Err(Error::internal("server closed the connection")));
    }
}
