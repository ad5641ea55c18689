//! The bookshop: a catalogue, a search tool, and an order tool that asks the user to confirm.

use rondo_mcp::prelude::*;
use rondo_mcp::protocol::{ElicitAction, ElicitRequest};
use rondo_mcp::{Json, toolbox};
use serde::{Deserialize, Serialize};
use serde_json::json;
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

/// The form the user fills in to confirm an order.
fn confirmation(book: &Book, quantity: u32) -> ElicitRequest {
    let total = book.price_cents * quantity;
    let schema = json!({
        "type": "object",
        "properties": {
            "approve": {"type": "boolean", "title": "Place the order?"},
            "delivery": {"type": "string", "title": "Delivery", "oneOf": [
                {"const": "standard", "title": "Standard (3-5 days)"},
                {"const": "express", "title": "Express (next day)"}
            ], "default": "standard"},
            "gift_wrap": {"type": "boolean", "title": "Gift wrap", "default": false}
        },
        "required": ["approve"]
    });
    ElicitRequest::Form {
        message: format!(
            "Order {quantity} x \"{}\" for ${}.{:02}?",
            book.title,
            total / 100,
            total % 100
        ),
        requested_schema: schema.as_object().cloned().unwrap_or_default(),
    }
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
    #[tool(destructive_hint = false)]
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
        let answer = match cx
            .elicit("confirm_order", confirmation(&book, quantity))
            .await
        {
            Ok(answer) => answer,
            Err(why) => {
                return Err(format!(
                    "The order needs the user's confirmation, but {why}."
                ));
            }
        };
        let content = answer.content.unwrap_or_default();
        match answer.action {
            ElicitAction::Accept if content.get("approve") == Some(&json!(true)) => {
                let delivery = content
                    .get("delivery")
                    .and_then(|v| v.as_str())
                    .unwrap_or("standard");
                let wrap = if content.get("gift_wrap") == Some(&json!(true)) {
                    ", gift-wrapped"
                } else {
                    ""
                };
                Ok(format!(
                    "Ordered {quantity} x \"{}\", {delivery} delivery{wrap}.",
                    book.title
                ))
            }
            ElicitAction::Accept => {
                Ok("The user did not approve the order; nothing was ordered.".into())
            }
            ElicitAction::Decline => Ok("The user declined; nothing was ordered.".into()),
            ElicitAction::Cancel => {
                Ok("The user dismissed the confirmation; nothing was ordered.".into())
            }
        }
    }
}
