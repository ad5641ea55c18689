//! The bookshop: a catalogue, a search tool, and an order tool that asks the user to confirm.

use rondo_mcp::prelude::*;
use rondo_mcp::{Elicit, Json, elicit, toolbox};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A book in the catalogue.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Book {
    /// ISBN-13.
    pub isbn: String,
    /// Title.
    pub title: String,
    /// Author.
    pub author: String,
    /// Price in cents.
    pub price_cents: u32,
}

/// The shop's state, shared by every request.
pub struct Shop {
    catalogue: Vec<Book>,
}

impl Shop {
    /// A shop with a small catalogue.
    pub fn new() -> Self {
        let book = |isbn: &str, title: &str, author: &str, price_cents| Book {
            isbn: isbn.into(),
            title: title.into(),
            author: author.into(),
            price_cents,
        };
        Shop {
            catalogue: vec![
                book(
                    "9780262510875",
                    "Structure and Interpretation of Computer Programs",
                    "Abelson & Sussman",
                    5500,
                ),
                book(
                    "9781593278281",
                    "The Rust Programming Language",
                    "Klabnik & Nichols",
                    3999,
                ),
                book(
                    "9780131103627",
                    "The C Programming Language",
                    "Kernighan & Ritchie",
                    6200,
                ),
            ],
        }
    }

    /// The catalogue.
    pub fn books(&self) -> &[Book] {
        &self.catalogue
    }

    /// A stand-in for a slow inventory service: the order tool memoises it, so a multi-round
    /// call does not repeat it and the confirmation shows the same price on every round.
    async fn check_inventory(&self, isbn: &str) -> Result<Book, String> {
        tokio::time::sleep(Duration::from_millis(100)).await;
        self.catalogue
            .iter()
            .find(|b| b.isbn == isbn)
            .cloned()
            .ok_or_else(|| format!("no book with ISBN {isbn}"))
    }
}

/// How the order is delivered.
#[derive(Debug, Clone, Copy, Elicit)]
#[serde(rename_all = "lowercase")]
pub enum Delivery {
    /// Standard (3-5 days)
    Standard,
    /// Express (next day)
    Express,
}

/// The confirmation the user fills in.
#[derive(Debug, Elicit)]
pub struct Confirmation {
    /// Place the order?
    approve: bool,
    /// Delivery
    #[elicit(default = Delivery::Standard)]
    delivery: Delivery,
    /// Gift wrap
    #[elicit(default = false, not_consent)]
    gift_wrap: bool,
}

/// The user confirms the order and its price; consent never comes from the model.
#[elicit(form, fallback = refuse)]
fn confirm_order(book: &Book, quantity: u32) -> Form<Confirmation> {
    let total = book.price_cents * quantity;
    let price = format!("${}.{:02}", total / 100, total % 100);
    Form::new(format!(
        "Order {quantity} x \"{}\" for {price}?",
        book.title
    ))
}

#[toolbox]
impl Shop {
    /// Searches the catalogue by title or author (case-insensitive).
    #[tool(read_only_hint = true)]
    async fn search_books(
        &self,
        #[arg(description = "Words from the title or author")] query: String,
    ) -> Json<Vec<Book>> {
        let q = query.to_lowercase();
        let hits = self.catalogue.iter().filter(|b| {
            b.title.to_lowercase().contains(&q) || b.author.to_lowercase().contains(&q)
        });
        Json(hits.cloned().collect())
    }

    /// Orders a book. The user confirms in a form; the model cannot confirm for them.
    #[tool(destructive_hint = false, asks = [confirm_order])]
    async fn order_book(
        &self,
        cx: &Cx,
        #[arg(description = "ISBN-13 of the book")] isbn: String,
        #[arg(description = "How many copies (1-10)")] quantity: u32,
    ) -> Result<String, String> {
        if !(1..=10).contains(&quantity) {
            return Err("quantity must be between 1 and 10".into());
        }
        let book = cx.memo("inventory", self.check_inventory(&isbn)).await?;
        Ok(match cx.ask(confirm_order(&book, quantity)).await {
            Answer::Accept(c) if c.approve => {
                let delivery = format!("{:?}", c.delivery).to_lowercase();
                let wrap = if c.gift_wrap { ", gift-wrapped" } else { "" };
                format!(
                    "Ordered {quantity} x \"{}\", {delivery} delivery{wrap}.",
                    book.title
                )
            }
            Answer::Accept(_) | Answer::Decline => "The user declined; nothing was ordered.".into(),
            Answer::Cancel => "The user dismissed the confirmation; nothing was ordered.".into(),
        })
    }
}
