//! The documents stay true to the tree (`truth`).

mod truth;
