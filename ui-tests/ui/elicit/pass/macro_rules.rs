//! A question and the tool that asks it, both defined inside `macro_rules!`, the question's name
//! and the form passed in as fragments.

use rondo_mcp::prelude::*;
use rondo_mcp::{Answer, Elicit, Form, elicit, tool};

#[derive(Elicit)]
struct Approval {
    /// Go ahead?
    approve: bool,
}

macro_rules! confirming_tool {
    ($question:ident, $form:ty, $tool:ident) => {
        /// Asks before acting.
        #[elicit(form, fallback = refuse)]
        fn $question(item: &str) -> Form<$form> {
            Form::new(format!("Go ahead with {item}?"))
        }

        /// Acts after asking.
        #[tool(asks = [$question])]
        async fn $tool(cx: &Cx, item: String) -> String {
            match cx.ask($question(&item)).await {
                Answer::Accept(a) if a.approve => format!("done: {item}"),
                _ => "not done".into(),
            }
        }
    };
}

confirming_tool!(confirm_delete, Approval, delete);

fn main() {
    let _ = rondo_mcp::tools![delete];
}
