import Foundation

/// Reads x-io Technologies' Fusion CSV (`Examples/Python/sensor_data.csv` in
/// github.com/xioTechnologies/Fusion, MIT):
/// `Time (s),Gyroscope X (deg/s),…,Accelerometer X (g),…[,Magnetometer X (uT),…]`.
///
/// Fusion's accelerometer is specific force (+1 g on z lying flat), so it is negated into Core
/// Motion's sign; the gyroscope is converted from deg/s to rad/s. Axes are otherwise the same.
enum XIOFusionImporter {
    static let time = "Time (s)"
    static let gyroscope = ["Gyroscope X (deg/s)", "Gyroscope Y (deg/s)", "Gyroscope Z (deg/s)"]
    static let accelerometer = ["Accelerometer X (g)", "Accelerometer Y (g)", "Accelerometer Z (g)"]
    static let magnetometer = ["Magnetometer X (uT)", "Magnetometer Y (uT)", "Magnetometer Z (uT)"]

    static func read(_ document: CSVDocument) throws -> Trace {
        guard let header = document.lines.first else {
            throw TraceError(file: document.file, line: 1, problem: .emptyFile)
        }
        let required = try document.columns([time] + gyroscope + accelerometer, in: header)!
        let t = required[0], g = Array(required[1...3]), a = Array(required[4...6])
        let m = try document.columns(magnetometer, in: header, required: false)

        let degreesToRadians = Double.pi / 180
        var samples: [MotionSample] = []
        samples.reserveCapacity(document.lines.count)
        var previous: Double?
        for line in document.lines.dropFirst() {
            try document.checkCellCount(line, expected: header.cells.count)
            let timestamp = try document.time(t, name: time, on: line, after: previous)
            previous = timestamp
            guard let specificForce = try document.vector(a, names: accelerometer, on: line) else {
                throw TraceError(file: document.file, line: line.number, problem: .missingAcceleration)
            }
            let rate = try document.vector(g, names: gyroscope, on: line).map { $0 * degreesToRadians }
            let field = try m.flatMap { try document.vector($0, names: magnetometer, on: line) }
            samples.append(MotionSample(timestamp: timestamp, acceleration: -specificForce,
                                        rotationRate: rate, magneticField: field))
        }
        if samples.isEmpty { throw TraceError(file: document.file, line: header.number, problem: .noSamples) }
        return Trace(samples: samples, metadata: TraceMetadata(source: document.file, nominalRate: Trace.estimatedRate(samples),
                                                                importedFrom: .xioFusion))
    }
}
