/// The sensors a source delivers.
public struct SensorSet: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let accelerometer = SensorSet(rawValue: 1 << 0)
    public static let gyroscope = SensorSet(rawValue: 1 << 1)
    public static let magnetometer = SensorSet(rawValue: 1 << 2)
    /// Air pressure, for relative altitude and floors.
    public static let barometer = SensorSet(rawValue: 1 << 3)
}

/// What a source is, for listings, HUDs and availability checks.
public struct MotionSourceInfo: Hashable, Sendable {
    /// Human-readable, e.g. "DualSense Wireless Controller (hidraw3)" or "trace xio/sensor_data.csv".
    public var name: String
    /// Source kind as used on the command line: "trace", "hidraw", "iio", "evdev", "sdl", "hid-recording".
    public var kind: String
    public var sensors: SensorSet
    /// Nominal sample rate in Hz, where known.
    public var nominalRate: Double?

    public init(name: String, kind: String, sensors: SensorSet, nominalRate: Double? = nil) {
        self.name = name
        self.kind = kind
        self.sensors = sensors
        self.nominalRate = nominalRate
    }
}

/// What a source tells its consumer, in order, from the source's own thread.
public enum MotionSourceEvent: Hashable, Sendable {
    /// One or more samples read together, oldest first: one device read (an IIO buffer's scans, a
    /// Switch report's three IMU readings, an evdev read's frames) or a replay's samples already
    /// due. A source with one sample at a time sends batches of one, at once; a source with
    /// several in hand sends them together, so the consumer pays its per-event work (a clock
    /// read, a lock) once for them. Never empty.
    case samples([MotionSample])
    /// The device went away (unplugged, read error); the reason is for the user.
    case disconnected(reason: String)
    /// The device is back after a `disconnected`.
    case reconnected
    /// A finite source (a trace without looping) has delivered everything.
    case ended
}

/// Anything that produces motion samples: a trace replay, a hidraw gamepad, an IIO IMU, SDL.
///
/// `start` begins delivery on a thread the source owns and returns at once; events arrive in
/// order, never concurrently. `stop` ends delivery and releases the device; no event is
/// delivered after `stop` returns.
public protocol MotionSource: AnyObject, Sendable {
    var info: MotionSourceInfo { get }
    func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws
    func stop()
}
