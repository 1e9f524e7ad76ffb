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

    static func read(_ document: CSVDocument) throws -> Trace {
        guard let header = document.lines.first else {
            throw TraceError(file: document.file, line: 1, problem: .emptyFile)
        }
        func find(_ names: [String], required: Bool = false) throws -> [Int]? {
            try document.columns(names, in: header, required: required, ignoringUnits: true)
        }
        let required = try find([time] + accelerometer, required: true)!
        let t = required[0], a = Array(required[1...3])
        let g = try find(gyroscope)
        let m = try find(magnetometer)
        let p = try find(pressure)
        let q = try find(quaternion)
        let grav = try find(gravity)
        let user = try find(userAcceleration)

        var samples: [MotionSample] = []
        samples.reserveCapacity(document.lines.count)
        var previous: Double?
        var origin: Double?
        var latestPressure: Double?
        for line in document.lines.dropFirst() {
            try document.checkCellCount(line, expected: header.cells.count)
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
            samples.append(sample)
        }
        if samples.isEmpty { throw TraceError(file: document.file, line: header.number, problem: .noSamples) }
        return Trace(samples: samples, metadata: TraceMetadata(source: document.file, nominalRate: Trace.estimatedRate(samples),
                                                                importedFrom: .sensorLog))
    }
}
