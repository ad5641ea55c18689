#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rondo_fuzz::stdio(data));
