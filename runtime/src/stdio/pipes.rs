//! This process's stdin and stdout as the reactor's own file descriptors.
//!
//! `tokio::io::stdin()` and `stdout()` do every read and every write on tokio's blocking thread
//! pool: a request costs a hop to a pool thread and a wake-up back for its line, and again for
//! its answer. When stdin or stdout is a pipe or a Unix socket (what an MCP client spawning a
//! server gives it: a pipe from Python and most hosts, a socket pair from Node.js), it is put in
//! non-blocking mode and registered with the reactor instead, so lines are read and written on
//! the worker that serves them. A terminal or a regular file (or any other platform) keeps
//! tokio's blocking streams. Blocking mode is restored when serving ends (design §23).
//!
//! stdout is left blocking when stderr is the same pipe (`2>&1`): non-blocking mode belongs to
//! the pipe, so a log line written to a full stderr would fail instead of waiting.

use std::io;
use std::pin::Pin;

/// A stream the stdio transport reads lines from.
pub(crate) type Input = Pin<Box<dyn tokio::io::AsyncRead + Send>>;
/// A stream the stdio transport writes lines to.
pub(crate) type Output = Pin<Box<dyn tokio::io::AsyncWrite + Send>>;

/// This process's stdin and stdout, and what to undo when serving ends.
pub(crate) fn open() -> io::Result<(Input, Output, Restore)> {
    imp::open()
}

/// Puts the descriptors made non-blocking by [`open`] back in blocking mode, for whatever runs
/// in this process (or inherits its descriptors) after serving.
#[derive(Debug, Default)]
pub(crate) struct Restore(#[cfg_attr(not(unix), allow(dead_code))] Vec<imp::Undo>);

impl Restore {
    /// Restores blocking mode; a failure is logged, never fatal (serving has ended).
    pub(crate) fn run(self) {
        for undo in self.0 {
            if let Err(e) = imp::undo(undo) {
                tracing::debug!(error = %e, "could not restore blocking mode on a stdio descriptor");
            }
        }
    }
}

#[cfg(unix)]
mod imp {
    use super::{Input, Output, Restore};
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    use tokio::net::unix::pipe;

    /// A descriptor to put back in blocking mode (a duplicate of stdin's or stdout's).
    #[derive(Debug)]
    pub(crate) enum Undo {
        PipeIn(OwnedFd),
        PipeOut(OwnedFd),
        Socket(OwnedFd),
    }

    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Kind {
        Pipe,
        Socket,
        Other,
    }

    fn kind(fd: BorrowedFd<'_>) -> io::Result<(Kind, (u64, u64))> {
        let meta = File::from(fd.try_clone_to_owned()?).metadata()?;
        let ft = meta.file_type();
        let kind = if ft.is_fifo() {
            Kind::Pipe
        } else if ft.is_socket() {
            Kind::Socket
        } else {
            Kind::Other
        };
        Ok((kind, (meta.dev(), meta.ino())))
    }

    pub(super) fn open() -> io::Result<(Input, Output, Restore)> {
        let mut restore = Restore::default();
        let stdin = io::stdin();
        let stdout = io::stdout();
        let (in_kind, _) = kind(stdin.as_fd())?;
        let (mut out_kind, out_id) = kind(stdout.as_fd())?;
        let err_id = kind(io::stderr().as_fd()).map(|(_, id)| id).ok();
        if err_id == Some(out_id) {
            out_kind = Kind::Other;
        }
        let input: Input = match in_kind {
            Kind::Pipe => {
                let fd = stdin.as_fd().try_clone_to_owned()?;
                restore.0.push(Undo::PipeIn(fd.try_clone()?));
                Box::pin(pipe::Receiver::from_owned_fd(fd)?)
            }
            Kind::Socket => {
                let fd = stdin.as_fd().try_clone_to_owned()?;
                restore.0.push(Undo::Socket(fd.try_clone()?));
                Box::pin(socket(fd)?)
            }
            Kind::Other => Box::pin(tokio::io::stdin()),
        };
        let output: Output = match out_kind {
            Kind::Pipe => {
                let fd = stdout.as_fd().try_clone_to_owned()?;
                restore.0.push(Undo::PipeOut(fd.try_clone()?));
                Box::pin(pipe::Sender::from_owned_fd(fd)?)
            }
            Kind::Socket => {
                let fd = stdout.as_fd().try_clone_to_owned()?;
                restore.0.push(Undo::Socket(fd.try_clone()?));
                Box::pin(socket(fd)?)
            }
            Kind::Other => Box::pin(tokio::io::stdout()),
        };
        Ok((input, output, restore))
    }

    /// A stream socket as a tokio stream: reads and writes are all the transport does with it,
    /// which any stream socket (Unix or TCP) supports.
    fn socket(fd: OwnedFd) -> io::Result<tokio::net::UnixStream> {
        let std = std::os::unix::net::UnixStream::from(fd);
        std.set_nonblocking(true)?;
        tokio::net::UnixStream::from_std(std)
    }

    pub(super) fn undo(undo: Undo) -> io::Result<()> {
        match undo {
            // `into_blocking_fd` clears non-blocking mode (the unchecked constructor leaves the
            // mode as it is).
            Undo::PipeIn(fd) => pipe::Receiver::from_owned_fd_unchecked(fd)?
                .into_blocking_fd()
                .map(drop),
            Undo::PipeOut(fd) => pipe::Sender::from_owned_fd_unchecked(fd)?
                .into_blocking_fd()
                .map(drop),
            Undo::Socket(fd) => std::os::unix::net::UnixStream::from(fd).set_nonblocking(false),
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use super::{Input, Output, Restore};
    use std::io;

    #[derive(Debug)]
    pub(crate) enum Undo {}

    pub(super) fn open() -> io::Result<(Input, Output, Restore)> {
        Ok((
            Box::pin(tokio::io::stdin()),
            Box::pin(tokio::io::stdout()),
            Restore::default(),
        ))
    }

    pub(super) fn undo(undo: Undo) -> io::Result<()> {
        match undo {}
    }
}
