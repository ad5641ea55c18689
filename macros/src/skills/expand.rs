//! The expansion of `skills!`: a block that embeds each file with `include_bytes!` (which also
//! makes cargo rebuild the crate when one changes), checks in `const` that each is still the
//! size the macro hashed, and builds the runtime's `Skills` from the embedded bytes and the
//! digests and frontmatter taken when the macro ran. Cannot fail.

use super::model::{Embedded, EmbeddedFile, EmbeddedSkill, Folder};
use crate::paths::{ASSERT, CONCAT, ENV, INCLUDE_BYTES, Paths, U8};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

/// The set, built from the embedded files.
pub fn expand(e: &Embedded) -> TokenStream {
    let paths = Paths::new(&e.krate);
    let consts = e
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| embed(i, f, &e.folder));
    let (skill, file) = (paths.embedded_skill(), paths.embedded_file());
    let skills = e.skills.iter().map(|s| skill_entry(s, &skill));
    let files = e
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| file_entry(i, f, &file));
    let folders = e.folders.iter().map(|f| quote!(&[#(#f),*]));
    let build = paths.embedded_skills();
    quote! {{
        #(#consts)*
        #build(&[#(#skills),*], &[#(#files),*], &[#(#folders),*])
    }}
}

/// The hidden name of the `i`th file's bytes.
fn bytes_name(i: usize) -> Ident {
    format_ident!("__RONDO_SKILL_FILE_{}", i, span = Span::mixed_site())
}

/// `const __RONDO_SKILL_FILE_i: &[u8] = include_bytes!(..);` and the check of its size.
fn embed(i: usize, file: &EmbeddedFile, folder: &Folder) -> TokenStream {
    let name = bytes_name(i);
    let rel = file.path.join("/");
    let at = match folder {
        Folder::Relative(dir) => {
            quote!(#CONCAT!(#ENV!("CARGO_MANIFEST_DIR"), "/", #dir, "/", #rel))
        }
        Folder::Absolute(dir) => quote!(#CONCAT!(#dir, "/", #rel)),
    };
    let size = usize::try_from(file.size).unwrap_or(usize::MAX);
    let changed = format!(
        "skills!: `{rel}` changed while the crate compiled (it is not the size it was hashed at); build again"
    );
    quote! {
        const #name: &[#U8] = #INCLUDE_BYTES!(#at);
        const _: () = #ASSERT!(#name.len() == #size, #changed);
    }
}

/// `EmbeddedSkill { path, frontmatter, files }`.
fn skill_entry(s: &EmbeddedSkill, ty: &impl quote::ToTokens) -> TokenStream {
    let (path, frontmatter, files) = (&s.path, &s.frontmatter, &s.files);
    quote!(#ty {
        path: &[#(#path),*],
        frontmatter: #frontmatter,
        files: &[#(#files),*],
    })
}

/// `EmbeddedFile { path, bytes, digest, mime_type }`.
fn file_entry(i: usize, f: &EmbeddedFile, ty: &impl quote::ToTokens) -> TokenStream {
    let (path, digest, mime) = (&f.path, &f.digest, &f.mime_type);
    let name = bytes_name(i);
    quote!(#ty {
        path: &[#(#path),*],
        bytes: #name,
        digest: #digest,
        mime_type: #mime,
    })
}
