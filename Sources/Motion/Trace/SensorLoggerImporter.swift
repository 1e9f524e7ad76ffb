import Foundation

/// Reads a Sensor Logger export (app by Kelvin Choi, github.com/tszheichoi/awesome-sensor-logger):
/// a folder with one CSV per sensor, each `time` (ns since epoch), `seconds_elapsed`, then the
/// values named (`z,y,x`; Orientation `qz,qy,qx,qw,roll,pitch,yaw`), read by name.
///
/// Streams have their own timestamps; the raw accelerometer (`AccelerometerUncalibrated`, or
/// else `Accelerometer` + `Gravity`) sets the timeline and every other stream contributes its
/// sample nearest in time, if within half a period (see `SensorLoggerSamples`, which merges the
/// files as it reads them). Units and signs follow `Metadata.csv`:
/// on iOS without "Standardise Units & Frames", AccelerometerUncalibrated is in g and
/// Accelerometer/Gravity in m/s², all with Apple's sign, and Orientation is CMAttitude's
/// quaternion; on Android or when standardised, acceleration is m/s² with Android's sign
/// (the negative of Apple's), and Orientation follows Android's frame, so it is not used.
enum SensorLoggerImporter {
    /// Standard gravity, m/s² (the value Sensor Logger's m/s² conversions assume).
    static let standardGravity = 9.80665
    static let metadataFile = "Metadata.csv"
    static let uncalibratedAccelerometerFile = "AccelerometerUncalibrated.csv"
    static let userAccelerationFile = "Accelerometer.csv"
    static let gravityFile = "Gravity.csv"
    static let gyroscopeFile = "Gyroscope.csv"
    static let magnetometerFile = "Magnetometer.csv"
    static let orientationFile = "Orientation.csv"
    /// `relativeAltitude` (m) and `pressure`, in hPa (mbar) on both platforms (awesome-sensor-logger's
    /// UNITS.md; the Apple Watch's own barometer, a separate file, is in kPa).
    static let barometerFile = "Barometer.csv"

    static func looksLikeExport(_ folder: URL) -> Bool {
        [metadataFile, uncalibratedAccelerometerFile, userAccelerationFile].contains { file(named: $0, in: folder) != nil }
    }

    /// The file in `folder` named `name`, ignoring case (exports have used `metadata.csv` and `Metadata.csv`).
    static func file(named name: String, in folder: URL) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.first { $0 == name } ?? names.first { $0.lowercased() == name.lowercased() }
    }

    /// Platform and standardisation from `Metadata.csv` (a header row and one value row).
    struct Conventions {
        /// iOS without "Standardise Units & Frames" (setting added in Sensor Logger 1.29).
        let applesSignAndG: Bool

        /// From the folder's `Metadata.csv`: its first two lines, read as one piece of at most 2 MB.
        init(folder: URL, name: String) throws {
            let pieces = try SensorLoggerSensorFile.pieces(metadataFile, in: folder, name: name, required: true,
                                                           pieceSize: 2 * TraceFormat.maximumLineBytes)!
            let metadata = try pieces.first()
            try TraceFormat.checkHeader(metadata)
            if metadata.isEmpty && pieces.isAtEnd { throw TraceError(file: metadata.file, line: 1, problem: .emptyFile) }
            if metadata.lines.count < 2 && !pieces.isAtEnd {
                // The value row does not end within a piece: no metadata row is that long.
                throw TraceError(file: metadata.file, line: (metadata.lines.last?.number ?? 0) + 1,
                                 problem: .lineTooLong(limit: TraceFormat.maximumLineBytes))
            }
            try self.init(metadata: metadata)
        }

        init(metadata: CSVDocument) throws {
            guard metadata.lines.count >= 2 else {
                throw TraceError(file: metadata.file, line: metadata.lines.first?.number ?? 1, problem: .noSamples)
            }
            let header = metadata.lines[0], row = metadata.lines[1]
            try metadata.checkCellCount(row, expected: header.cells.count)
            let names = header.cells.map { metadata.text($0).lowercased() }
            guard let platformIndex = names.firstIndex(of: "platform") else {
                throw TraceError(file: metadata.file, line: header.number, problem: .missingColumns(["platform"]))
            }
            let platform = metadata.text(row.cells[platformIndex]).lowercased()
            guard platform == "ios" || platform == "android" else {
                throw TraceError(file: metadata.file, line: row.number, problem: .badMetadata("platform '\(platform)'"))
            }
            let standardised = names.firstIndex(where: { $0.contains("standardis") }).map {
                ["true", "1", "yes", "on"].contains(metadata.text(row.cells[$0]).lowercased())
            } ?? false
            applesSignAndG = platform == "ios" && !standardised
        }
    }
}
