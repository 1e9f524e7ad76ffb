import Mapper
import Motion

/// Exact synthetic pad motion for the mapper's tests: a pad held at `attitude` (body → world, z up)
/// turning about world axes, sampled at `rate` Hz. Acceleration is gravity alone (Core Motion's
/// sign: flat face-up reads (0, 0, −1) g), the rotation rate is bias-free.
struct PadMotion {
    var attitude: Quaternion
    var time = 0.0
    var rate = 250.0

    init(attitude: Quaternion = Quaternion(axis: Vector3(0, 0, 1), angle: 0), rate: Double = 250) {
        self.attitude = attitude
        self.rate = rate
    }

    /// A pad pitched `pitch` (top edge up) and rolled `roll` (right side down), radians.
    static func tilted(pitch: Double = 0, roll: Double = 0, rate: Double = 250) -> PadMotion {
        let q = Quaternion(axis: Vector3(1, 0, 0), angle: pitch) * Quaternion(axis: Vector3(0, 1, 0), angle: roll)
        return PadMotion(attitude: q, rate: rate)
    }

    /// Samples for turning about world `axis` (unit) at `degreesPerSecond` for `seconds`; the
    /// attitude advances with them. Zero speed holds the pad still.
    mutating func turn(about axis: Vector3 = Vector3(0, 0, 1), degreesPerSecond: Double, seconds: Double) -> [MotionSample] {
        let count = Int((seconds * rate).rounded())
        let dt = 1 / rate
        let w = degreesPerSecond * .pi / 180
        var samples: [MotionSample] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            time += dt
            // The rate over this step in the body frame, from the attitude at its middle.
            let mid = Quaternion(axis: axis, angle: w * dt / 2) * attitude
            let bodyRate = mid.inverseRotate(axis * w)
            attitude = Quaternion(axis: axis, angle: w * dt) * attitude
            let gravity = attitude.inverseRotate(Vector3(0, 0, -1))
            samples.append(MotionSample(timestamp: time, acceleration: gravity, rotationRate: bodyRate))
        }
        return samples
    }

    /// Holds still for `seconds` (lets fusion settle on gravity).
    mutating func rest(_ seconds: Double) -> [MotionSample] { turn(degreesPerSecond: 0, seconds: seconds) }
}

/// The summed mouse motion of a run.
struct MouseTotal: Equatable {
    var x = 0
    var y = 0
    var wheel = 0

    mutating func add(_ out: MapperOutput) {
        x += Int(out.mouseX)
        y += Int(out.mouseY)
        wheel += Int(out.wheel)
    }
}

extension Mapper {
    /// Feeds every sample with the same controls; the summed mouse motion.
    mutating func run(_ samples: [MotionSample], controls: PadControls = .idle) -> MouseTotal {
        var total = MouseTotal()
        for s in samples { total.add(step(sample: s, controls: controls)) }
        return total
    }
}

extension MapperProfile {
    /// The default profile without smoothing (exact identities) at a given sensitivity and calibration.
    static func exact(sensitivity: Double = 1, countsPer360: Double = 16_364, space: GyroSpace = .player) -> MapperProfile {
        var p = MapperProfile.default
        p.gyroSensitivity = sensitivity
        p.countsPer360 = countsPer360
        p.gyroSmoothThreshold = 0
        p.gyroSpace = space
        return p
    }
}
