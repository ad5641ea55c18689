//! `skills!("folder")`: a folder of Agent Skills, checked and embedded when the crate compiles
//! (the Skills extension, SEP-2640). The folder is read with the runtime's own rules
//! (`rondo-mcp-skill-format`): every problem is an error at the string literal (`model.rs`),
//! and the expansion embeds each file with `include_bytes!` next to the digest and size taken
//! here (`expand.rs`).

mod expand;
mod model;
mod parse;

use proc_macro2::TokenStream;

/// Expands `skills!(..)`.
pub fn expand(input: TokenStream) -> TokenStream {
    let mut acc = darling::Error::accumulator();
    let embedded = parse::parse(input, &mut acc).and_then(|args| model::model(args, &mut acc));
    let out = match (acc.finish(), embedded) {
        (Ok(()), Some(embedded)) => expand::expand(&embedded),
        (result, _) => result
            .err()
            .map(darling::Error::write_errors)
            .unwrap_or_default(),
    };
    crate::common::entry::debug("skills", &out);
    out
}
