import Foundation

/// A Sensor Logger folder's samples in time order, merged from its sensor files as they are read
/// (each a piece at a time, `SensorLoggerSensorFile`), so memory stays bounded however long the
/// recording. The timeline file (see `SensorLoggerImporter`) gives one sample per row; every other
/// file is read alongside, up to that row's time, keeping only its reading just before and just
/// after it: the nearest of the two is paired if within half the timeline's period, and the
/// barometer contributes its latest reading at or before the row. Once the timeline ends, the rest
/// of every other file is still read, so a malformed line anywhere is reported, as a whole read would.
///
///     let samples = try SensorLoggerSamples(folder: url, name: "export")
///     while let sample = try samples.next() { … }
final class SensorLoggerSamples {
    /// Timeline readings the period is estimated from: ten seconds at 100 Hz, enough for a stable
    /// median, and all a stream holds before its first sample is handed out.
    static let periodReadings = 1000

    let metadata: TraceMetadata
    /// The columns the folder's files stand for.
    let columns: TraceColumns
    /// Last lines cut off mid-write, passed over; complete once `next()` returns nil.
    var warnings: [TraceError] { files.flatMap(\.warnings) }

    /// Where the acceleration comes from.
    private enum Timeline {
        /// `AccelerometerUncalibrated`: the raw reading itself.
        case raw
        /// `Accelerometer` (user acceleration) + the nearest `Gravity`, which must be there.
        case userPlusGravity
    }

    private let timelineKind: Timeline
    private let timeline: SensorLoggerSensorFile
    /// The first timeline readings, read ahead to estimate the period.
    private var readAhead: [SensorLoggerSensorFile.Reading]
    private var readAheadIndex = 0
    /// How far apart (s) a reading may be from a timeline row and still pair with it: half the period.
    private let tolerance: Double
    /// The first timeline time: sample time 0.
    private let origin: Double
    private var gravity, user, gyroscope, magnetometer, orientation, barometer: Cursor?
    private let files: [SensorLoggerSensorFile]
    private var ended = false

    /// Bytes read at once from each sensor file: seven files are read side by side, so each reads
    /// a quarter of what a one-file trace does (`TraceSampleStream`), a few MB between them.
    static let filePieceSize = 1 << 20

    init(folder: URL, name: String, pieceSize: Int = filePieceSize) throws {
        let conventions = try SensorLoggerImporter.Conventions(folder: folder, name: name)
        // Apple's sign and g: ×1 for iOS raw g; m/s² → g, and Android's sign flipped, otherwise.
        let rawScale = conventions.applesSignAndG ? 1 : -1 / SensorLoggerImporter.standardGravity
        let motionScale = (conventions.applesSignAndG ? 1 : -1) / SensorLoggerImporter.standardGravity
        func open(_ file: String, _ values: [String], scale: Double) throws -> SensorLoggerSensorFile? {
            try SensorLoggerSensorFile.open(file, in: folder, name: name, values: values, scale: scale, pieceSize: pieceSize)
        }
        let xyz = ["x", "y", "z"]
        let gravityFile = try open(SensorLoggerImporter.gravityFile, xyz, scale: motionScale)
        let userFile = try open(SensorLoggerImporter.userAccelerationFile, xyz, scale: motionScale)
        let gyroscopeFile = try open(SensorLoggerImporter.gyroscopeFile, xyz, scale: 1)
        let magnetometerFile = try open(SensorLoggerImporter.magnetometerFile, xyz, scale: 1)
        let barometerFile = try open(SensorLoggerImporter.barometerFile, ["pressure"], scale: 0.1)  // hPa → kPa
        let orientationFile = conventions.applesSignAndG
            ? try open(SensorLoggerImporter.orientationFile, ["qw", "qx", "qy", "qz"], scale: 1) : nil
        let rawFile = try open(SensorLoggerImporter.uncalibratedAccelerometerFile, xyz, scale: rawScale)

        if let rawFile {
            (timelineKind, timeline) = (.raw, rawFile)
            user = userFile.map(Cursor.init)
        } else if let userFile, gravityFile != nil {
            (timelineKind, timeline) = (.userPlusGravity, userFile)
        } else {
            let wanted = "\(SensorLoggerImporter.uncalibratedAccelerometerFile) or "
                + "\(SensorLoggerImporter.userAccelerationFile) + \(SensorLoggerImporter.gravityFile)"
            throw TraceError(file: name, line: nil, problem: .missingColumns([wanted]))
        }
        gravity = gravityFile.map(Cursor.init)
        gyroscope = gyroscopeFile.map(Cursor.init)
        magnetometer = magnetometerFile.map(Cursor.init)
        orientation = orientationFile.map(Cursor.init)
        barometer = barometerFile.map(Cursor.init)
        files = [gravityFile, userFile, gyroscopeFile, magnetometerFile, barometerFile, orientationFile, rawFile].compactMap { $0 }

        // The period from the first readings only (the rest is not read yet): a recording's rate
        // does not change, and a median over a thousand periods is not moved by a few gaps.
        var readAhead = [timeline.first!]
        while readAhead.count < Self.periodReadings, let reading = try timeline.next() { readAhead.append(reading) }
        self.readAhead = readAhead
        let period = Trace.medianPeriod(times: readAhead.map(\.time))
        tolerance = (period ?? 0) / 2 * 1.0001
        origin = readAhead[0].time

        var columns: TraceColumns = []
        if gyroscopeFile != nil { columns.insert(.rotationRate) }
        if magnetometerFile != nil { columns.insert(.magneticField) }
        if barometerFile != nil { columns.insert(.pressure) }
        if orientationFile != nil { columns.insert(.referenceAttitude) }
        if gravityFile != nil { columns.insert(.referenceGravity) }
        if userFile != nil { columns.insert(.referenceUserAcceleration) }
        self.columns = columns
        metadata = TraceMetadata(source: Trace.shortName(folder), nominalRate: Trace.estimatedRate(medianPeriod: period),
                                 importedFrom: .sensorLogger)
    }

