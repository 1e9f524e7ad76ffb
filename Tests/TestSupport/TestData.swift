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

    /// `../shared/data/<name>` beside the repository, or `$TILTKIT_SHARED_DATA/<name>`.
    /// Returns nil (after printing why) when absent outside CI; under CI its absence is an error
    /// the caller must turn into a failure.
    public static func sharedData(_ name: String) -> URL? {
        let env = ProcessInfo.processInfo.environment["TILTKIT_SHARED_DATA"]
        let base = env.map { URL(fileURLWithPath: $0) }
            ?? repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
        let url = base.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        print("note: \(url.path) is absent; tests on the large data sets skip (set TILTKIT_SHARED_DATA)")
        return nil
    }
}
