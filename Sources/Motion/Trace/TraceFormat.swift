import Foundation

/// The layouts `Trace.load` reads. The raw values are the names `tiltkit convert --from` takes.
public enum TraceFormat: String, CaseIterable, Sendable {
    /// Tiltkit's own format: `# tiltkit-trace v1`, metadata comments, a header with units.
    case tiltkit
    /// The un-versioned `t,ax,…,ref_uaz` layout of the recordings in `Assets/traces/` (no units in the header).
    case columns
    /// x-io Technologies' Fusion CSV: `Time (s),Gyroscope X (deg/s),…,Accelerometer X (g),…,Magnetometer X (uT),…`.
    case xioFusion = "xio"
    /// Sensor Logger (iOS/Android app): a folder with one CSV per sensor.
    case sensorLogger = "sensor-logger"
    /// SensorLog (iOS app): one wide row per tick.
    case sensorLog = "sensorlog"

    /// Which format `url` holds, from its first lines (or, for a folder, its file names).
    public static func detect(at url: URL, name: String) throws -> TraceFormat {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw TraceError(file: name, line: nil, problem: .unreadable(reason: "no such file"))
        }
        if isDirectory.boolValue {
            if SensorLoggerImporter.looksLikeExport(url) { return .sensorLogger }
            throw TraceError(file: name, line: nil, problem: .unknownFormat(header: "(a folder without Sensor Logger CSVs)"))
        }
        return try TraceSampleStream(contentsOf: url).format
    }

    static func detect(_ document: CSVDocument) throws -> TraceFormat {
        try checkHeader(document)
        guard let first = document.lines.first else {
            throw TraceError(file: document.file, line: 1, problem: .emptyFile)
        }
        let text = document.text(of: first)
        if text.hasPrefix(TiltkitTraceFormat.magic) { return .tiltkit }
        let names = first.cells.map { document.text($0) }
        if names.contains("Time (s)") && names.contains(where: { $0.hasPrefix("Gyroscope X") }) { return .xioFusion }
        if names.contains(where: { $0.hasPrefix("accelerometerAccelerationX") }) { return .sensorLog }
        if names.first == "t" && names.contains("ax") { return .columns }
        throw TraceError(file: document.file, line: first.number, problem: .unknownFormat(header: text))
    }
}

extension TraceFormat {
    /// The longest line a trace may have, bytes: a wide SensorLog row is about 2 kB.
    static let maximumLineBytes = 1 << 20
    /// The most columns a trace's header may have: SensorLog, the widest, has about 80.
    static let maximumColumns = 1024

    /// Refuses a document whose first lines cannot be a trace's: a line beyond
    /// `maximumLineBytes` (binary data, a file without newlines) or a header beyond
    /// `maximumColumns`, said for what it is instead of as missing columns.
    static func checkHeader(_ document: CSVDocument) throws {
        for line in document.lines.prefix(64) {
            let length = (line.cells.last?.upperBound ?? 0) - (line.cells.first?.lowerBound ?? 0)
            guard length <= maximumLineBytes else {
                throw TraceError(file: document.file, line: line.number, problem: .lineTooLong(limit: maximumLineBytes))
            }
            guard document.isComment(line) || line.cells.count <= maximumColumns else {
                throw TraceError(file: document.file, line: line.number, problem: .tooManyColumns(found: line.cells.count, limit: maximumColumns))
            }
        }
    }
}

/// The trace format's version, written in its first line.
public enum TraceFormatVersion {
    public static let current = 1
}
