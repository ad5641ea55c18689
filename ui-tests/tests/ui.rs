//! Compile-time tests of the macros: every error message they emit, each in its own file under
//! `ui/<macro>/fail/` with the expected `.stderr` (trybuild; bless with `TRYBUILD=overwrite`,
//! then read the diff), and accepted-but-tricky forms under `ui/<macro>/pass/`, each a binary of
//! this crate (`Cargo.toml`) that must build without a warning where it says so and run to a
//! successful exit.
//!
//! The expected output is rustc 1.95's (the toolchain in `rust-toolchain.toml`), so on another
//! compiler the test is ignored; `scripts/test-all.sh` sets `RONDO_REQUIRE_UI_TESTS`, under which
//! running on another compiler fails instead of skipping silently.

#[rustversion::attr(
    not(stable(1.95)),
    ignore = "UI output is pinned to rustc 1.95, the toolchain in rust-toolchain.toml"
)]
#[test]
fn ui() {
    skills_fixtures::lay_out();
    // Only `fail` cases: trybuild then checks them (`cargo check`) instead of building them and
    // their dependencies with code generation, which a single `pass` case would make it do.
    trybuild::TestCases::new().compile_fail("ui/*/fail/*.rs");
}

/// Every `ui/<macro>/pass/<case>.rs` is the binary `pass_<macro>_<case>` of this crate, which
/// cargo built beside this test; each must exit successfully.
#[test]
fn pass_fixtures_run() {
    let bins = std::env::current_exe().unwrap();
    // target/<profile>/deps/ui-<hash> → target/<profile>/
    let bins = bins.parent().and_then(|deps| deps.parent()).unwrap();
    let mut ran = 0;
    for fixture in std::fs::read_dir("ui").unwrap() {
        let dir = fixture.unwrap().path();
        let Ok(cases) = std::fs::read_dir(dir.join("pass")) else {
            continue;
        };
        let family = dir.file_name().unwrap().to_str().unwrap().to_owned();
        for case in cases {
            let path = case.unwrap().path();
            let case = path.file_stem().unwrap().to_str().unwrap();
            let bin = bins.join(format!("pass_{family}_{case}"));
            assert!(
                bin.exists(),
                "{} has no binary {}: declare it as a [[bin]] in ui-tests/Cargo.toml",
                path.display(),
                bin.display()
            );
            let out = std::process::Command::new(&bin).output().unwrap();
            assert!(
                out.status.success(),
                "{} failed ({}):\n{}{}",
                path.display(),
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 39, "only {ran} pass fixtures found under ui/*/pass/");
}

#[rustversion::not(stable(1.95))]
#[test]
fn ui_tests_run_on_the_pinned_compiler_in_ci() {
    assert!(
        std::env::var_os("RONDO_REQUIRE_UI_TESTS").is_none(),
        "the UI tests are pinned to rustc 1.95 (rust-toolchain.toml) and were skipped on this \
         compiler; run them with the pinned toolchain"
    );
}

/// The folders the `skills!` UI tests read (`ui/skills/`): the macro reads its path below the
/// crate's folder, which under trybuild is its own project (`<target>/tests/trybuild/rondo-ui-tests`),
/// so the tests name `../../../tmp/skills-ui/<case>`, the target's `tmp` folder, where these are
/// laid out afresh: a copy of `ui/skills/fixtures/`, and the cases git cannot keep or should not
/// (links, a pipe, a name that is not UTF-8, files of 16 MiB, 513 files).
mod skills_fixtures {
    use std::fs;
    use std::os::unix::fs::symlink;
    use std::path::Path;

    const GOOD: &str = "---\nname: pdf\ndescription: Fills PDF forms.\n---\n# PDF\n";
    const MIB: u64 = 1024 * 1024;

    pub fn lay_out() {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("skills-ui");
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(&root).unwrap();
        let copied = std::process::Command::new("cp")
            .args(["-R", "ui/skills/fixtures/.", root.to_str().unwrap()])
            .status()
            .unwrap();
        assert!(copied.success(), "cp -R of ui/skills/fixtures failed");
        let skill = |case: &str| {
            let dir = root.join(case).join("pdf");
            fs::create_dir_all(&dir).unwrap();
            fs::write(dir.join("SKILL.md"), GOOD).unwrap();
            dir
        };
        let outside = root.join("outside");
        fs::create_dir_all(&outside).unwrap();
        fs::write(outside.join("secret.txt"), "secret").unwrap();
        {
            use std::os::unix::ffi::OsStrExt as _;
            let name = std::ffi::OsStr::from_bytes(b"notes-\xff.md");
            fs::write(skill("name_not_utf8").join(name), "notes").unwrap();
        }
        symlink(
            outside.join("secret.txt"),
            skill("link_leaves_skill").join("secret.txt"),
        )
        .unwrap();
        skill("link_leaves_folder");
        symlink(&outside, root.join("link_leaves_folder/shared")).unwrap();
        symlink(".", skill("linked_folder").join("again")).unwrap();
        let pipe = skill("not_a_file").join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&pipe)
            .status()
            .unwrap();
        assert!(made.success(), "mkfifo {}", pipe.display());
        symlink("gone.md", skill("dangling_link").join("notes.md")).unwrap();
        sparse(&skill("file_too_large").join("video.bin"), 16 * MIB + 1);
        let big = skill("skill_too_large");
        sparse(&big.join("a.bin"), 9 * MIB);
        sparse(&big.join("b.bin"), 9 * MIB);
        let many = skill("too_many_files");
        for i in 0..512 {
            fs::write(many.join(format!("{i:03}.txt")), "").unwrap();
        }
    }

    /// A file of `size` bytes that takes no room: the macro refuses it by its size alone.
    fn sparse(at: &Path, size: u64) {
        fs::File::create(at).unwrap().set_len(size).unwrap();
    }
}
