//! The Skills extension (SEP-2640), on the fixture folder of `fixture.rs`: the declaration,
//! `skills/list` and `skills/get` (`listing`), the files read back (`files`), and the disk
//! after start (`disk`).

mod disk;
mod files;
mod fixture;
mod listing;
