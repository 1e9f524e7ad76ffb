import Foundation
import ProcessMaps

/// Finds files of the repository's `Assets/` folder wherever Tiltkit runs: in a checkout, installed
/// (`scripts/install.sh`, the .deb), or inside another package that depends on Tiltkit.
///
///     guard let url = AssetLocator.defaultTrace else { … }   // traces/xio/sensor_data.csv
///
/// Each candidate is a folder laid out like `Assets/`, searched in order:
/// 1. `$TILTKIT_ASSETS`, then `./Assets`;
/// 2. for the executable, then for the file this code was loaded from (libtiltkit.so for a C program):
///    the SwiftPM resource bundle beside it (a dependent package's build folder has one), then
///    `Assets/` and `share/tiltkit/Assets` in its folder and every folder above (a checkout's
///    `.build/debug/tiltkit`; an installed `PREFIX/bin/tiltkit` or `PREFIX/lib/libtiltkit.so`);
/// 3. `tiltkit/Assets` in the XDG data folders (`$XDG_DATA_HOME`, `$XDG_DATA_DIRS`: /usr/local/share, /usr/share).
public enum AssetLocator {
    /// Names a folder that holds the assets (the `Assets/` folder itself).
    public static let environmentVariable = "TILTKIT_ASSETS"
    /// The demo's input when no device is present: x-io's 135 s IMU recording (still, pitch, roll, yaw, knocks).
    /// Its one copy lives in MotionSources' resources; `Assets/traces/xio/sensor_data.csv` links to it.
    public static let defaultTracePath = "traces/xio/sensor_data.csv"
    /// MotionSources' resource bundle: SwiftPM names it `<package>_<target>.resources` and puts it beside the
    /// products it builds. Looked up by hand, as the generated `Bundle.module` stops the process when the
    /// bundle is absent (an installed tiltkit has none; it reads `share/tiltkit` instead).
    public static let resourceBundleName = "Tiltkit_MotionSources.resources"

    public static var defaultTrace: URL? { locate(defaultTracePath) }

    /// `<relativePath>` in the first candidate folder that has it.
    public static func locate(_ relativePath: String) -> URL? {
        for folder in candidateFolders() {
            let url = folder.appendingPathComponent(relativePath)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        return nil
    }

    /// The folders searched, in order (error messages list them all).
    public static func candidateFolders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var folders: [URL] = []
        if let env = environment[environmentVariable], !env.isEmpty {
            folders.append(URL(fileURLWithPath: env))
        }
        folders.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Assets"))
        let executable = Bundle.main.executableURL?.resolvingSymlinksInPath()
        for file in [executable, loadedImage == executable ? nil : loadedImage].compactMap({ $0 }) {
            folders.append(file.deletingLastPathComponent().appendingPathComponent(resourceBundleName))
            for dir in ancestors(of: file) {
                folders += [dir.appendingPathComponent("Assets"), dir.appendingPathComponent("share/tiltkit/Assets")]
            }
        }
        folders += xdgDataFolders(environment).map { $0.appendingPathComponent("tiltkit/Assets") }
        var seen = Set<String>()
        return folders.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// The XDG Base Directory data folders, most personal first (freedesktop.org's defaults when unset).
    static func xdgDataFolders(_ environment: [String: String]) -> [URL] {
        var folders: [URL] = []
        if let home = environment["XDG_DATA_HOME"], !home.isEmpty {
            folders.append(URL(fileURLWithPath: home))
        } else if let home = environment["HOME"], !home.isEmpty {
            folders.append(URL(fileURLWithPath: home).appendingPathComponent(".local/share"))
        }
        let dirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        folders += dirs.split(separator: ":").map { URL(fileURLWithPath: String($0)) }
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
