// The motion value types are plain data (no references), so they may be copied as raw bytes into
// a `LatestValue` slot. Swift infers `BitwiseCopyable` only for non-public types, so the public
// ones declare it here; the compiler checks every stored property is itself bitwise-copyable.
extension Vector3: BitwiseCopyable {}
extension Quaternion: BitwiseCopyable {}
extension RotationMatrix: BitwiseCopyable {}
extension Attitude: BitwiseCopyable {}
extension ReferenceMotion: BitwiseCopyable {}
extension MotionSample: BitwiseCopyable {}
extension MagneticFieldCalibrationAccuracy: BitwiseCopyable {}
extension CalibratedMagneticField: BitwiseCopyable {}
extension DeviceMotion: BitwiseCopyable {}
