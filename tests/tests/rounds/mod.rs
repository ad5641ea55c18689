//! Multi-round requests at 2026-07-28: `inputResponses` and rounds (`input`), `requestState`
//! (`state`), what answers may do (`answers`), and rounds taken once (`replay`).

mod answers;
mod input;
mod replay;
mod state;
