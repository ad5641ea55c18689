//! Newline-delimited framing with a maximum line length, for stdio. Like `tokio_util`'s
//! `LinesCodec` (a `\n` ends a line, a `\r` before it is dropped), with two differences: a bad
//! line is an item, not the end of the stream (after a decoder error `FramedRead` yields `None`
//! once, which would read as end of input, and then waits for new bytes before decoding lines
//! it already buffered), and a line over the limit hands back the bytes already read of it, so
//! the caller can find whose answer it was (`protocol::head_of`): `LinesCodec` drops them.

use std::io;
use tokio_util::bytes::{Buf, BytesMut};
use tokio_util::codec::Decoder;

/// Why a line is not a message.
#[derive(Debug)]
pub(crate) enum BadLine {
    /// Longer than the limit: its first `limit` bytes (the rest is skipped up to its `\n`).
    TooLong(BytesMut),
}

/// The decoder.
#[derive(Debug)]
pub(crate) struct Lines {
    max: usize,
    /// How far the buffer was searched for `\n` already.
    searched: usize,
    /// Skipping the rest of a line over the limit.
    skipping: bool,
}

impl Lines {
    /// Lines of at most `max` bytes (without the `\n`).
    pub(crate) fn new(max: usize) -> Lines {
        Lines {
            max,
            searched: 0,
            skipping: false,
        }
    }

    /// Skips the rest of a line over the limit: `true` once its `\n` was passed.
    fn skip(&mut self, buf: &mut BytesMut) -> bool {
        match memchr::memchr(b'\n', buf) {
            Some(end) => {
                buf.advance(end + 1);
                self.skipping = false;
                true
            }
            None => {
                buf.clear();
                false
            }
        }
    }

    /// A line of `buf` (its `\n` at `end`), without its end. It shares `buf`'s memory (no copy,
    /// no allocation per line); the reader checks that it is UTF-8 where it reads it as text.
    fn take_line(&mut self, buf: &mut BytesMut, end: usize) -> BytesMut {
        let mut line = buf.split_to(end + 1);
        line.truncate(end);
        if line.last() == Some(&b'\r') {
            line.truncate(line.len() - 1);
        }
        self.searched = 0;
        line
    }
}

impl Decoder for Lines {
    type Item = Result<BytesMut, BadLine>;
    type Error = io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> io::Result<Option<Self::Item>> {
        if self.skipping && !self.skip(buf) {
            return Ok(None);
        }
        // A line may be `max` bytes plus its `\n` (and a `\r` before it).
        let window = buf.len().min(self.max.saturating_add(2));
        let newline = memchr::memchr(b'\n', &buf[self.searched..window]);
        let too_long = match newline {
            Some(at) => {
                let end = self.searched + at;
                let length = end - usize::from(end > 0 && buf[end - 1] == b'\r');
                if length <= self.max {
                    return Ok(Some(Ok(self.take_line(buf, end))));
                }
                true
            }
            None => buf.len() > self.max.saturating_add(1),
        };
        if !too_long {
            self.searched = window;
            return Ok(None);
        }
        // The bytes of the line read so far, up to the limit; the rest is skipped.
        let head = buf.split_to(self.max);
        self.searched = 0;
        self.skipping = true;
        self.skip(buf);
        Ok(Some(Err(BadLine::TooLong(head))))
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> io::Result<Option<Self::Item>> {
        if let Some(item) = self.decode(buf)? {
            return Ok(Some(item));
        }
        if buf.is_empty() || self.skipping {
            buf.clear();
            return Ok(None);
        }
        // The last line, without its `\n`.
        buf.extend_from_slice(b"\n");
        self.decode(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(max: usize, input: &[u8]) -> Vec<Result<String, usize>> {
        let mut out = Vec::new();
        // Fed a byte at a time and all at once, the items are the same.
        for chunk in [1, input.len().max(1)] {
            let mut codec = Lines::new(max);
            let mut buf = BytesMut::new();
            let mut items = Vec::new();
            for piece in input.chunks(chunk) {
                buf.extend_from_slice(piece);
                while let Some(item) = codec.decode(&mut buf).unwrap() {
                    items.push(item);
                }
            }
            while let Some(item) = codec.decode_eof(&mut buf).unwrap() {
                items.push(item);
            }
            let items: Vec<Result<String, usize>> = items
                .into_iter()
                .map(|i| match i {
                    Ok(line) => std::str::from_utf8(&line).map(str::to_owned).map_err(|_| 0),
                    Err(BadLine::TooLong(head)) => Err(head.len()),
                })
                .collect();
            if out.is_empty() {
                out = items;
            } else {
                assert_eq!(out, items, "chunked by {chunk}");
            }
        }
        out
    }

    #[test]
    fn lines_and_lines_over_the_limit() {
        assert_eq!(all(4, b"ab\ncd\r\n"), [Ok("ab".into()), Ok("cd".into())]);
        assert_eq!(
            all(4, b"abcd\nabcd\r\nx"),
            [Ok("abcd".into()), Ok("abcd".into()), Ok("x".into())]
        );
        assert_eq!(all(4, b"abcde\nok\n"), [Err(4), Ok("ok".into())]);
        assert_eq!(all(4, b"abcdefghij\nok\n"), [Err(4), Ok("ok".into())]);
        assert_eq!(all(4, b"abcdefghij"), [Err(4)]);
        assert_eq!(all(4, b"\xff\nok\n"), [Err(0), Ok("ok".into())]);
    }
}
