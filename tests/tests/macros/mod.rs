//! The macros end to end: what `#[tool]`, `#[toolbox]`, `#[prompt]` and `#[resource]` generate
//! (`behaviour`), their `scopes = [..]` (`scopes`) and `task = ..` (`tasks`), and every macro
//! used where the prelude's names are shadowed (`hygiene`).

mod behaviour;
mod hygiene;
mod scopes;
mod tasks;
