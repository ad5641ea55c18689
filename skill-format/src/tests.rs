//! [`load`] over real folders: what a good folder becomes, and every folder rule.

use super::*;
use std::os::unix::fs::symlink;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A folder under the system's temporary folder, removed when dropped.
struct Tree(PathBuf);

impl Tree {
    fn new() -> Tree {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("rondo-skill-format-{}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Tree(dir)
    }
    fn file(&self, path: &str, text: &str) -> &Self {
        let at = self.0.join(path);
        fs::create_dir_all(at.parent().unwrap()).unwrap();
        fs::write(at, text).unwrap();
        self
    }
    fn skill(&self, path: &str) -> &Self {
        let name = path.rsplit('/').next().unwrap();
        let md = format!("---\nname: {name}\ndescription: The {name} skill.\n---\n# {name}\n");
        self.file(&format!("{path}/SKILL.md"), &md)
    }
    fn link(&self, path: &str, target: &Path) -> &Self {
        let at = self.0.join(path);
        fs::create_dir_all(at.parent().unwrap()).unwrap();
        symlink(target, at).unwrap();
        self
    }
    /// A file of `size` bytes that takes no room (its bytes are never read when it is too big).
    fn sparse(&self, path: &str, size: u64) -> &Self {
        let at = self.0.join(path);
        fs::create_dir_all(at.parent().unwrap()).unwrap();
        fs::File::create(at).unwrap().set_len(size).unwrap();
        self
    }
    fn load(&self) -> Result<Bundle, Vec<Problem>> {
        load(&self.0, &Limits::default())
    }
    /// The problems, as `path: message`.
    fn problems(&self) -> Vec<String> {
        match self.load() {
            Ok(b) => panic!("loaded {b:#?}"),
            Err(ps) => ps.iter().map(|p| format!("{}: {p}", p.path)).collect(),
        }
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_folder_of_skills_becomes_a_bundle() {
    let t = Tree::new();
    t.skill("pdf")
        .file("pdf/references/FORMS.md", "# Forms\n")
        .file("pdf/scripts/fill.py", "print(1)\n")
        .file("pdf/.hidden", "left out")
        .file("pdf/data.bin", "\u{0}\u{1}")
        .skill("acme/billing/refunds")
        .file("acme/billing/refunds/examples/email.md", "Dear customer,\n");
    fs::create_dir_all(t.0.join("pdf/empty")).unwrap();
    let b = t.load().unwrap();
    let skills: Vec<_> = b.skills.iter().map(|s| s.path.join("/")).collect();
    assert_eq!(skills, ["acme/billing/refunds", "pdf"]);
    let files: Vec<_> = b.files.iter().map(|f| f.path.join("/")).collect();
    assert_eq!(
        files,
        [
            "acme/billing/refunds/SKILL.md",
            "acme/billing/refunds/examples/email.md",
            "pdf/SKILL.md",
            "pdf/data.bin",
            "pdf/references/FORMS.md",
            "pdf/scripts/fill.py"
        ]
    );
    let folders: Vec<_> = b.folders.iter().map(|f| f.join("/")).collect();
    assert_eq!(
        folders,
        [
            "acme",
            "acme/billing",
            "acme/billing/refunds",
            "acme/billing/refunds/examples",
            "pdf",
            "pdf/empty",
            "pdf/references",
            "pdf/scripts"
        ]
    );
    let pdf = &b.skills[1];
    let own: Vec<_> = pdf
        .files
        .iter()
        .map(|&i| b.files[i].path.join("/"))
        .collect();
    assert_eq!(own[0], "pdf/SKILL.md", "a skill's SKILL.md comes first");
    assert_eq!(own.len(), 4);
    let md = &b.files[2];
    assert_eq!(md.mime_type, "text/markdown");
    assert_eq!(md.size, fs::metadata(&md.source).unwrap().len());
    assert_eq!(md.digest, digest(&fs::read(&md.source).unwrap()));
    assert_eq!(md.within, pdf.folder);
    let mimes: Vec<_> = b.files[3..].iter().map(|f| f.mime_type.as_str()).collect();
    assert_eq!(
        mimes,
        ["application/octet-stream", "text/markdown", "text/plain"]
    );
    assert_eq!(pdf.frontmatter["name"], "pdf");
}

#[test]
fn digests_are_sha256_in_lowercase_hex() {
    assert_eq!(
        digest(b""),
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        digest(b"abc"),
        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn a_nested_skill_is_a_skill_and_its_files_are_its_parents_too() {
    let t = Tree::new();
    t.skill("outer")
        .skill("outer/inner")
        .file("outer/inner/a.md", "a");
    let b = t.load().unwrap();
    let sizes: Vec<_> = b
        .skills
        .iter()
        .map(|s| (s.path.join("/"), s.files.len()))
        .collect();
    assert_eq!(sizes, [("outer".into(), 3), ("outer/inner".into(), 2)]);
    let inner_a = b
        .files
        .iter()
        .find(|f| f.path.ends_with(&["a.md".into()]))
        .unwrap();
    assert_eq!(
        inner_a.within, b.skills[1].folder,
        "a file is checked against its innermost skill"
    );
}

#[test]
fn an_empty_folder_has_no_skills_and_a_missing_one_is_an_error() {
    let t = Tree::new();
    assert!(t.load().unwrap().skills.is_empty());
    let missing = load(&t.0.join("nope"), &Limits::default()).unwrap_err();
    assert!(matches!(missing[0].kind, ProblemKind::Root(_)));
    assert!(
        missing[0]
            .to_string()
            .starts_with("cannot read the skills folder: ")
    );
    t.file("file", "x");
    let file = load(&t.0.join("file"), &Limits::default()).unwrap_err();
    assert_eq!(
        file[0].to_string(),
        "cannot read the skills folder: not a folder"
    );
}

#[test]
fn every_problem_is_reported_once_each_at_its_file() {
    let t = Tree::new();
    t.file("a/SKILL.md", "# No frontmatter\n")
        .file("b/SKILL.md", "---\nname: b\n")
        .file("c/SKILL.md", "---\nname: nope\ndescription: d\n---\n")
        .file("d/SKILL.md", "---\nname: D\n---\n")
        .file("README.md", "stray")
        .file("e/skill.md", "lowercase: no skill");
    fs::write(t.0.join("f.md"), [0xff]).unwrap();
    let f = "---\nname: g\ndescription: d\n---\n";
    t.file("g/SKILL.md", f);
    fs::write(t.0.join("g/SKILL.md"), [f.as_bytes(), &[0xff]].concat()).unwrap();
    assert_eq!(
        t.problems(),
        [
            "README.md: `README.md` is in no skill: every file under the skills folder belongs to a skill, a folder with a `SKILL.md`; move it into a skill, or add a `SKILL.md` beside it",
            "a/SKILL.md: `a/SKILL.md` has no frontmatter: a `SKILL.md` begins with a `---` line, YAML with `name` and `description`, and another `---` line; add them at the top of the file",
            "b/SKILL.md: the frontmatter of `b/SKILL.md` has no closing `---` line; add one after its last key",
            "c/SKILL.md: `name: nope` in `c/SKILL.md` is not its folder's name `c`; a skill's name is its folder's name: rename one to match the other",
            "d/SKILL.md: `name: D` in `d/SKILL.md` is not a skill name: `D` is not a lowercase letter, digit or hyphen; a name is 1 to 64 lowercase letters (a-z), digits and hyphens, without a hyphen first, last or twice in a row",
            "d/SKILL.md: the frontmatter of `d/SKILL.md` has no `description`; add one that says what the skill does and when to use it",
            "e/skill.md: `e/skill.md` is in no skill: every file under the skills folder belongs to a skill, a folder with a `SKILL.md`; move it into a skill, or add a `SKILL.md` beside it",
            "f.md: `f.md` is in no skill: every file under the skills folder belongs to a skill, a folder with a `SKILL.md`; move it into a skill, or add a `SKILL.md` beside it",
            "g/SKILL.md: `g/SKILL.md` is not UTF-8 text; save it as UTF-8",
        ]
    );
}

#[test]
fn no_link_leaves_its_skill_and_no_folder_is_a_link() {
    let outside = Tree::new();
    outside.file("secret.txt", "secret").file("dir/x", "x");
    let t = Tree::new();
    t.skill("pdf")
        .skill("other")
        .file("other/shared.md", "shared")
        .link("pdf/secret.txt", &outside.0.join("secret.txt"))
        .link("pdf/up.md", Path::new("../other/shared.md"))
        .link("pdf/dir", &outside.0.join("dir"))
        .link("pdf/self", Path::new("."))
        .file("pdf/real.md", "real")
        .link("pdf/alias.md", Path::new("real.md"))
        .link("pdf/dangling.md", Path::new("missing.md"));
    let problems = t.problems();
    let leaves = |p: &str| {
        format!(
            "{p}: `{p}` is a symbolic link that leaves the folder of skill `pdf`; a skill serves only files inside its folder: copy the file in instead"
        )
    };
    assert_eq!(problems.len(), 5, "{problems:#?}");
    assert!(
        problems[0].starts_with("pdf/dangling.md: cannot read `pdf/dangling.md`: "),
        "{}",
        problems[0]
    );
    assert_eq!(problems[1], leaves("pdf/dir"));
    assert_eq!(problems[2], leaves("pdf/secret.txt"));
    assert_eq!(
        problems[3],
        "pdf/self: `pdf/self` is a symbolic link to a folder; a skill's folders must be real folders (a link could list files twice, or loop): move or copy the folder in instead"
    );
    assert_eq!(problems[4], leaves("pdf/up.md"));
}

#[test]
fn a_link_inside_the_skill_serves_its_target() {
    let t = Tree::new();
    t.skill("pdf")
        .file("pdf/real.md", "real")
        .link("pdf/alias.md", Path::new("real.md"));
    let b = t.load().unwrap();
    let alias = b.files.iter().find(|f| f.path[1] == "alias.md").unwrap();
    assert_eq!((alias.size, alias.digest.clone()), (4, digest(b"real")));
}

#[test]
fn a_skills_folder_that_is_a_link_is_followed() {
    let t = Tree::new();
    t.skill("pdf");
    let link = Tree::new();
    fs::remove_dir(&link.0).unwrap();
    symlink(&t.0, &link.0).unwrap();
    let b = load(&link.0, &Limits::default()).unwrap();
    assert_eq!(
        b.skills[0].folder,
        fs::canonicalize(&t.0).unwrap().join("pdf")
    );
}

#[test]
fn files_and_skills_keep_their_bounds() {
    let t = Tree::new();
    t.skill("big")
        .sparse("big/a.bin", MAX_SKILL_BYTES / 2)
        .sparse("big/b.bin", MAX_SKILL_BYTES / 2)
        .skill("huge")
        .sparse("huge/video.bin", MAX_SKILL_BYTES + 1)
        .skill("many");
    for i in 0..MAX_SKILL_FILES {
        t.file(&format!("many/f/{i:03}"), "");
    }
    let problems = t.problems();
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(
        problems[0].starts_with("big: the files of skill `big` total 16777"),
        "{}",
        problems[0]
    );
    assert_eq!(
        problems[1],
        "huge/video.bin: `huge/video.bin` is 16777217 bytes, over the bound of 16777216 bytes per file; make it smaller or move it out of the skill"
    );
    assert_eq!(
        problems[2],
        "many: skill `many` has 513 files, over the 512 every host accepts per skill, `SKILL.md` included (SEP-2640, Limits); merge or remove files"
    );
    let small = Limits { max_file_bytes: 3 };
    let t = Tree::new();
    t.file("x/SKILL.md", "---\nname: x\ndescription: d\n---\n");
    let why = load(&t.0, &small).unwrap_err();
    assert_eq!(
        why[0].to_string(),
        "`x/SKILL.md` is 31 bytes, over the bound of 3 bytes per file; make it smaller or move it out of the skill"
    );
}

#[test]
fn pipes_and_non_utf8_names_are_refused() {
    use std::os::unix::ffi::OsStrExt as _;
    let t = Tree::new();
    t.skill("pdf");
    let fifo = t.0.join("pdf/fifo");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    fs::write(
        t.0.join("pdf")
            .join(std::ffi::OsStr::from_bytes(b"bad\xff")),
        "x",
    )
    .unwrap();
    assert_eq!(
        t.problems(),
        [
            "pdf/bad\u{fffd}: `pdf/bad\u{fffd}` has a name that is not UTF-8; rename it (a skill file's path becomes its URI)",
            "pdf/fifo: `pdf/fifo` is neither a file nor a folder (a pipe, socket or device); remove it",
        ]
    );
}
