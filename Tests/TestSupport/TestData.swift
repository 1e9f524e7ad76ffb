import Foundation

/// Where the tests find the repository's own files and the optional large data sets.
public enum TestData {
    /// The repository root (found from this file's path, so it works from any working directory).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Assets/` in the repository.
    public static var assets: URL { repositoryRoot.appendingPathComponent("Assets") }

    /// True under CI (`CI=true`), where large data sets must be present and nothing may skip.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The sanitizer this run is built with (`scripts/sanitize.sh` sets it), if any.
    public static var sanitizer: String? { ProcessInfo.processInfo.environment["TILTKIT_SANITIZER"] }

    /// `../shared/data/<name>` beside the repository, or `$TILTKIT_SHARED_DATA/<name>`, present or not.
    public static func sharedDataLocation(_ name: String) -> URL {
        let env = ProcessInfo.processInfo.environment["TILTKIT_SHARED_DATA"]
        let base = env.map { URL(fileURLWithPath: $0) }
            ?? repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
        return base.appendingPathComponent(name)
    }

    public static func hasSharedData(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: sharedDataLocation(name).path)
    }

    /// The shared data set `name`, for a test marked `.needsSharedData(name)`: such a test runs
    /// only when the data is present or under CI, where its absence throws and fails the test.
    public static func requireSharedData(_ name: String) throws -> URL {
        let url = sharedDataLocation(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw Recordings.Missing(description: "\(url.path) is absent; it is required under CI (set TILTKIT_SHARED_DATA)")
        }
        return url
    }
}
