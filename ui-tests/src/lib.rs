//! Nothing but the dependencies the UI fixtures (`ui/`) compile against; the tests are in
//! `tests/ui.rs`.
