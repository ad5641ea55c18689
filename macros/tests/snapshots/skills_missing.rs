fn expansion() {
    let _ = ::core::compile_error! {
        "cannot read the skills folder `no-such-folder`: No such file or directory (os error 2); the path is relative to the crate's folder, where its Cargo.toml is"
    };
}
