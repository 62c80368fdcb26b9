//! Jiggle bone benchmark (being written).
fn main() {}
