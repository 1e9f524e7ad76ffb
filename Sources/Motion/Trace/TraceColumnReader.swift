/// Reads samples from CSV rows whose header names `TraceChannel` columns: the tiltkit
/// format and the recordings' `t,ax,…` layout share it. Vectors are all-or-nothing per row;
/// an empty vector means the sensor has no value on that row. Rows may come in several documents
/// (chunks of one file, see `TraceSampleStream`); time must increase across them.
struct TraceColumnReader: TraceRowReader {
    private let file: String
    private let header: CSVDocument.Line
    private var previous: Double?
    private let time: Int
    private let acceleration: [Int]
    private let rotationRate: [Int]?
    private let magneticField: [Int]?
    private let pressure: [Int]?
    private let referenceAttitude: [Int]?
    private let referenceEulerAngles: [Int]?
    private let referenceGravity: [Int]?
    private let referenceUserAcceleration: [Int]?

    /// `names` are the header's column names without units, in file order.
    init(file: String, header: CSVDocument.Line, names: [String]) throws {
        self.file = file
        self.header = header
        var missing: [String] = []
        func find(_ channel: TraceChannel, required: Bool) -> [Int]? {
            let found = channel.names.map { names.firstIndex(of: $0) }
            let present = found.compactMap { $0 }
            if present.isEmpty && !required { return nil }
            if present.count < found.count {
                missing += zip(channel.names, found).filter { $0.1 == nil }.map(\.0)
                return nil
            }
            return present
        }
        let time = find(.time, required: true)
        let acceleration = find(.acceleration, required: true)
        rotationRate = find(.rotationRate, required: false)
        magneticField = find(.magneticField, required: false)
        pressure = find(.pressure, required: false)
        referenceAttitude = find(.referenceAttitude, required: false)
        referenceEulerAngles = find(.referenceEulerAngles, required: false)
        referenceGravity = find(.referenceGravity, required: false)
        referenceUserAcceleration = find(.referenceUserAcceleration, required: false)
        guard missing.isEmpty, let time, let acceleration else {
            throw TraceError(file: file, line: header.number, problem: .missingColumns(missing))
        }
        let known = Set(TraceChannel.allCases.flatMap(\.names))
        if let unknown = names.first(where: { !known.contains($0) }) {
            throw TraceError(file: file, line: header.number, problem: .unknownColumn(unknown))
        }
        self.time = time[0]
        self.acceleration = acceleration
    }

    /// The line number of the header.
    var headerLine: Int { header.number }
    /// Cells in the header, and so in every row.
    var cellCount: Int { header.cells.count }

    /// The optional columns the header names.
    var columns: TraceColumns {
        var columns: TraceColumns = []
        if rotationRate != nil { columns.insert(.rotationRate) }
        if magneticField != nil { columns.insert(.magneticField) }
        if pressure != nil { columns.insert(.pressure) }
        if referenceAttitude != nil || referenceEulerAngles != nil { columns.insert(.referenceAttitude) }
        if referenceGravity != nil { columns.insert(.referenceGravity) }
        if referenceUserAcceleration != nil { columns.insert(.referenceUserAcceleration) }
        return columns
    }

    /// Hands over each data row of `document` after the header, in order; comment lines are skipped.
    mutating func read(_ document: CSVDocument, _ body: (MotionSample) throws -> Void) throws {
        for line in document.lines where line.number > header.number && !document.isComment(line) {
            try document.checkCellCount(line, expected: header.cells.count)
            let t = try document.time(time, name: "t", on: line, after: previous)
            previous = t
            guard let a = try vector(acceleration, .acceleration, line, document) else {
                throw TraceError(file: document.file, line: line.number, problem: .missingAcceleration)
            }
            var sample = MotionSample(timestamp: t, acceleration: a,
                                      rotationRate: try vector(rotationRate, .rotationRate, line, document),
                                      magneticField: try vector(magneticField, .magneticField, line, document),
                                      pressure: try values(pressure, .pressure, line, document)?[0])
            sample.reference = try reference(line, document)
            try body(sample)
        }
    }

    private func reference(_ line: CSVDocument.Line, _ document: CSVDocument) throws -> ReferenceMotion? {
        var attitude: Quaternion?
        if let q = try values(referenceAttitude, .referenceAttitude, line, document) {
            attitude = Quaternion(w: q[0], x: q[1], y: q[2], z: q[3])
        } else if let e = try values(referenceEulerAngles, .referenceEulerAngles, line, document) {
            attitude = Attitude(roll: e[0], pitch: e[1], yaw: e[2]).quaternion
        }
        let gravity = try vector(referenceGravity, .referenceGravity, line, document)
        let user = try vector(referenceUserAcceleration, .referenceUserAcceleration, line, document)
        if attitude == nil && gravity == nil && user == nil { return nil }
        return ReferenceMotion(attitude: attitude, gravity: gravity, userAcceleration: user)
    }

    private func vector(_ indices: [Int]?, _ channel: TraceChannel, _ line: CSVDocument.Line, _ document: CSVDocument) throws -> Vector3? {
        guard let v = try values(indices, channel, line, document) else { return nil }
        return Vector3(v[0], v[1], v[2])
    }

    /// The channel's cells on `line`: nil when all are empty, an error when only some are.
    private func values(_ indices: [Int]?, _ channel: TraceChannel, _ line: CSVDocument.Line, _ document: CSVDocument) throws -> [Double]? {
        guard let indices else { return nil }
        return try document.values(indices, names: channel.names, on: line)
    }
}
