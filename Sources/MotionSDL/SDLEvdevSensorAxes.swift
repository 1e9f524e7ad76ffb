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
    public func correct(sensor: Int32, data: SIMD3<Float>) -> SIMD3<Float> {
        let base: Int
        switch sensor {
        case SDL_SENSOR_ACCEL.rawValue: base = 0
        case SDL_SENSOR_GYRO.rawValue: base = 3
        default: return data
        }
        var values = data
        if values[0] == 0 || values[1] == 0 || values[2] == 0, let counts = currentCounts(), counts.count == 6 {
            for i in 0..<3 where values[i] == 0 {
                values[i] = Float(Self.unit(base: base) * Double(counts[base + i]) / Double(max(1, resolutions[base + i])))
            }
        }
        guard driver == .nintendo else { return values }
        // The Nintendo frame into SDL's/PlayStation's: (−Y, Z, −X) (INPUT_FACTS §4, SDL's HIDAPI Switch driver).
        return SIMD3(-values.y, values.z, -values.x)
    }

    /// SDL's unit per count × resolution: m/s² per g, rad/s per deg/s (SDL_sysjoystick.c).
    private static func unit(base: Int) -> Double { base == 0 ? SDLSensorConversion.standardGravity : Double.pi / 180 }
}
