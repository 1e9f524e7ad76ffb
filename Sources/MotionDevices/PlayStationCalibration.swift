import Motion

/// Factory IMU calibration of a DualShock 4 or DualSense, from its calibration feature report
/// (DualShock 4: 0x02 over USB, 0x05 over Bluetooth; DualSense: 0x05), applied as the current
/// Linux driver does (hid-playstation `dualshock4_get_calibration_data`; INPUT_FACTS §2–3).
///
/// The gyro bias in the report is not subtracted (the kernel stopped doing so; it is small and
/// `GyroCalibration` removes the real bias at run time). Calibration that fails SDL's sanity
/// checks (|bias| > 1024 or sensitivity off nominal by more than 50 %) falls back to nominal scale.
public struct PlayStationCalibration: Hashable, Sendable {
    /// Nominal accelerometer resolution, counts per g (hid-playstation DS_ACC_RES_PER_G).
    public static let nominalAccelCountsPerG = 8192.0
    /// Nominal gyro resolution, counts per deg/s (1/16 deg/s per count; SDL, kernel fallback).
    public static let nominalGyroCountsPerDegreePerSecond = 16.0

    /// Per axis: deg/s = raw × gyroDegreesPerCount.
    public var gyroDegreesPerCount: SIMD3<Double>
    /// Per axis: g = (raw − accelBias) × accelGPerCount.
    public var accelBias: SIMD3<Double>
    public var accelGPerCount: SIMD3<Double>
    /// False when this is the nominal fallback (no report, bad CRC, or values failing the checks).
    public var isFactory: Bool

    public static let nominal = PlayStationCalibration(
        gyroDegreesPerCount: SIMD3(repeating: 1 / nominalGyroCountsPerDegreePerSecond),
        accelBias: .zero, accelGPerCount: SIMD3(repeating: 1 / nominalAccelCountsPerG), isFactory: false)

    public init(gyroDegreesPerCount: SIMD3<Double>, accelBias: SIMD3<Double>, accelGPerCount: SIMD3<Double>,
                isFactory: Bool) {
        self.gyroDegreesPerCount = gyroDegreesPerCount
        self.accelBias = accelBias
        self.accelGPerCount = accelGPerCount
        self.isFactory = isFactory
    }

    /// Which feature report to read for a pad, and its length in bytes.
    public static func featureReport(for device: GamepadDevice) -> (id: UInt8, length: Int)? {
        switch (device.model.family, device.bus) {
        case (.dualShock4, .usb): return (0x02, 37)
        case (.dualShock4, .bluetooth), (.dualSense, _): return (0x05, 41)
        case (.nintendo, _), (.steam, _): return nil
        }
    }

    public enum ParseError: Error, Hashable, CustomStringConvertible {
        case wrongReport(id: UInt8?, length: Int)
        case badChecksum
        case implausible(String)

        public var description: String {
            switch self {
            case let .wrongReport(id, length):
                return "calibration report has ID \(id.map { String($0) } ?? "none") and \(length) bytes"
            case .badChecksum: return "calibration report failed its CRC-32 check"
            case .implausible(let why): return "calibration values implausible (\(why))"
            }
        }
    }

    /// Parses the calibration feature report of `device`.
    public init(featureReport r: [UInt8], device: GamepadDevice) throws(ParseError) {
        guard let (id, length) = Self.featureReport(for: device), r.first == id, r.count >= 37 else {
            throw .wrongReport(id: r.first, length: r.count)
        }
        // Over Bluetooth the 41-byte report ends in a CRC-32 seeded with 0xA3 (the kernel checks it).
        if device.bus == .bluetooth {
            guard r.count >= length, CRC32.isValidTrailer(r, length: length, seed: CRC32.featureSeed) else {
                throw .badChecksum
            }
        }
        func s(_ offset: Int) -> Double { Double(r.int16LE(at: offset)) }
        let bias = SIMD3(s(1), s(3), s(5))
        let plus: SIMD3<Double>, minus: SIMD3<Double>
        // DualShock 4 over Bluetooth (and its adapter) interleaves the gyro plus/minus fields;
        // USB and the DualSense store pitch+, pitch−, yaw+, yaw−, roll+, roll−.
        if device.model.family == .dualShock4 && (device.bus == .bluetooth || device.model == .dualShock4Dongle) {
            plus = SIMD3(s(7), s(9), s(11)); minus = SIMD3(s(13), s(15), s(17))
        } else {
            plus = SIMD3(s(7), s(11), s(15)); minus = SIMD3(s(9), s(13), s(17))
        }
        let speed2x = s(19) + s(21)
        let accelPlus = SIMD3(s(23), s(27), s(31)), accelMinus = SIMD3(s(25), s(29), s(33))

        let gyroDenominator = SIMD3(abs(plus.x) + abs(minus.x), abs(plus.y) + abs(minus.y), abs(plus.z) + abs(minus.z))
        let range2g = accelPlus - accelMinus
        for axis in 0..<3 {
            guard abs(bias[axis]) <= 1024 else { throw .implausible("gyro bias \(bias[axis])") }
            guard gyroDenominator[axis] > 0, range2g[axis] > 0 else { throw .implausible("zero range") }
        }
        let gyroScale = speed2x / gyroDenominator
        let accelScale = 2 / range2g
        let nominal = Self.nominal
        for axis in 0..<3 {
            let gyroRatio = gyroScale[axis] / nominal.gyroDegreesPerCount[axis]
            let accelRatio = accelScale[axis] / nominal.accelGPerCount[axis]
            guard (0.5...1.5).contains(gyroRatio), (0.5...1.5).contains(accelRatio) else {
                throw .implausible("sensitivity \(gyroRatio)/\(accelRatio) × nominal on axis \(axis)")
            }
        }
        self.init(gyroDegreesPerCount: gyroScale, accelBias: accelPlus - range2g / 2,
                  accelGPerCount: accelScale, isFactory: true)
    }

    /// Gyro in rad/s, pad axes.
    public func rotationRate(_ raw: SIMD3<Int32>) -> Vector3 {
        let dps = SIMD3<Double>(raw) * gyroDegreesPerCount
        return Vector3(dps.x, dps.y, dps.z) * (Double.pi / 180)
    }

    /// Acceleration in g, pad axes, reaction sign (+1 g up at rest).
    public func acceleration(_ raw: SIMD3<Int32>) -> Vector3 {
        let g = (SIMD3<Double>(raw) - accelBias) * accelGPerCount
        return Vector3(g.x, g.y, g.z)
    }
}
