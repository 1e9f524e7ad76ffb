// Tests for MotionDevices.
