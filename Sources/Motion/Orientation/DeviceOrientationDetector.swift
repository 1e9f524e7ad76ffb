import Foundation

/// Turns gravity into `DeviceOrientation` changes, with hysteresis so a device held near a
/// boundary does not flicker: event in (`update`), change out.
///
///     var detector = DeviceOrientationDetector()
///     if let change = detector.update(gravity: motion.gravity, timestamp: motion.timestamp) {
///         hud.rotate(to: change.orientation)
///     }
///
/// Angles (defaults in `Settings`):
/// - Flat: the tilt is the angle between gravity and the screen normal (±z). The device becomes
///   face up/down when the tilt drops below `flatEnterAngle` (25°) and stays flat until it
///   exceeds `flatExitAngle` (35°).
/// - Upright: the roll in the screen plane is `atan2(g.x, −g.y)`: 0° portrait, +90° landscape
///   right, ±180° upside down, −90° landscape left. Each owns a 90° sector; the current one is
///   kept until the roll is more than `hysteresis` (10°) past the 45° sector edge, i.e. 55° from
///   its centre.
/// Samples with no usable gravity (zero, non-finite) are ignored.
public struct DeviceOrientationDetector: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Tilt from lying flat below which the device becomes face up/down, degrees.
        public var flatEnterAngle: Double
        /// Tilt from lying flat above which it stops being face up/down, degrees.
        public var flatExitAngle: Double
        /// How far past a 45° sector edge the roll must go to change the upright orientation, degrees.
        public var hysteresis: Double

        public init(flatEnterAngle: Double = 25, flatExitAngle: Double = 35, hysteresis: Double = 10) {
            self.flatEnterAngle = flatEnterAngle
            self.flatExitAngle = flatExitAngle
            self.hysteresis = hysteresis
        }

        public static let `default` = Settings()
    }

    /// A change of orientation, at the timestamp of the sample that caused it.
    public struct Change: Hashable, Sendable {
        public var previous: DeviceOrientation
        public var orientation: DeviceOrientation
        /// Seconds, the triggering sample's timestamp.
        public var timestamp: Double
    }

    public var settings: Settings
    public private(set) var orientation = DeviceOrientation.unknown

    public init(settings: Settings = .default) { self.settings = settings }

    /// Feeds one gravity vector (device frame, any length); returns the change if the orientation changed.
    public mutating func update(gravity: Vector3, timestamp: Double) -> Change? {
        guard gravity.isFinite, gravity.lengthSquared > 1e-12 else { return nil }
        let next = classify(gravity.normalized)
        guard next != orientation else { return nil }
        let change = Change(previous: orientation, orientation: next, timestamp: timestamp)
        orientation = next
        return change
    }

    /// `update` from a device-motion sample's gravity.
    public mutating func update(_ motion: DeviceMotion) -> Change? {
        update(gravity: motion.gravity, timestamp: motion.timestamp)
    }

    private func classify(_ g: Vector3) -> DeviceOrientation {
        let degrees = 180 / Double.pi
        let tiltFromFaceUp = g.angle(to: Vector3(0, 0, -1)) * degrees
        let tiltFromFaceDown = 180 - tiltFromFaceUp
        if tiltFromFaceUp < (orientation == .faceUp ? settings.flatExitAngle : settings.flatEnterAngle) {
            return .faceUp
        }
        if tiltFromFaceDown < (orientation == .faceDown ? settings.flatExitAngle : settings.flatEnterAngle) {
            return .faceDown
        }

        let roll = atan2(g.x, -g.y) * degrees
        if let centre = Self.rollCentre(of: orientation),
           Self.angularDistance(roll, centre) <= 45 + settings.hysteresis {
            return orientation
        }
        return Self.uprightOrientations.min { Self.angularDistance(roll, $0.1) < Self.angularDistance(roll, $1.1) }!.0
    }

    private static let uprightOrientations: [(DeviceOrientation, Double)] = [
        (.portrait, 0), (.landscapeRight, 90), (.portraitUpsideDown, 180), (.landscapeLeft, -90),
    ]

    private static func rollCentre(of orientation: DeviceOrientation) -> Double? {
        uprightOrientations.first { $0.0 == orientation }?.1
    }

    /// |a − b| wrapped to 0...180 degrees.
    private static func angularDistance(_ a: Double, _ b: Double) -> Double {
        let d = (a - b).truncatingRemainder(dividingBy: 360)
        let wrapped = d < -180 ? d + 360 : (d > 180 ? d - 360 : d)
        return abs(wrapped)
    }
}
