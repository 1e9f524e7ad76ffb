import CSDL2
import MotionDevices

/// Fills two gaps in what SDL ≥ 2.30 reports for a pad whose sensors it reads from the kernel's
/// separate "Motion Sensors"/"IMU" evdev node (its Linux joystick driver, not HIDAPI).
///
/// - SDL keeps each axis at zero until the kernel sends an event for it, and evdev sends only
///   changes: a pad held still reads zeros from SDL. Its cache can also fall back to zero later:
///   the kernel suite saw both sensors read exactly zero for 53 samples at the start of a
///   recording, until the pad's next change of values, as SDL's re-read of the node after
///   SYN_DROPPED would leave it (SDL's PollAllSensors sends the values it reads without storing
///   them in the cache later reports are sent from). So every axis SDL shows at exactly zero is
///   taken from the kernel's current value (EVIOCGABS, through `currentCounts`); a live sensor
///   rarely reads exactly zero, and where it does the kernel says zero too.
/// - SDL divides by the node's resolution but does not remap axes (SDL 2.32
///   src/joystick/linux/SDL_sysjoystick.c), so hid-nintendo's node comes out in the Nintendo
///   frame; it is turned into SDL's controller frame here, as SDL's HIDAPI driver would.
///
///     let axes = SDLEvdevSensorAxes(driver: .playStation, resolutions: [8192, 8192, 8192, 1024, 1024, 1024]) { read() }
///     let data = axes.correct(sensor: SDL_SENSOR_GYRO.rawValue, data: sdlData)
public struct SDLEvdevSensorAxes: @unchecked Sendable {
    public let driver: EvdevMotionDecoder.Driver
    /// Per ABS_X…ABS_RZ: counts per g (0…2), counts per deg/s (3…5).
    public let resolutions: [Int32]
    /// The node's ABS_X…ABS_RZ values now, or nil when it cannot be read.
    private let currentCounts: () -> [Int32]?

    public init(driver: EvdevMotionDecoder.Driver, resolutions: [Int32], currentCounts: @escaping () -> [Int32]?) {
        self.driver = driver
        self.resolutions = resolutions
        self.currentCounts = currentCounts
    }

    /// One SDL sensor event's three values (`sensor` an `SDL_SensorType` raw value), in SDL's units
    /// and controller frame.
    public func correct(sensor: Int32, data: SIMD3<Float>) -> SIMD3<Float> { filling(sensor: sensor, data: data).values }

    /// `correct`, and the node's six counts any zero was filled from (nil when SDL gave every axis):
    /// a fill is the kernel's value when it is read, which under load can already be a later report's
    /// (see `agrees`).
    public func filling(sensor: Int32, data: SIMD3<Float>) -> (values: SIMD3<Float>, filledFrom: [Int32]?) {
        guard let base = Self.base(sensor) else { return (data, nil) }
        var values = data
        var filledFrom: [Int32]?
        if values[0] == 0 || values[1] == 0 || values[2] == 0, let counts = currentCounts(), counts.count == 6 {
            filledFrom = counts
            for i in 0..<3 where values[i] == 0 {
                values[i] = Float(Self.unit(base: base) * Double(counts[base + i]) / Double(max(1, resolutions[base + i])))
            }
        }
        guard driver == .nintendo else { return (values, filledFrom) }
        // The Nintendo frame into SDL's/PlayStation's: (−Y, Z, −X) (INPUT_FACTS §4, SDL's HIDAPI Switch driver).
        return (SIMD3(-values.y, values.z, -values.x), filledFrom)
    }

    /// Whether the node's `counts` belong to the report SDL's event (`sensor`, `data` as SDL gave it,
    /// before `correct`) came from: every axis SDL gave a value for reads the same within a count.
    public func agrees(_ counts: [Int32], sensor: Int32, data: SIMD3<Float>) -> Bool {
        guard let base = Self.base(sensor), counts.count == 6 else { return true }
        for i in 0..<3 where data[i] != 0 {
            let sdlCounts = Double(data[i]) / Self.unit(base: base) * Double(max(1, resolutions[base + i]))
            if abs(sdlCounts - Double(counts[base + i])) > 1 { return false }
        }
        return true
    }

    /// ABS_X (accelerometer) or ABS_RX (gyro): where `sensor`'s axes start among the node's six.
    private static func base(_ sensor: Int32) -> Int? {
        switch sensor {
        case SDL_SENSOR_ACCEL.rawValue: return 0
        case SDL_SENSOR_GYRO.rawValue: return 3
        default: return nil
        }
    }

    /// SDL's unit per count × resolution: m/s² per g, rad/s per deg/s (SDL_sysjoystick.c).
    private static func unit(base: Int) -> Double { base == 0 ? SDLSensorConversion.standardGravity : Double.pi / 180 }
}
