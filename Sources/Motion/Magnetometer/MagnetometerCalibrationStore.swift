import Foundation

/// Keeps each device's magnetometer calibration between runs, one small JSON file per device under
/// `$XDG_STATE_HOME/tiltkit/magnetometer/` (else `~/.local/state/tiltkit/magnetometer/`), as the XDG
/// base-directory specification places state that should persist but is not worth a backup.
///
///     let store = MagnetometerCalibrationStore()
///     if let saved = store.load(device: source.info.name) { manager.restoreMagnetometerCalibration(saved) }
///     …
///     if let learned = manager.magnetometerCalibration { try store.save(learned, device: source.info.name) }
public struct MagnetometerCalibrationStore: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// The XDG state directory's `tiltkit/magnetometer`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let base = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/state")
        directory = base.appendingPathComponent("tiltkit/magnetometer")
    }

    /// The file for `device` (its name made safe: letters, digits, '-', '_' and '.').
    public func url(device: String) -> URL {
        let safe = String(device.unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) ? Character($0) : "_"
        })
        return directory.appendingPathComponent((safe.isEmpty ? "device" : String(safe.prefix(120))) + ".json")
    }

    /// The stored calibration, or nil when there is none or the file is unreadable or out of range
    /// (a broken file is ignored and will be overwritten, never trusted).
    public func load(device: String) -> MagnetometerCalibration? {
        guard let data = try? Data(contentsOf: url(device: device)) else { return nil }
        return try? JSONDecoder().decode(MagnetometerCalibration.self, from: data)
    }

    public func save(_ calibration: MagnetometerCalibration, device: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(calibration).write(to: url(device: device), options: .atomic)
    }
}
