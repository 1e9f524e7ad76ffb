import Foundation

/// Finds files in the repository's `Assets/` folder from wherever tiltkit runs: `$TILTKIT_ASSETS`,
/// then `./Assets`, then an `Assets/` beside the executable or in any folder above it (so a
/// `.build/debug/tiltkit` finds the checkout's assets).
///
///     guard let url = AssetLocator.defaultTrace else { … }   // Assets/traces/xio/sensor_data.csv
public enum AssetLocator {
    /// Names a folder that holds the assets (the `Assets/` folder itself).
    public static let environmentVariable = "TILTKIT_ASSETS"
    /// The demo's input when no device is present: x-io's 135 s IMU recording (still, pitch, roll, yaw, knocks).
    public static let defaultTracePath = "traces/xio/sensor_data.csv"

    public static var defaultTrace: URL? { locate(defaultTracePath) }

    /// `Assets/<relativePath>` in the first candidate folder that has it.
    public static func locate(_ relativePath: String) -> URL? {
        for folder in candidateFolders() {
            let url = folder.appendingPathComponent(relativePath)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        return nil
    }

    /// The folders searched, in order (for error messages).
    public static func candidateFolders() -> [URL] {
        var folders: [URL] = []
        if let env = ProcessInfo.processInfo.environment[environmentVariable], !env.isEmpty {
            folders.append(URL(fileURLWithPath: env))
        }
        folders.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Assets"))
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            var dir = executable.deletingLastPathComponent()
            while dir.path != "/" && !dir.path.isEmpty {
                folders.append(dir.appendingPathComponent("Assets"))
                dir = dir.deletingLastPathComponent()
            }
        }
        return folders
    }
}
