//! The connection's one writer: every response and notification, one line each, many lines
//! per `write` under load.

use crate::protocol::Message;
use std::io;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

/// How many bytes of lines the writer gathers before it writes them.
const WRITE_BATCH: usize = 64 * 1024;

/// Writes each message as one line. Messages already waiting when a write begins go out with
/// it, one `write` for many lines under load, one per line when they come one at a time.
///
/// After the first message the writer yields once: a request task that sends its answer wakes
/// the writer into tokio's "run next" slot, which would write that one answer before the
/// other requests read from the same chunk of input have run. Yielding lets them answer first,
/// so their lines share the write.
pub(super) async fn write_lines<W: AsyncWrite + Unpin>(
    mut w: W,
    mut rx: mpsc::Receiver<Message>,
) -> io::Result<()> {
    let mut buf = Vec::with_capacity(8 * 1024);
    while let Some(msg) = rx.recv().await {
        buf.clear();
        push_line(&mut buf, &msg);
        tokio::task::yield_now().await;
        while buf.len() < WRITE_BATCH {
            match rx.try_recv() {
                Ok(msg) => push_line(&mut buf, &msg),
                Err(_) => break,
            }
        }
        w.write_all(&buf).await?;
        w.flush().await?;
    }
    w.shutdown().await.or(Ok(()))
}

/// Appends one message and its newline (a message's JSON text never holds a raw newline).
fn push_line(buf: &mut Vec<u8>, msg: &Message) {
    buf.extend_from_slice(msg.as_str().as_bytes());
    buf.push(b'\n');
}
