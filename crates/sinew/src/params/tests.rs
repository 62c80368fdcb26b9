//! Unit tests of the parameter stage on a small hand-built rig.
