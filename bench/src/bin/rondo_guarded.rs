//! The Rondo benchmark server with its replay guard on, in memory or on Redis:
//! `rondo_guarded 127.0.0.1:PORT [redis://HOST:PORT/DB]` serves `delete_file` (one question;
//! the final round is taken once through the guard) and `delete_once` (the same, the deletion
//! done through `Cx::once`: the effect ledger too) at `http://127.0.0.1:PORT/mcp` until
//! SIGTERM. With a Redis URL, `Server::shared_state(Redis::connect(url))`: the guard, the
//! ledger and the task store on that Redis, as a fleet runs; without, the defaults (this
//! process's memory). The key ring is random, given as a fleet's would be.

use rondo_bench::rondo_server::{confirm_delete, router};
use rondo_mcp::prelude::*;
use rondo_mcp::shared::Redis;
use rondo_mcp::state::KeyRing;
use rondo_mcp::{tool, tools};

/// Deletes a file after the user confirms, once per call (nothing is deleted: a benchmark).
#[tool(destructive_hint = true, asks = [confirm_delete])]
async fn delete_once(cx: &Cx, path: String) -> Result<String, String> {
    let answer = cx.ask(confirm_delete(&path)).await;
    let done = cx.once("delete", async {
        Ok::<_, String>(match answer {
            Answer::Accept(d) if d.confirm => format!("deleted {path}"),
            _ => format!("kept {path}"),
        })
    });
    Ok(done.await?)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:3000".into());
    let keys = KeyRing::parse(&KeyRing::generate_spec(1))?;
    let mut server = Server::new(router().tools(tools![delete_once])).state_keys(keys);
    if let Some(url) = args.next() {
        server = server.shared_state(Redis::connect(&url).await?);
    }
    rondo_mcp::http::serve(server, addr, rondo_mcp::http::shutdown_signal()).await?;
    Ok(())
}
