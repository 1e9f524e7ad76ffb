// Tests for Demo.
