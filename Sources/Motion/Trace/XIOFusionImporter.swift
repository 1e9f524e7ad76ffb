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

    /// The rows under the header (the first line of the file's first piece).
    struct RowReader: TraceRowReader {
        let headerLine: Int
        let cellCount: Int
        private let t: Int, g: [Int], a: [Int], m: [Int]?
        private var previous: Double?

        init(_ document: CSVDocument) throws {
            guard let header = document.lines.first else {
                throw TraceError(file: document.file, line: 1, problem: .emptyFile)
            }
            let required = try document.columns([time] + gyroscope + accelerometer, in: header)!
            t = required[0]
            g = Array(required[1...3])
            a = Array(required[4...6])
            m = try document.columns(magnetometer, in: header, required: false)
            headerLine = header.number
            cellCount = header.cells.count
        }

        var columns: TraceColumns { m == nil ? [.rotationRate] : [.rotationRate, .magneticField] }

        mutating func read(_ document: CSVDocument, _ body: (MotionSample) throws -> Void) throws {
            let degreesToRadians = Double.pi / 180
            for line in document.lines where line.number > headerLine {
                try document.checkCellCount(line, expected: cellCount)
                let timestamp = try document.time(t, name: time, on: line, after: previous)
                previous = timestamp
                guard let specificForce = try document.vector(a, names: accelerometer, on: line) else {
                    throw TraceError(file: document.file, line: line.number, problem: .missingAcceleration)
                }
                let rate = try document.vector(g, names: gyroscope, on: line).map { $0 * degreesToRadians }
                let field = try m.flatMap { try document.vector($0, names: magnetometer, on: line) }
                try body(MotionSample(timestamp: timestamp, acceleration: -specificForce, rotationRate: rate, magneticField: field))
            }
        }
    }
}
