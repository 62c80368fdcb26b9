//! Tests for clip compilation.
