//! `crate = $crate::..` on the question macros: a wrapper crate's `macro_rules!` names the
//! runtime through its own re-export (here this crate's root re-exports it as `mcp`), on
//! `#[elicit]` (form and URL), `asks = [..]`, `#[derive(Elicit)]` and the list.

pub use ::rondo_mcp as mcp;

macro_rules! wrapped_questions {
    () => {
        #[derive($crate::mcp::Elicit)]
        #[elicit(crate = $crate::mcp)]
        struct Approval {
            /// Go ahead?
            approve: bool,
        }

        /// Asks before acting.
        #[$crate::mcp::elicit(form, fallback = refuse, crate = $crate::mcp)]
        fn approve(item: &str) -> $crate::mcp::Form<Approval> {
            $crate::mcp::Form::new(format!("Go ahead with {item}?"))
        }

        /// Sends the user to pay.
        #[$crate::mcp::elicit(url, fallback = refuse, crate = $crate::mcp)]
        fn pay(order: &str) -> $crate::mcp::Url {
            $crate::mcp::Url::new("Pay", format!("https://pay.example.com/{order}"))
        }

        /// Acts after asking.
        #[$crate::mcp::tool(asks = [approve, pay], crate = $crate::mcp)]
        async fn act(cx: &$crate::mcp::Cx, item: String) -> String {
            let _ = cx.ask(pay(&item)).await;
            match cx.ask(approve(&item)).await {
                $crate::mcp::Answer::Accept(a) if a.approve => format!("done: {item}"),
                _ => "not done".into(),
            }
        }

        fn router() -> $crate::mcp::Router {
            $crate::mcp::Router::new($crate::mcp::ServerInfo::new("dollar-crate", "1.0.0"))
                .tools($crate::mcp::tools![crate = $crate::mcp; act])
        }
    };
}

wrapped_questions!();

fn main() {
    let _ = router();
}
