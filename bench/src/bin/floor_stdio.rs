//! The floor over stdin/stdout (see `rondo_bench::floor`): a hand-written tokio server, no MCP
//! framework. The reader parses each line and queues its answer; `wait` answers from a task of
//! its own after 300 ms; one writer task owns stdout and flushes when its queue is empty.

use rondo_bench::floor::{Reply, WAIT, reply};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, BufWriter};
use tokio::sync::mpsc;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let writer = tokio::spawn(async move {
        let mut out = BufWriter::with_capacity(1 << 16, tokio::io::stdout());
        while let Some(line) = rx.recv().await {
            out.write_all(line.as_bytes()).await?;
            out.write_all(b"\n").await?;
            while let Ok(line) = rx.try_recv() {
                out.write_all(line.as_bytes()).await?;
                out.write_all(b"\n").await?;
            }
            out.flush().await?;
        }
        std::io::Result::Ok(())
    });
    let mut input = BufReader::with_capacity(1 << 16, tokio::io::stdin());
    let mut line = Vec::with_capacity(4096);
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line).await? == 0 {
            break;
        }
        let msg = line.strip_suffix(b"\n").unwrap_or(&line);
        if msg.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match reply(msg) {
            Reply::None => {}
            Reply::Now(answer) => {
                let _ = tx.send(answer);
            }
            Reply::Later(answer) => {
                let tx = tx.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(WAIT).await;
                    let _ = tx.send(answer);
                });
            }
        }
    }
    // End of input: the writer ends once every answer, the sleeping ones too, is written.
    drop(tx);
    writer.await.expect("the writer task")
}
