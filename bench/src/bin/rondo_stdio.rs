//! The Rondo benchmark server (`add`, `delete_file` and `wait`) over stdin/stdout.
//!
//! `rondo_stdio [--max-in-flight N]`: with the flag, the connection runs at most N requests at
//! once instead of the default 1024 (`Server::max_in_flight`; beyond it a request is answered
//! with `-32603`). Only `bench/outside.sh` passes it, when RONDO_MAX_IN_FLIGHT is set.

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut server = rondo_bench::rondo_server::stdio_server();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let n = args.next().and_then(|v| v.parse().ok());
        match (flag.as_str(), n) {
            ("--max-in-flight", Some(n)) => server = server.max_in_flight(n),
            _ => {
                eprintln!("usage: rondo_stdio [--max-in-flight N]");
                std::process::exit(2);
            }
        }
    }
    server.serve_stdio().await
}
