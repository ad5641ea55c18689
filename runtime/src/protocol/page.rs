//! Paged lists (`tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`):
//! the typed `cursor` a client sends, and one page of items with the cursor of the next.
//!
//! A [`Cursor`] is opaque to the client. The ones [`Page::slice`] issues name the position of
//! the next page's first item and that item's name (base64url of `offset:name`); a cursor that
//! does not decode, points past the end, or names another item than the one now at its position
//! (the list changed) is `-32602`, so no cursor a client makes up reads outside the list. A list
//! that items leave while it is served (a [`Router`](crate::Router) with a
//! [`Registry`](crate::Registry)) also counts its removals, its *epoch*: its cursors carry it
//! (`epoch.offset:name`), and one issued before a removal is `-32602` too.

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

    fn at(epoch: u64, offset: usize, name: &str) -> Cursor {
        Cursor(URL_SAFE_NO_PAD.encode(match epoch {
            0 => format!("{offset}:{name}"),
            e => format!("{e}.{offset}:{name}"),
        }))
    }

    /// The offset this cursor names in a list of `epoch` whose item at each index has
    /// `name_at(i)`.
    fn offset(
        &self,
        epoch: u64,
        len: usize,
        name_at: impl Fn(usize) -> String,
    ) -> Result<usize, Error> {
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
        let (place, name) = text.split_once(':').ok_or_else(invalid)?;
        let (issued, offset) = place.split_once('.').unwrap_or(("0", place));
        let issued: u64 = issued.parse().map_err(|_| invalid())?;
        let offset: usize = offset.parse().map_err(|_| invalid())?;
        if issued != epoch || offset >= len || name_at(offset) != name {
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
        Page::slice_in(0, items, cursor, size, name)
    }

    /// [`Page::slice`] of a list that has had `epoch` removals: its cursors carry the epoch,
    /// and a cursor of another epoch is `-32602`. Items are only ever appended to such a list
    /// between removals, so a cursor of the current epoch whose item is still at its place
    /// joins the pages the client has to the rest of the list as it is now.
    pub(crate) fn slice_in(
        epoch: u64,
        items: &[T],
        cursor: Option<&Cursor>,
        size: Option<usize>,
        name: impl Fn(&T) -> &str,
    ) -> Result<Page<T>, Error> {
        let start = match cursor {
            None => 0,
            Some(c) => c.offset(epoch, items.len(), |i| name(&items[i]).to_owned())?,
        };
        let end = size.map_or(items.len(), |n| {
            start.saturating_add(n.max(1)).min(items.len())
        });
        Ok(Page {
            items: items[start..end].to_vec(),
            next_cursor: (end < items.len()).then(|| Cursor::at(epoch, end, name(&items[end]))),
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

    #[test]
    fn a_cursor_lives_within_its_epoch() {
        let items = names(5);
        let first = Page::slice_in(3, &items, None, Some(2), String::as_str).unwrap();
        let next = first.next_cursor.expect("a second page");
        // Items appended: the cursor of the same epoch reads on, to the list as it is now.
        let longer = names(7);
        let rest = Page::slice_in(3, &longer, Some(&next), None, String::as_str).unwrap();
        assert_eq!(rest.items, longer[2..]);
        // A removal moved the epoch on: refused, whatever is at its place.
        for epoch in [0, 4] {
            let stale = Page::slice_in(epoch, &longer, Some(&next), None, String::as_str);
            assert_eq!(stale.unwrap_err().code, -32602, "epoch {epoch}");
        }
        // A cursor of a list without removals is refused by one with some, and back.
        let plain = Page::slice(&items, None, Some(2), String::as_str).unwrap();
        let plain = plain.next_cursor.expect("a second page");
        assert!(Page::slice_in(1, &items, Some(&plain), None, String::as_str).is_err());
        assert!(Page::slice(&items, Some(&next), None, String::as_str).is_err());
        assert!(Page::slice(&items, Some(&plain), None, String::as_str).is_ok());
    }
}
