// Tests for Benchmarks.
