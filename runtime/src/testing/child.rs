//! A server in a child process ([`TestClient::spawn`]), and how a client ends its conversation
//! with any server ([`TestClient::close`], [`CloseError`]).

use super::wire::{Peer, Pipe};
use super::{TestClient, TestClientBuilder};
use crate::protocol::Revision;
use std::fmt;
use std::io;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;
use tokio::process::Command;
use tokio::time::{Instant, timeout_at};

/// Why a server did not end cleanly when its client [closed](TestClient::close) its input.
#[derive(Debug)]
#[non_exhaustive]
pub enum CloseError {
    /// It had not ended (exited, returned from serving, closed its output) when the client's
    /// [timeout](TestClientBuilder::timeout) ran out; a child process is killed, an in-memory
    /// server's task aborted.
    Timeout(Duration),
    /// The child process exited unsuccessfully (with a code other than 0, or by a signal).
    Exit(ExitStatus),
    /// Waiting for the child failed, or the in-memory server's `serve_io` returned an error.
    Io(io::Error),
    /// The in-memory server's task panicked.
    Panicked(tokio::task::JoinError),
}

impl fmt::Display for CloseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CloseError::Timeout(t) => write!(
                f,
                "the server did not end within {t:?} of its input closing"
            ),
            CloseError::Exit(status) => write!(f, "the server exited unsuccessfully ({status})"),
            CloseError::Io(e) => write!(f, "the server ended with an error: {e}"),
            CloseError::Panicked(e) => write!(f, "the server's task failed: {e}"),
        }
    }
}

impl std::error::Error for CloseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CloseError::Io(e) => Some(e),
            CloseError::Panicked(e) => Some(e),
            _ => None,
        }
    }
}

impl TestClient {
    /// A client of `revision` for the server `command` starts, over the child's stdin and
    /// stdout: the server binary under test, end to end. `command` is spawned at once, with its
    /// stdin and stdout piped to the client and `kill_on_drop` set (a client dropped without
    /// [`close`](TestClient::close) kills it); its stderr is left as `command` says (inherited
    /// unless set). Everything else is as for a client of an in-memory [`Server`]: the script,
    /// the rounds, the schema checks, the timeout.
    ///
    /// ```no_run
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use rondo_mcp::protocol::Revision;
    /// use rondo_mcp::testing::TestClient;
    /// // In the tests of the crate that builds it: `env!("CARGO_BIN_EXE_my-server")`.
    /// let mut server = tokio::process::Command::new("target/debug/my-server");
    /// let client = TestClient::spawn(Revision::V2025_11_25, server.arg("--stdio"))?
    ///     .echo(|frame| println!("{frame}"))
    ///     .connect()
    ///     .await?;
    /// assert!(!client.list_tools().await?.is_empty());
    /// client.close().await?; // stdin closed: the server must exit, successfully, in time
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// When the command cannot be spawned.
    ///
    /// [`Server`]: crate::Server
    pub fn spawn(revision: Revision, command: &mut Command) -> io::Result<TestClientBuilder<()>> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        let piped = || io::Error::other("the child's stdin and stdout are piped");
        let stdin = child.stdin.take().ok_or_else(piped)?;
        let stdout = child.stdout.take().ok_or_else(piped)?;
        let start = Box::new(move || Pipe {
            reader: Box::pin(stdout),
            writer: Box::pin(stdin),
            peer: Peer::Child(child),
        });
        Ok(Self::starting(start, revision))
    }

    /// Closes the server's input and waits, at most the client's
    /// [timeout](TestClientBuilder::timeout), for the server to end: a child process to exit
    /// successfully, an in-memory server to return from serving without an error, and its
    /// output to close (so the transcript is whole). A peer of [`TestClient::over_io`] ends when
    /// its output closes.
    ///
    /// A line that broke the schema fails the test here, as when the client is dropped.
    ///
    /// # Errors
    ///
    /// What did not end cleanly, [`CloseError`]; a server still running at the deadline is
    /// killed (a child) or aborted (an in-memory server's task).
    pub async fn close(mut self) -> Result<(), CloseError> {
        let deadline = Instant::now() + self.timeout;
        let late = CloseError::Timeout(self.timeout);
        self.shared.close_input().await;
        match self.peer.take() {
            Some(Peer::Child(mut child)) => match timeout_at(deadline, child.wait()).await {
                Err(_) => {
                    let _ = child.start_kill();
                    let _ = child.wait().await;
                    return Err(late);
                }
                Ok(Err(e)) => return Err(CloseError::Io(e)),
                Ok(Ok(status)) if !status.success() => return Err(CloseError::Exit(status)),
                Ok(Ok(_)) => {}
            },
            Some(Peer::Task(mut task)) => match timeout_at(deadline, &mut task).await {
                Err(_) => {
                    task.abort();
                    return Err(late);
                }
                Ok(Err(e)) => return Err(CloseError::Panicked(e)),
                Ok(Ok(Err(e))) => return Err(CloseError::Io(e)),
                Ok(Ok(Ok(()))) => {}
            },
            Some(Peer::Other) | None => {}
        }
        if let Some(reading) = self.reading.take() {
            // The reading task never panics; only its end matters.
            let _ = timeout_at(deadline, reading).await.map_err(|_| late)?;
        }
        Ok(())
    }
}
