import Motion

/// Factory or user IMU calibration of a Nintendo pad, from its SPI flash (deku spi_flash_notes;
/// INPUT_FACTS §4): 24 bytes at 0x6020 (factory) or at 0x8028 after the magic 0xB2 0xA1 at
/// 0x8026 (user): accel origin XYZ, accel sensitivity XYZ, gyro origin XYZ, gyro sensitivity XYZ,
/// all s16 LE.
///
/// Conversions as SDL (main) and the deku notes: g = raw × 4 / (accelSens − accelOrigin),
/// deg/s = (raw − gyroOrigin) × 936 / (gyroSens − gyroOrigin). The 936 vs 816 scale is disputed
/// (INPUT_FACTS §15.2): measure a 360° turn before trusting either.
public struct SwitchCalibration: Hashable, Sendable {
    public static let factoryAddress: UInt32 = 0x6020
    public static let userAddress: UInt32 = 0x8026
    public static let blockLength = 24
    static let userMagic: [UInt8] = [0xB2, 0xA1]
    /// Full-scale constants of the formulas above.
    static let accelScaleG = 4.0
    static let gyroScaleDegreesPerSecond = 936.0

    public var accelOrigin: SIMD3<Double>
    public var accelSensitivity: SIMD3<Double>
    public var gyroOrigin: SIMD3<Double>
    public var gyroSensitivity: SIMD3<Double>
    /// Where it came from: "user", "factory" or "nominal".
    public var origin: String

    /// Nominal values when flash cannot be read: 16384 and 13371 with zero origins.
    public static let nominal = SwitchCalibration(
        accelOrigin: .zero, accelSensitivity: SIMD3(repeating: 16384),
        gyroOrigin: .zero, gyroSensitivity: SIMD3(repeating: 13371), origin: "nominal")

    public init(accelOrigin: SIMD3<Double>, accelSensitivity: SIMD3<Double>, gyroOrigin: SIMD3<Double>,
                gyroSensitivity: SIMD3<Double>, origin: String) {
        self.accelOrigin = accelOrigin
        self.accelSensitivity = accelSensitivity
        self.gyroOrigin = gyroOrigin
        self.gyroSensitivity = gyroSensitivity
        self.origin = origin
    }

    /// Parses a 24-byte calibration block.
    public init?(block b: [UInt8], origin: String) {
        guard b.count >= Self.blockLength else { return nil }
        func triple(_ o: Int) -> SIMD3<Double> { SIMD3<Double>(b.int16Triple(at: o)) }
        self.init(accelOrigin: triple(0), accelSensitivity: triple(6), gyroOrigin: triple(12),
                  gyroSensitivity: triple(18), origin: origin)
        // Erased flash reads 0xFF…: sensitivities must exceed the origins or the formulas blow up.
        guard (0..<3).allSatisfy({ accelSensitivity[$0] > accelOrigin[$0] && gyroSensitivity[$0] > gyroOrigin[$0] })
        else { return nil }
    }

    /// The user calibration if its magic is present at 0x8026 (`user` starts there), else the
    /// factory block at 0x6020, else nominal.
    public init(factory: [UInt8]?, user: [UInt8]?) {
        if let user, user.count >= 2 + Self.blockLength, Array(user[0..<2]) == Self.userMagic,
           let parsed = SwitchCalibration(block: Array(user[2...]), origin: "user") {
            self = parsed
        } else if let factory, let parsed = SwitchCalibration(block: factory, origin: "factory") {
            self = parsed
        } else {
            self = .nominal
        }
    }

    /// g per count, per axis.
    public var accelGPerCount: SIMD3<Double> { Self.accelScaleG / (accelSensitivity - accelOrigin) }
    /// deg/s per count, per axis.
    public var gyroDegreesPerCount: SIMD3<Double> { Self.gyroScaleDegreesPerSecond / (gyroSensitivity - gyroOrigin) }

    /// Gyro in rad/s, Nintendo axes.
    public func rotationRate(_ raw: SIMD3<Int32>) -> Vector3 {
        let dps = (SIMD3<Double>(raw) - gyroOrigin) * gyroDegreesPerCount
        return Vector3(dps.x, dps.y, dps.z) * (Double.pi / 180)
    }

    /// Acceleration in g, Nintendo axes, reaction sign.
    public func acceleration(_ raw: SIMD3<Int32>) -> Vector3 {
        let g = SIMD3<Double>(raw) * accelGPerCount
        return Vector3(g.x, g.y, g.z)
    }
}
