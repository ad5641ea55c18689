//! One recorded line of a conversation ([`Frame`]), and its short form for a reader.

use serde_json::Value;
use std::fmt;

/// How many characters of a message [`Frame`]'s `Display` shows when no precision is given.
const SHORT: usize = 200;

/// Which way a message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Client to server.
    Sent,
    /// Server to client.
    Received,
}

/// One recorded line.
///
/// Its `Display` is the message for a reader, on one line: who sent it, then the message with
/// the `_meta` of its `params` or `result` shown as `"…"` (2026-07-28 puts the client's
/// capabilities and info in every request), cut after 200 characters, or after as many as a
/// precision says (`{frame:.80}`). The exact text is [`Frame::line`].
///
/// ```
/// use rondo_mcp::testing::{Direction, Frame};
/// let line = r#"{"id":1,"jsonrpc":"2.0","method":"tools/list","params":{"_meta":{"a":1}}}"#;
/// let frame = Frame {
///     direction: Direction::Sent,
///     message: serde_json::from_str(line).unwrap(),
///     line: line.to_owned(),
/// };
/// assert_eq!(
///     frame.to_string(),
///     r#"client -> {"id":1,"jsonrpc":"2.0","method":"tools/list","params":{"_meta":"…"}}"#
/// );
/// assert_eq!(format!("{frame:.12}"), r#"client -> {"id":1,"jso…"#);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// Which way it went.
    pub direction: Direction,
    /// The message; `Value::Null` when the line is not JSON.
    pub message: Value,
    /// The line as it went over the wire, without its newline.
    pub line: String,
}

impl fmt::Display for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = match self.direction {
            Direction::Sent => "client",
            Direction::Received => "server",
        };
        let text = match &self.message {
            Value::Null => self.line.clone(),
            message => {
                let mut message = message.clone();
                for part in ["params", "result"] {
                    if let Some(meta) = message
                        .get_mut(part)
                        .and_then(Value::as_object_mut)
                        .and_then(|o| o.get_mut("_meta"))
                    {
                        *meta = Value::from("…");
                    }
                }
                message.to_string()
            }
        };
        let max = f.precision().unwrap_or(SHORT);
        write!(f, "{who} -> ")?;
        if text.chars().count() > max {
            let cut: String = text.chars().take(max).collect();
            write!(f, "{cut}…")
        } else {
            f.write_str(&text)
        }
    }
}
