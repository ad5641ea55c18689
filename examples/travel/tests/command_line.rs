//! The command line explains itself: `--help` names every flag and the `demo` command, and
//! an unknown argument is refused with status 2.

use std::process::Command;

#[test]
fn help_names_every_flag_and_the_demo() {
    let out = Command::new(env!("CARGO_BIN_EXE_travel"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for flag in [
        "--http [<ADDR>]",
        "--redis <URL>",
        "--redis-ca <PATH>",
        "demo",
        "--metrics <ADDR>",
        "--otlp",
    ] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
}

#[test]
fn an_unknown_argument_is_refused_with_status_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_travel"))
        .arg("--htp")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--http"), "no suggestion in: {err}");
}
