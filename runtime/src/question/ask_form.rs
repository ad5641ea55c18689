//! [`Form<T>`]: what an `#[elicit(form)]` function renders.

use super::{Answer, Failed, Read, Rendered};
use crate::cx::AskError;
use crate::protocol::echo;
use crate::protocol::{
    ClientCapabilities, ElicitAction, ElicitRequest, ElicitResult, InputRequest, JsonObject,
    Revision,
};
use crate::question::{Elicit, FormError};
use serde_json::Value;
use std::fmt;
use std::marker::PhantomData;

/// A form the user fills in: a message, and the fields of `T` (`#[derive(Elicit)]`).
///
/// The answer is an [`Answer<T>`]: the submitted form parsed into `T`, or the user's decline or
/// cancel. An answer that does not fit the form is asked again (2026-07-28) or ends the request
/// with a message naming the problem (2025-11-25).
pub struct Form<T> {
    message: String,
    form: PhantomData<fn() -> T>,
}

impl<T> Form<T> {
    /// A form with this message (what is asked and why).
    pub fn new(message: impl Into<String>) -> Self {
        Form {
            message: message.into(),
            form: PhantomData,
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl<T> fmt::Debug for Form<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Form")
            .field("message", &self.message)
            .finish_non_exhaustive()
    }
}

impl<T: Elicit + Send + 'static> Rendered for Form<T> {
    type Answer = Answer<T>;

    fn needs() -> ClientCapabilities {
        ClientCapabilities::with_elicitation_form()
    }

    fn consent(&self) -> bool {
        T::CONSENT
    }

    fn request(&self, revision: Revision) -> InputRequest {
        InputRequest::Elicit(ElicitRequest::Form {
            message: self.message.clone(),
            requested_schema: T::requested_schema(revision),
        })
    }

    /// Every field the arguments give a value for that the form reads without a problem
    /// (every field kind of the schema subset takes a `default`): a field the reader names in
    /// its error is left as rendered.
    fn prefilled(&self, request: InputRequest, arguments: &JsonObject) -> InputRequest {
        prefill(
            request,
            arguments,
            T::FIELDS,
            T::from_content(arguments).err(),
        )
    }

    fn read(&self, _key: &'static str, _sent: &InputRequest, answer: Value) -> Read<Answer<T>> {
        match action(answer) {
            Ok(Acted::Decline) => Read::Answer(Answer::Decline),
            Ok(Acted::Cancel) => Read::Answer(Answer::Cancel),
            Ok(Acted::Accept(content)) => match T::from_content(&content) {
                Ok(t) => Read::Answer(Answer::Accept(t)),
                // "the answer does not fit the form: `field` ...".
                Err(e) => Read::AskAgain(e.to_string()),
            },
            Err(why) => Read::AskAgain(why),
        }
    }

    fn failed(&self, key: &'static str, why: &AskError) -> Failed<Answer<T>> {
        match why {
            AskError::Unsupported(_) | AskError::NotInRevision { .. } => Failed::Fallback,
            // Nobody answered in time: the form was dismissed.
            AskError::Timeout => Failed::Answer(Answer::Cancel),
            other => Failed::End(format!("Could not ask `{key}`: {other}")),
        }
    }
}

/// What the user did with a form: the answer's `action`, and the content of an accept.
enum Acted {
    Accept(JsonObject),
    Decline,
    Cancel,
}

/// Reads an answer as an elicitation result. Not generic (nor is [`prefill`]): what does
/// not depend on the form's type is compiled once, not once per form (design §9, "Build
/// cost").
fn action(answer: Value) -> Result<Acted, String> {
    let result: ElicitResult = serde_json::from_value(answer)
        .map_err(|e| format!("the answer is not an elicitation result: {}", echo(e)))?;
    Ok(match result.action {
        ElicitAction::Decline => Acted::Decline,
        ElicitAction::Cancel => Acted::Cancel,
        ElicitAction::Accept => Acted::Accept(result.content.unwrap_or_default()),
    })
}

/// [`Form::prefilled`]: the form `request` with a `default` for each of `fields` the
/// `arguments` give a value for, unless `problems` names the field.
fn prefill(
    request: InputRequest,
    arguments: &JsonObject,
    fields: &[&str],
    problems: Option<FormError>,
) -> InputRequest {
    let InputRequest::Elicit(ElicitRequest::Form {
        message,
        mut requested_schema,
    }) = request
    else {
        return request;
    };
    let fits = |field: &str| {
        problems
            .as_ref()
            .is_none_or(|e| e.problems().iter().all(|p| p.field != field))
    };
    if let Some(Value::Object(properties)) = requested_schema.get_mut("properties") {
        for field in fields {
            let given = arguments.get(*field).filter(|v| !v.is_null());
            if let (Some(value), Some(Value::Object(schema))) = (given, properties.get_mut(*field))
                && fits(field)
            {
                schema.insert("default".into(), value.clone());
            }
        }
    }
    InputRequest::Elicit(ElicitRequest::Form {
        message,
        requested_schema,
    })
}
