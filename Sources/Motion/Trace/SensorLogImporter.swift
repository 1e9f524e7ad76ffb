import Foundation

/// Reads SensorLog (iOS app by Bernd Thomas) CSV exports: one wide row per tick. Column names
/// carry their unit in parentheses, e.g. `accelerometerAccelerationX(G)`; they are matched
/// without it. Raw accelerometer (g, Core Motion's sign), gyroscope (rad/s) and magnetometer
/// (µT) and the altimeter's pressure (kPa, held between its readings) become the sample; the fused `motion*` columns become the reference. Location and
/// other columns are ignored. Time is `accelerometerTimestamp_sinceReboot(s)` minus its first value.
enum SensorLogImporter {
    static let time = "accelerometerTimestamp_sinceReboot"
    static let accelerometer = ["accelerometerAccelerationX", "accelerometerAccelerationY", "accelerometerAccelerationZ"]
    static let gyroscope = ["gyroRotationX", "gyroRotationY", "gyroRotationZ"]
    static let magnetometer = ["magnetometerX", "magnetometerY", "magnetometerZ"]
    /// kPa, Core Motion's CMAltitudeData.pressure as logged; empty on rows between two readings.
    static let pressure = ["altimeterPressure"]
    /// SensorLog writes the quaternion x, y, z, w.
    static let quaternion = ["motionQuaternionX", "motionQuaternionY", "motionQuaternionZ", "motionQuaternionW"]
    static let gravity = ["motionGravityX", "motionGravityY", "motionGravityZ"]
    static let userAcceleration = ["motionUserAccelerationX", "motionUserAccelerationY", "motionUserAccelerationZ"]

    /// The rows under the header (the first line of the file's first piece).
    struct RowReader: TraceRowReader {
        let headerLine: Int
        let cellCount: Int
        private let t: Int, a: [Int]
        private let g: [Int]?, m: [Int]?, p: [Int]?, q: [Int]?, grav: [Int]?, user: [Int]?
        private var previous: Double?
        private var origin: Double?
        private var latestPressure: Double?

        init(_ document: CSVDocument) throws {
            guard let header = document.lines.first else {
                throw TraceError(file: document.file, line: 1, problem: .emptyFile)
            }
            func find(_ names: [String], required: Bool = false) throws -> [Int]? {
                try document.columns(names, in: header, required: required, ignoringUnits: true)
            }
            let required = try find([time] + accelerometer, required: true)!
            t = required[0]
            a = Array(required[1...3])
            g = try find(gyroscope)
            m = try find(magnetometer)
            p = try find(pressure)
            q = try find(quaternion)
            grav = try find(gravity)
            user = try find(userAcceleration)
            headerLine = header.number
            cellCount = header.cells.count
        }

        var columns: TraceColumns {
            var columns: TraceColumns = []
            if g != nil { columns.insert(.rotationRate) }
            if m != nil { columns.insert(.magneticField) }
            if p != nil { columns.insert(.pressure) }
            if q != nil { columns.insert(.referenceAttitude) }
            if grav != nil { columns.insert(.referenceGravity) }
            if user != nil { columns.insert(.referenceUserAcceleration) }
            return columns
        }

        mutating func read(_ document: CSVDocument, _ body: (MotionSample) throws -> Void) throws {
            for line in document.lines where line.number > headerLine {
                try document.checkCellCount(line, expected: cellCount)
                let raw = try document.time(t, name: time, on: line, after: previous)
                previous = raw
                let start = origin ?? raw
                origin = start
                guard let acceleration = try document.vector(a, names: accelerometer, on: line) else {
                    throw TraceError(file: document.file, line: line.number, problem: .missingAcceleration)
                }
                if let reading = try p.flatMap({ try document.values($0, names: pressure, on: line) }) { latestPressure = reading[0] }
                var sample = MotionSample(timestamp: raw - start, acceleration: acceleration,
                                          rotationRate: try g.flatMap { try document.vector($0, names: gyroscope, on: line) },
                                          magneticField: try m.flatMap { try document.vector($0, names: magnetometer, on: line) },
                                          pressure: latestPressure)
                let attitude = try q.flatMap { try document.values($0, names: quaternion, on: line) }
                    .map { Quaternion(w: $0[3], x: $0[0], y: $0[1], z: $0[2]) }
                let gravityValue = try grav.flatMap { try document.vector($0, names: gravity, on: line) }
                let userValue = try user.flatMap { try document.vector($0, names: userAcceleration, on: line) }
                if attitude != nil || gravityValue != nil || userValue != nil {
                    sample.reference = ReferenceMotion(attitude: attitude, gravity: gravityValue, userAcceleration: userValue)
                }
                try body(sample)
            }
        }
    }
}
