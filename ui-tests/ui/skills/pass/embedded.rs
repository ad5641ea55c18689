//! `skills!` with `crate = ..`, inside `macro_rules!`, with the runtime renamed: the folder
//! embedded and served as it was checked.

use rondo_mcp as mcp;

macro_rules! embed {
    () => {
        mcp::skills!(crate = crate::mcp; "ui/skills/fixtures/good")
    };
}

fn main() {
    let skills: mcp::Skills = embed!();
    assert_eq!(skills.len(), 1);
    let hello = skills.get("skill://hello/SKILL.md").expect("the skill");
    assert_eq!(hello.frontmatter["description"], "Says hello.");
    let mcp::protocol::SkillResources::Files(files) = &hello.resources else {
        panic!("a manifest");
    };
    assert_eq!(files.len(), 2);
    assert!(files.iter().all(|f| f.digest.len() == 7 + 64));
}
