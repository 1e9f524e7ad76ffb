import Motion

/// One sample's readings and nothing more: 96 bytes in an array where a `MotionSample` takes 216
/// (its barometer and the recording device's own estimate ride along, absent here). x-io Fusion's
/// timing program reads its input as compact (40 bytes of floats a sample), so Tiltkit is compared
/// with it over these: over the 216-byte samples, streaming the array from memory costs the plain
/// loop about as much as its sums, and the comparison would weigh the harnesses' arrays, not the
/// filters.
struct CompactReading: Sendable {
    var timestamp: Double
    var acceleration: Vector3
    var rotationRate: Vector3?
    var magneticField: Vector3?

    init(_ sample: MotionSample) {
        timestamp = sample.timestamp
        acceleration = sample.acceleration
        rotationRate = sample.rotationRate
        magneticField = sample.magneticField
    }
}

/// What the timed loops read of a sample, whichever array holds it.
protocol TimedReadings {
    var timestamp: Double { get }
    var acceleration: Vector3 { get }
    var rotationRate: Vector3? { get }
    var magneticField: Vector3? { get }
}

extension MotionSample: TimedReadings {}
extension CompactReading: TimedReadings {}
