//! Every handshake revision (2024-11-05 to 2025-11-25) from the same tool code.

mod handshake;
