/// One IMU reading as a report carries it: raw counts in the pad's own axes.
public struct RawIMUReading: Hashable, Sendable {
    /// Gyro counts, pad axes.
    public var gyro: SIMD3<Int32>
    /// Accelerometer counts, pad axes.
    public var accel: SIMD3<Int32>
    /// The pad's sensor clock in ticks, where the report has one (not on Nintendo pads).
    public var deviceTicks: UInt32?

    public init(gyro: SIMD3<Int32>, accel: SIMD3<Int32>, deviceTicks: UInt32? = nil) {
        self.gyro = gyro
        self.accel = accel
        self.deviceTicks = deviceTicks
    }
}

/// Why a report produced no samples. Every rejection is counted, never fatal.
public enum ReportRejection: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case unknownReportID(UInt8)
    case truncated(reportID: UInt8, length: Int, expected: Int)
    case badChecksum(reportID: UInt8)
    /// The USB adapter is connected but no pad is paired to it (its reports are all zero).
    case noControllerOnAdapter
    /// A report that carries no IMU data (the 10-byte Bluetooth "simple" report 0x01, a Switch
    /// subcommand reply, a Steam pad's connection or battery message).
    case noMotionData(reportID: UInt8)
    /// A state report whose IMU fields all read zero: the pad's motion sensors are switched off (a
    /// Steam Deck while Steam's controller layout has no gyro behaviour).
    case motionSensorsOff

    public var description: String {
        func hex(_ id: UInt8) -> String { "0x" + String(id, radix: 16).leftPadded(to: 2) }
        switch self {
        case .empty: return "empty read"
        case .unknownReportID(let id): return "unknown report ID \(hex(id))"
        case let .truncated(id, length, expected):
            return "report \(hex(id)) truncated: \(length) bytes, expected \(expected)"
        case .badChecksum(let id): return "report \(hex(id)) failed its Bluetooth CRC-32 check"
        case .noControllerOnAdapter: return "USB adapter has no controller connected"
        case .noMotionData(let id): return "report \(hex(id)) carries no motion data"
        case .motionSensorsOff: return "the pad's motion sensors are off (its reports read zero)"
        }
    }
}

/// Counts of what a decoder did with the reports it was given, for logs and the HUD.
public struct ReportStatistics: Hashable, Sendable, CustomStringConvertible {
    public var decodedReports = 0
    public var samples = 0
    public var unknownReportIDs: [UInt8: Int] = [:]
    public var truncated = 0
    public var badChecksum = 0
    public var noControllerOnAdapter = 0
    public var noMotionData = 0
    /// Reports whose IMU fields all read zero (`ReportRejection.motionSensorsOff`).
    public var motionSensorsOff = 0
    public var empty = 0
    /// The most recent rejection, for an error line the user can read.
    public var lastRejection: ReportRejection?
    /// The pad's sensor clock: samples stamped on arrival because it stood still, resynchronisations.
    public var clock = SensorTimestamper.Statistics()

    public init() {}

    public var rejected: Int {
        unknownReportIDs.values.reduce(0, +) + truncated + badChecksum + noControllerOnAdapter + noMotionData + motionSensorsOff + empty
    }

    mutating func count(_ rejection: ReportRejection) {
        lastRejection = rejection
        switch rejection {
        case .empty: empty += 1
        case .unknownReportID(let id): unknownReportIDs[id, default: 0] += 1
        case .truncated: truncated += 1
        case .badChecksum: badChecksum += 1
        case .noControllerOnAdapter: noControllerOnAdapter += 1
        case .noMotionData: noMotionData += 1
        case .motionSensorsOff: motionSensorsOff += 1
        }
    }

    public var description: String {
        var parts = ["\(decodedReports) reports decoded", "\(samples) samples"]
        let unknown = unknownReportIDs.values.reduce(0, +)
        if unknown > 0 { parts.append("\(unknown) with unknown IDs") }
        if truncated > 0 { parts.append("\(truncated) truncated") }
        if badChecksum > 0 { parts.append("\(badChecksum) bad CRC") }
        if noControllerOnAdapter > 0 { parts.append("\(noControllerOnAdapter) from an adapter without a pad") }
        if noMotionData > 0 { parts.append("\(noMotionData) without motion data") }
        if motionSensorsOff > 0 { parts.append("\(motionSensorsOff) with the motion sensors off") }
        if empty > 0 { parts.append("\(empty) empty") }
        parts += clock.notes
        return parts.joined(separator: ", ") + (lastRejection.map { " (last: \($0))" } ?? "")
    }
}
