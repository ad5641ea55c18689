//! The bookshop: a catalogue, a search tool, an order tool that asks the user to confirm, and
//! the orders placed, kept in memory.
//!
//! The order tool's decision (an order placed, or declined) is made once per call with
//! [`Cx::once`], under the call's flow id: a retry of that call sent again, on this instance or
//! on any other that shares the server's state (`--redis`), finds the decision already made and
//! answers it, and orders nothing; a declined round sent again with "accept" finds "declined".
//! (The server's replay guard refuses such a retry before the tool runs; the ledger is what
//! still holds where the guard cannot: it forgot the round, or is not shared.)

use rondo_mcp::prelude::*;
use rondo_mcp::{Elicit, Json, elicit, toolbox};
use serde::{Deserialize, Serialize};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// The most orders the shop keeps in memory; beyond it, `order_book` refuses to order.
pub const MAX_ORDERS: usize = 10_000;
/// How long the stand-in warehouse takes to take an order.
pub const WAREHOUSE: Duration = Duration::from_millis(100);

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

/// An order placed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Order {
    /// The order's number, from 1.
    pub number: usize,
    /// ISBN-13 of the book.
    pub isbn: String,
    /// Its title.
    pub title: String,
    /// How many copies.
    pub quantity: u32,
    /// `standard` or `express`.
    pub delivery: String,
    /// Whether it is gift-wrapped.
    pub gift_wrap: bool,
    /// What it costs, in cents.
    pub total_cents: u32,
}

/// The orders placed (an object, so both revisions carry it as structured content).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Orders {
    /// Oldest first.
    pub orders: Vec<Order>,
}

impl Order {
    /// What the order tool answers for it.
    fn confirmation(&self) -> String {
        let wrap = if self.gift_wrap { ", gift-wrapped" } else { "" };
        format!(
            "Ordered {} x \"{}\", {} delivery{wrap}.",
            self.quantity, self.title, self.delivery
        )
    }
}

/// The shop's state, shared by every request.
pub struct Shop {
    catalogue: Vec<Book>,
    /// The orders this instance placed.
    orders: Mutex<Vec<Order>>,
}

impl Default for Shop {
    fn default() -> Self {
        Shop::new()
    }
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
            orders: Mutex::new(Vec::new()),
        }
    }

    /// The catalogue.
    pub fn books(&self) -> &[Book] {
        &self.catalogue
    }

    fn orders(&self) -> MutexGuard<'_, Vec<Order>> {
        self.orders
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Places an order (the tool does it once per call, through [`Cx::once`]).
    fn place(
        &self,
        book: &Book,
        quantity: u32,
        confirmation: &Confirmation,
    ) -> Result<Order, String> {
        let mut orders = self.orders();
        if orders.len() >= MAX_ORDERS {
            return Err(format!(
                "The shop keeps at most {MAX_ORDERS} orders and takes no more; nothing was ordered."
            ));
        }
        let order = Order {
            number: orders.len() + 1,
            isbn: book.isbn.clone(),
            title: book.title.clone(),
            quantity,
            delivery: format!("{:?}", confirmation.delivery).to_lowercase(),
            gift_wrap: confirmation.gift_wrap,
            total_cents: book.price_cents * quantity,
        };
        orders.push(order.clone());
        Ok(order)
    }

    /// A stand-in for the warehouse's order service: it takes a moment ([`WAREHOUSE`]), then
    /// the order is placed. (An instance may die in that moment: the fleet test kills one
    /// there, and the order is never placed twice.)
    async fn send_to_warehouse(
        &self,
        book: &Book,
        quantity: u32,
        confirmation: &Confirmation,
    ) -> Result<Order, String> {
        tokio::time::sleep(WAREHOUSE).await;
        self.place(book, quantity, confirmation)
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
    #[tool(read_only_hint = true, scopes = ["books:read"])]
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
    #[tool(destructive_hint = false, asks = [confirm_order], scopes = ["orders:write"])]
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
        let answer = cx.ask(confirm_order(&book, quantity)).await;
        // The decision is made once per call, whichever instance a retry of it reaches.
        let decided = cx.once("order", async {
            Ok::<_, String>(match answer {
                Answer::Accept(c) if c.approve => self
                    .send_to_warehouse(&book, quantity, &c)
                    .await?
                    .confirmation(),
                Answer::Accept(_) | Answer::Decline => {
                    "The user declined; nothing was ordered.".to_owned()
                }
                Answer::Cancel => {
                    "The user dismissed the confirmation; nothing was ordered.".to_owned()
                }
            })
        });
        Ok(decided.await?)
    }

    /// Lists the orders placed so far, oldest first.
    #[tool(read_only_hint = true)]
    async fn list_orders(&self) -> Json<Orders> {
        let orders = self.orders().clone();
        Json(Orders { orders })
    }
}