    /// The next sample in time order, nil after the last.
    func next() throws -> MotionSample? {
        guard let row = try nextTimelineReading() else {
            if !ended {
                ended = true
                for var cursor in [gravity, user, gyroscope, magnetometer, orientation, barometer].compactMap({ $0 }) {
                    try cursor.readToEnd()
                }
            }
            return nil
        }
        let t = row.time
        func vector(_ v: [Double]) -> Vector3 { Vector3(v[0], v[1], v[2]) }
        func near(_ cursor: inout Cursor?) throws -> [Double]? { try cursor?.nearest(to: t, within: tolerance) }

        let nearGravity = try near(&gravity).map(vector)
        let acceleration: Vector3, nearUser: Vector3?
        switch timelineKind {
        case .raw:
            acceleration = vector(row.values)
            nearUser = try near(&user).map(vector)
        case .userPlusGravity:
            guard let nearGravity else {
                throw TraceError(file: timeline.name, line: row.line, problem: .noMatchingSample(stream: SensorLoggerImporter.gravityFile))
            }
            nearUser = vector(row.values)
            acceleration = vector(row.values) + nearGravity
        }
        // About one barometer reading a second: each sample carries the latest one at or before it.
        var sample = MotionSample(timestamp: t - origin, acceleration: acceleration,
                                  rotationRate: try near(&gyroscope).map(vector), magneticField: try near(&magnetometer).map(vector),
                                  pressure: try barometer?.latest(atOrBefore: t)?[0])
        let attitude = try near(&orientation).map { Quaternion(w: $0[0], x: $0[1], y: $0[2], z: $0[3]) }
        if attitude != nil || nearGravity != nil || nearUser != nil {
            sample.reference = ReferenceMotion(attitude: attitude, gravity: nearGravity, userAcceleration: nearUser)
        }
        return sample
    }

    private func nextTimelineReading() throws -> SensorLoggerSensorFile.Reading? {
        if readAheadIndex < readAhead.count {
            defer {
                readAheadIndex += 1
                if readAheadIndex == readAhead.count { (readAhead, readAheadIndex) = ([], 0) }
            }
            return readAhead[readAheadIndex]
        }
        return try timeline.next()
    }

    /// A sensor file read up to a moving time: its last reading before that time and its first one
    /// at or after it (a look-ahead of one reading), all a pairing needs since times only grow.
    private struct Cursor {
        let file: SensorLoggerSensorFile
        var before: SensorLoggerSensorFile.Reading?
        var after: SensorLoggerSensorFile.Reading?

        init(_ file: SensorLoggerSensorFile) {
            self.file = file
            after = file.first
        }

        /// The values of the reading nearest `t` (the earlier on a tie), if within `tolerance` seconds.
        mutating func nearest(to t: Double, within tolerance: Double) throws -> [Double]? {
            while let next = after, next.time < t { (before, after) = (next, try file.next()) }
            let best = [before, after].compactMap { $0 }.min { abs($0.time - t) < abs($1.time - t) }
            guard let best, abs(best.time - t) <= tolerance else { return nil }
            return best.values
        }

        /// The values of the last reading at or before `t`.
        mutating func latest(atOrBefore t: Double) throws -> [Double]? {
            while let next = after, next.time <= t { (before, after) = (next, try file.next()) }
            return before?.values
        }

        /// Reads what is left, for the errors it holds.
        mutating func readToEnd() throws {
            while after != nil { after = try file.next() }
        }
    }
}
