import Foundation
@testable import Motion

/// The Sensor Logger importer as it was before it streamed: every sensor file loaded whole, the
/// period the median over the whole timeline, pairs found by binary search. Kept as the reference
/// the streaming importer (`SensorLoggerSamples`) must agree with.
enum SensorLoggerWholeFileImporter {
    static func read(folder: URL, name: String) throws -> Trace {
        let conventions = try SensorLoggerImporter.Conventions(metadata: try document(SensorLoggerImporter.metadataFile, in: folder, name: name, required: true)!)
        // Apple's sign and g: ×1 for iOS raw g; m/s² → g, and Android's sign flipped, otherwise.
        let rawScale = conventions.applesSignAndG ? 1 : -1 / SensorLoggerImporter.standardGravity
        let motionScale = (conventions.applesSignAndG ? 1 : -1) / SensorLoggerImporter.standardGravity

        let gravity = try stream(SensorLoggerImporter.gravityFile, in: folder, name: name, values: ["x", "y", "z"], scale: motionScale)
        let user = try stream(SensorLoggerImporter.userAccelerationFile, in: folder, name: name, values: ["x", "y", "z"], scale: motionScale)
        let gyroscope = try stream(SensorLoggerImporter.gyroscopeFile, in: folder, name: name, values: ["x", "y", "z"], scale: 1)
        let magnetometer = try stream(SensorLoggerImporter.magnetometerFile, in: folder, name: name, values: ["x", "y", "z"], scale: 1)
        let barometer = try stream(SensorLoggerImporter.barometerFile, in: folder, name: name, values: ["pressure"], scale: 0.1)  // hPa → kPa
        let orientation = conventions.applesSignAndG
            ? try stream(SensorLoggerImporter.orientationFile, in: folder, name: name, values: ["qw", "qx", "qy", "qz"], scale: 1) : nil

        var timeline: Stream
        var acceleration: [Vector3]
        if let raw = try stream(SensorLoggerImporter.uncalibratedAccelerometerFile, in: folder, name: name, values: ["x", "y", "z"], scale: rawScale) {
            timeline = raw
            acceleration = raw.values.map { Vector3($0[0], $0[1], $0[2]) }
        } else if let user, let gravity {
            timeline = user
            acceleration = try user.times.indices.map { i in
                guard let g = gravity.nearest(to: user.times[i], within: user.halfPeriod) else {
                    throw TraceError(file: user.file, line: user.lines[i], problem: .noMatchingSample(stream: SensorLoggerImporter.gravityFile))
                }
                return user.vector(i) + Vector3(g[0], g[1], g[2])
            }
        } else {
            throw TraceError(file: name, line: nil,
                             problem: .missingColumns(["\(SensorLoggerImporter.uncalibratedAccelerometerFile) or \(SensorLoggerImporter.userAccelerationFile) + \(SensorLoggerImporter.gravityFile)"]))
        }

        let tolerance = timeline.halfPeriod
        let origin = timeline.times[0]
        var samples: [MotionSample] = []
        samples.reserveCapacity(timeline.times.count)
        for (i, t) in timeline.times.enumerated() {
            func near(_ s: Stream?) -> Vector3? {
                s?.nearest(to: t, within: tolerance).map { Vector3($0[0], $0[1], $0[2]) }
            }
            // about one barometer reading a second: each sample carries the latest one at or before it
            var sample = MotionSample(timestamp: t - origin, acceleration: acceleration[i],
                                      rotationRate: near(gyroscope), magneticField: near(magnetometer),
                                      pressure: barometer?.latest(atOrBefore: t)?[0])
            let attitude = orientation?.nearest(to: t, within: tolerance).map { Quaternion(w: $0[0], x: $0[1], y: $0[2], z: $0[3]) }
            let reference = ReferenceMotion(attitude: attitude, gravity: near(gravity), userAcceleration: near(user))
            if reference.attitude != nil || reference.gravity != nil || reference.userAcceleration != nil {
                sample.reference = reference
            }
            samples.append(sample)
        }
        return Trace(samples: samples, metadata: TraceMetadata(source: Trace.shortName(folder),
                                                                nominalRate: Trace.estimatedRate(samples),
                                                                importedFrom: .sensorLogger))
    }

    /// One sensor's CSV: times in seconds (`seconds_elapsed`) and the named values, scaled.
    struct Stream {
        let file: String
        var times: [Double] = []
        var values: [[Double]] = []
        var lines: [Int] = []

        init(file: String) { self.file = file }

        func vector(_ i: Int) -> Vector3 { Vector3(values[i][0], values[i][1], values[i][2]) }

        /// Half the median period: how far apart two streams' samples may be and still pair up.
        var halfPeriod: Double {
            guard times.count >= 2 else { return 0 }
            var periods = (1..<times.count).map { times[$0] - times[$0 - 1] }
            periods.sort()
            return periods[periods.count / 2] / 2 * 1.0001
        }

        /// The values of the last sample at or before `t`.
        func latest(atOrBefore t: Double) -> [Double]? {
            let after = times.partitionPoint { $0 <= t }
            return after > 0 ? values[after - 1] : nil
        }

        /// The values of the sample nearest `t`, if within `tolerance` seconds.
        func nearest(to t: Double, within tolerance: Double) -> [Double]? {
            let lo = times.partitionPoint { $0 < t }
            let candidates = [lo - 1, lo].filter { $0 >= 0 && $0 < times.count }
            guard let best = candidates.min(by: { abs(times[$0] - t) < abs(times[$1] - t) }),
                  abs(times[best] - t) <= tolerance else { return nil }
            return values[best]
        }
    }

    private static func document(_ wanted: String, in folder: URL, name: String, required: Bool) throws -> CSVDocument? {
        guard let file = SensorLoggerImporter.file(named: wanted, in: folder) else {
            let display = (name as NSString).appendingPathComponent(wanted)
            if required { throw TraceError(file: display, line: nil, problem: .unreadable(reason: "no such file")) }
            return nil
        }
        let url = folder.appendingPathComponent(file)
        let display = (name as NSString).appendingPathComponent(file)
        let document = try CSVDocument(contentsOf: url, name: display)
        if document.isEmpty { throw TraceError(file: display, line: 1, problem: .emptyFile) }
        return document
    }

    /// Reads `file` if present. Rows repeating the previous row exactly are dropped (Sensor Logger
    /// can log a reading twice); any other non-increasing time is an error.
    private static func stream(_ file: String, in folder: URL, name: String, values names: [String], scale: Double) throws -> Stream? {
        guard let document = try document(file, in: folder, name: name, required: false) else { return nil }
        let header = document.lines[0]
        let t = try document.columns(["seconds_elapsed"], in: header)![0]
        let indices = try document.columns(names, in: header)!
        var stream = Stream(file: document.file)
        var previousCells: [Substring] = []
        for line in document.lines.dropFirst() {
            try document.checkCellCount(line, expected: header.cells.count)
            let cells = line.cells.map { Substring(document.text($0)) }
            if cells == previousCells { continue }
            previousCells = cells
            let time = try document.time(t, name: "seconds_elapsed", on: line, after: stream.times.last)
            guard let v = try document.values(indices, names: names, on: line) else {
                throw TraceError(file: document.file, line: line.number, problem: .incompleteVector(columns: names))
            }
            stream.times.append(time)
            stream.values.append(v.map { $0 * scale })
            stream.lines.append(line.number)
        }
        if stream.times.isEmpty { throw TraceError(file: document.file, line: header.number, problem: .noSamples) }
        return stream
    }
}
