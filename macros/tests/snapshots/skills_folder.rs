fn expansion() {
    let _ = {
        const __RONDO_SKILL_FILE_0: &[::core::primitive::u8] = ::core::include_bytes!(
            ::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), "/", "skills", "/",
            "pdf-forms/SKILL.md")
        );
        const _: () = ::core::assert!(
            __RONDO_SKILL_FILE_0.len() == 407usize,
            "skills!: `pdf-forms/SKILL.md` changed while the crate compiled (it is not the size it was hashed at); build again"
        );
        ::rondo_mcp::__private::embedded_skills(
            &[
                ::rondo_mcp::__private::EmbeddedSkill {
                    path: &["pdf-forms"],
                    frontmatter: "{\"description\":\"Fills in PDF forms from the user's answers. Use when the user has a PDF form to complete.\",\"license\":\"MIT OR Apache-2.0\",\"name\":\"pdf-forms\"}",
                    files: &[0usize],
                },
            ],
            &[
                ::rondo_mcp::__private::EmbeddedFile {
                    path: &["pdf-forms", "SKILL.md"],
                    bytes: __RONDO_SKILL_FILE_0,
                    digest: "sha256:2790782aa944ab87036dd16d44c149c4630ef0c5ec48992c4af6314d3fc74879",
                    mime_type: "text/markdown",
                },
            ],
            &[&["pdf-forms"]],
        )
    };
}
