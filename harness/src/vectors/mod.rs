//! Test vectors: the file format ([`model`]) and loading with located errors ([`load`]).

pub mod checked;
pub mod embedded;
pub mod imported;
pub mod lint;
pub mod load;
pub mod model;

pub use load::{
    load_file, parse_file, test_files, vector_paths, LoadedFile, LoadedTest, VectorError,
};
pub use model::*;
