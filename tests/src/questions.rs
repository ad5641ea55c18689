//! A server written only with the question macros, for the behaviour tests of typed questions:
//! a form with consent and `fallback = refuse`, a form with a function fallback, a plain-data
//! form with `fallback = args`, a URL-mode payment against a fake provider, and a prompt and a
//! resource that ask.

use rondo_mcp::prelude::*;
use rondo_mcp::{Answer, Elicit, Form, Url, elicit, prompt, resource, tool};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// How the book is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Elicit)]
#[serde(rename_all = "lowercase")]
pub enum Delivery {
    /// Standard (3-5 days)
    Standard,
    /// Express (next day)
    Express,
}

/// The confirmation of an order: `approve` is consent.
#[derive(Debug, Elicit)]
pub struct Confirmation {
    /// Place the order?
    pub approve: bool,
    /// Delivery
    #[elicit(default = Delivery::Standard)]
    pub delivery: Delivery,
}

/// Asks the user to confirm an order and its price.
#[elicit(form, fallback = refuse)]
pub fn confirm(item: &str, cents: u32) -> Form<Confirmation> {
    Form::new(format!(
        "Buy {item} for ${}.{:02}?",
        cents / 100,
        cents % 100
    ))
}

/// Buys an item after the user confirms it; the price depends on the quantity, so a
/// confirmation given for one quantity never buys another.
#[tool(asks = [confirm])]
pub async fn buy(cx: &Cx, item: String, quantity: u32) -> Result<String, String> {
    let cents = 1250 * quantity;
    match cx.ask(confirm(&item, cents)).await {
        Answer::Accept(c) if c.approve => Ok(format!(
            "Bought {quantity} x {item}, {:?} delivery.",
            c.delivery
        )),
        Answer::Accept(_) => Ok("Not bought: the user said no.".into()),
        Answer::Decline => Ok("Not bought: the user declined.".into()),
        Answer::Cancel => Ok("Not bought: the question was dismissed.".into()),
    }
}

/// Who the greeting is for: plain data.
#[derive(Debug, Elicit)]
pub struct Guest {
    /// Your name
    #[elicit(min_length = 1)]
    pub name: String,
    /// Your age
    #[elicit(min = 1, max = 150)]
    pub age: Option<u32>,
}

/// Asks who is there; a client without forms passes the fields as arguments.
#[elicit(form, fallback = args)]
pub fn guest() -> Form<Guest> {
    Form::new("Who is there?")
}

/// Greets a guest.
#[tool(asks = [guest])]
pub async fn welcome(cx: &Cx, greeting: String) -> String {
    match cx.ask(guest()).await {
        Answer::Accept(g) => match g.age {
            Some(age) => format!("{greeting}, {} ({age})!", g.name),
            None => format!("{greeting}, {}!", g.name),
        },
        Answer::Decline | Answer::Cancel => format!("{greeting}, stranger!"),
    }
}

/// A nickname, asked with a fallback function.
#[derive(Debug, Elicit)]
pub struct Nickname {
    /// A nickname
    pub nickname: String,
}

/// Asks for a nickname; without forms, the fallback derives one from the name.
#[elicit(form, fallback = default_nickname)]
pub fn nickname(name: &str) -> Form<Nickname> {
    Form::new(format!("What should we call {name}?"))
}

/// The fallback: the same inputs, the same answer type.
pub fn default_nickname(name: &str) -> Answer<Nickname> {
    Answer::Accept(Nickname {
        nickname: name.chars().take(3).collect(),
    })
}

/// Nicknames someone, and asks two questions in one round.
#[tool(asks = [nickname])]
pub async fn nickname_pair(cx: &Cx, first: String, second: String) -> String {
    let (a, b) = tokio::join!(cx.ask(nickname(&first)), cx.ask(nickname(&second)));
    let show = |a: Answer<Nickname>| a.ok().map(|n| n.nickname).unwrap_or_default();
    format!("{} & {}", show(a), show(b))
}

/// A fake payment provider: an order is paid after its status was checked `after` times.
#[derive(Clone, Default)]
pub struct Payments {
    checks: Arc<Mutex<HashMap<String, u32>>>,
    after: u32,
}

impl Payments {
    /// Orders are paid once checked `after` times (`u32::MAX`: never).
    pub fn paid_after(after: u32) -> Self {
        Payments {
            after,
            ..Payments::default()
        }
    }
    /// The receipt of `order`, once paid.
    pub async fn receipt(&self, order: &str) -> Option<String> {
        let mut checks = self.checks.lock().unwrap_or_else(|p| p.into_inner());
        let n = checks.entry(order.to_owned()).or_default();
        *n += 1;
        (*n > self.after).then(|| format!("receipt-{order}"))
    }
    /// How often `order` was checked.
    pub fn checks(&self, order: &str) -> u32 {
        let checks = self.checks.lock().unwrap_or_else(|p| p.into_inner());
        checks.get(order).copied().unwrap_or(0)
    }
}

/// Sends the user to the provider's page to pay.
#[elicit(url, fallback = refuse)]
pub fn pay(order: &str) -> Url {
    Url::new(
        format!("Pay for order {order} on the provider's page"),
        format!("https://pay.example.com/orders/{order}"),
    )
}

/// The shop's checkout: payment in URL mode, completion checked with the provider.
pub struct Checkout {
    /// The provider.
    pub payments: Payments,
}

#[rondo_mcp::toolbox]
impl Checkout {
    /// Pays for an order on the provider's page.
    #[tool(asks = [pay])]
    async fn checkout(&self, cx: &Cx, order: String) -> Result<String, String> {
        match cx.ask(pay(&order)).await {
            Answer::Accept(flow) => {
                let receipt = flow.finished(cx, || self.payments.receipt(&order)).await;
                Ok(format!("Paid: {receipt}"))
            }
            _ => Err("The payment was not started.".into()),
        }
    }
}

/// A prompt that asks for a guest first.
#[prompt(asks = [nickname])]
pub async fn introduce(cx: &Cx, name: String) -> String {
    let n = cx.ask(nickname(&name)).await.ok();
    format!(
        "Introduce {name}, known as {}.",
        n.map(|n| n.nickname).unwrap_or_default()
    )
}

/// A resource that asks before it is read.
#[resource("guests://secret", mime_type = "text/plain", asks = [confirm])]
pub async fn secret(cx: &Cx) -> Result<ResourceContents, Error> {
    match cx.ask(confirm("the secret", 0)).await {
        Answer::Accept(c) if c.approve => Ok(ResourceContents::text(
            "guests://secret",
            "text/plain",
            "the secret",
        )),
        _ => Err(Error::invalid_params("not confirmed")),
    }
}

/// The server: every tool, the prompt and the resource.
pub fn server(payments: Payments) -> Server<Router> {
    let router = Router::new(ServerInfo::new("questions", "1.0.0"))
        .tools(rondo_mcp::tools![buy, welcome, nickname_pair])
        .tools(Checkout { payments })
        .prompts(rondo_mcp::prompts![introduce])
        .resources(rondo_mcp::resources![secret]);
    Server::new(router)
}
