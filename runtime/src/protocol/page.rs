//! Paged lists (`tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`):
//! the typed `cursor` a client sends, and one page of items with the cursor of the next.
//!
//! A [`Cursor`] is opaque to the client. The ones [`Page::slice`] issues name the position of
//! the next page's first item and that item's name (base64url of `offset:name`); a cursor that
//! does not decode, points past the end, or names another item than the one now at its position
//! (the list changed) is `-32602`, so no cursor a client makes up reads outside the list.

use super::Error;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};

/// The longest cursor a server reads; anything longer is refused before it is decoded.
const MAX_CURSOR: usize = 1024;

/// An opaque position in a paged list, as the server issued it in `nextCursor`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Cursor(String);

impl Cursor {
    /// A cursor with this text (a hand-written handler's own encoding).
    pub fn new(text: impl Into<String>) -> Cursor {
        Cursor(text.into())
    }

    /// The cursor's text, as sent on the wire.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The `cursor` param of a list request: absent (or `null`) is the first page; anything but
    /// a string is `-32602`.
    /// A cursor as a client sent it (whether it names a place in a list is checked when used).
    pub(crate) fn from_wire(cursor: String) -> Cursor {
        Cursor(cursor)
    }

    fn at(offset: usize, name: &str) -> Cursor {
        Cursor(URL_SAFE_NO_PAD.encode(format!("{offset}:{name}")))
    }

    /// The offset this cursor names in a list whose item at each index has `name_at(i)`.
    fn offset(&self, len: usize, name_at: impl Fn(usize) -> String) -> Result<usize, Error> {
        let invalid = || {
            Error::invalid_params(
                "Invalid cursor: it was not issued for this list, or the list has changed; list again from the start",
            )
        };
        if self.0.len() > MAX_CURSOR {
            return Err(invalid());
        }
        let text = URL_SAFE_NO_PAD.decode(&self.0).map_err(|_| invalid())?;
        let text = String::from_utf8(text).map_err(|_| invalid())?;
        let (offset, name) = text.split_once(':').ok_or_else(invalid)?;
        let offset: usize = offset.parse().map_err(|_| invalid())?;
        if offset >= len || name_at(offset) != name {
            return Err(invalid());
        }
        Ok(offset)
    }
}

/// One page of a list, and the cursor of the next page when there is one.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    /// The items of this page, in the list's order.
    pub items: Vec<T>,
    /// Where the next page starts; `None` on the last page.
    pub next_cursor: Option<Cursor>,
}

impl<T> From<Vec<T>> for Page<T> {
    /// The whole list on one page.
    fn from(items: Vec<T>) -> Self {
        Page {
            items,
            next_cursor: None,
        }
    }
}

impl<T> FromIterator<T> for Page<T> {
    /// The whole list on one page.
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Page::from(iter.into_iter().collect::<Vec<T>>())
    }
}

impl<T: Clone> Page<T> {
    /// The page of `items` that starts at `cursor` (the first page without one) and holds at
    /// most `size` items (`None`: all the rest), each item named by `name` (what a cursor
    /// carries to notice a changed list). `-32602` for a cursor this function did not issue for
    /// this list.
    pub fn slice(
        items: &[T],
        cursor: Option<&Cursor>,
        size: Option<usize>,
        name: impl Fn(&T) -> &str,
    ) -> Result<Page<T>, Error> {
        let start = match cursor {
            None => 0,
            Some(c) => c.offset(items.len(), |i| name(&items[i]).to_owned())?,
        };
        let end = size.map_or(items.len(), |n| {
            start.saturating_add(n.max(1)).min(items.len())
        });
        Ok(Page {
            items: items[start..end].to_vec(),
            next_cursor: (end < items.len()).then(|| Cursor::at(end, name(&items[end]))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("t{i}")).collect()
    }

    fn walk(items: &[String], size: Option<usize>) -> Vec<Vec<String>> {
        let mut pages = Vec::new();
        let mut cursor = None;
        loop {
            let page = Page::slice(items, cursor.as_ref(), size, String::as_str).unwrap();
            pages.push(page.items);
            match page.next_cursor {
                Some(c) => cursor = Some(c),
                None => return pages,
            }
        }
    }

    #[test]
    fn pages_cover_the_list_once_in_order() {
        let items = names(7);
        assert_eq!(walk(&items, None), vec![items.clone()]);
        let pages = walk(&items, Some(3));
        assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [3, 3, 1]);
        assert_eq!(pages.concat(), items);
        assert_eq!(walk(&items, Some(7)).len(), 1);
        assert_eq!(walk(&[], Some(3)), vec![Vec::<String>::new()]);
    }

    #[test]
    fn forged_or_stale_cursors_are_refused() {
        let items = names(5);
        let bad = |c: Cursor| Page::slice(&items, Some(&c), Some(2), String::as_str).unwrap_err();
        for c in [
            Cursor::new("not base64!"),
            Cursor::new(URL_SAFE_NO_PAD.encode("5:t5")),
            Cursor::new(URL_SAFE_NO_PAD.encode("99999999999999999999:t1")),
            Cursor::new(URL_SAFE_NO_PAD.encode("-1:t1")),
            Cursor::new(URL_SAFE_NO_PAD.encode("2:t3")),
            Cursor::new(URL_SAFE_NO_PAD.encode("2")),
            Cursor::new("A".repeat(MAX_CURSOR + 4)),
        ] {
            assert_eq!(bad(c).code, -32602);
        }
        // A cursor issued before the list changed names an item no longer at its place.
        let first = Page::slice(&items, None, Some(2), String::as_str).unwrap();
        let shorter = names(5)[1..].to_vec();
        let stale = Page::slice(
            &shorter,
            first.next_cursor.as_ref(),
            Some(2),
            String::as_str,
        );
        assert_eq!(stale.unwrap_err().code, -32602);
    }
}
