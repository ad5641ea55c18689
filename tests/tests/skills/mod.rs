//! The Skills extension: served from a folder embedded or read at start (`serve`), and the disk
//! after start (`disk`).

mod disk;
mod serve;
