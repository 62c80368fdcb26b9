//! Rendering benchmarks (work in progress).
fn main() {}
