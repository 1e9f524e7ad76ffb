import Foundation
import ProcessMaps

/// Finds files in the repository's `Assets/` folder from wherever tiltkit runs: `$TILTKIT_ASSETS`,
/// then `./Assets`, then an `Assets/` beside the executable or in any folder above it (so a
/// `.build/debug/tiltkit` finds the checkout's assets), then the same above the file this code
/// was loaded from, with `share/tiltkit/Assets` too (so an installed libtiltkit.so finds what
/// `scripts/install-c-library.sh` put in PREFIX/share/tiltkit).
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
            folders += ancestors(of: executable).map { $0.appendingPathComponent("Assets") }
        }
        if let image = loadedImage, image != Bundle.main.executableURL?.resolvingSymlinksInPath() {
            for dir in ancestors(of: image) {
                folders += [dir.appendingPathComponent("Assets"), dir.appendingPathComponent("share/tiltkit/Assets")]
            }
        }
        return folders
    }

    /// The executable or shared library this code is in (libtiltkit.so for a C program).
    /// The mapping in /proc/self/maps that holds this module's DSO handle names the file. (Swift's
    /// Glibc module hides `dladdr`, and `Bundle(for:)` answers with the main executable.)
    private static var loadedImage: URL? {
        let address = UInt(bitPattern: #dsohandle)
        for line in ProcessMaps.read().split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, let dash = fields[0].firstIndex(of: "-"),
                  let low = UInt(fields[0][..<dash], radix: 16),
                  let high = UInt(fields[0][fields[0].index(after: dash)...], radix: 16),
                  (low..<high).contains(address) else { continue }
            return URL(fileURLWithPath: fields[5...].joined(separator: " ")).resolvingSymlinksInPath()
        }
        return nil
    }

    private static func ancestors(of file: URL) -> [URL] {
        var dirs: [URL] = []
        var dir = file.deletingLastPathComponent()
        while dir.path != "/" && !dir.path.isEmpty {
            dirs.append(dir)
            dir = dir.deletingLastPathComponent()
        }
        return dirs
    }
}
