//! The tasks extension. Through the engine, on the task lab of `lab.rs`: a task's life
//! (`lifecycle`), questions inside a task (`questions`) and following tasks on a listen stream
//! (`listen`). The task store contract held by every store (`store`).

mod lab;
mod lifecycle;
mod listen;
mod questions;
mod store;
