// Tests for CartGame.
