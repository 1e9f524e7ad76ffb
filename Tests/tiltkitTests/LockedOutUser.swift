import Foundation
import Testing
import TestSupport

/// Runs tiltkit as a user that file permissions stop. Root reads a file chmod 000 as easily as
/// any other, and CI and containers run as root: there, tiltkit runs as `nobody` (uid and gid
/// 65534) through util-linux's `setpriv` (or `runuser`), from a copy in a folder that user may
/// reach when the build folder is not (a checkout under /root, or /work at 0700).
enum LockedOutUser {
    /// The command line that starts tiltkit (its arguments follow), or why this machine has none.
    struct Runner: Sendable {
        var prefix: [String] = []
        var skipReason: String?
    }

    /// When the row skips; `isAvailable` prints `Runner.skipReason`, the detail.
    static let skipComment: Comment =
        "running as root without setpriv or runuser (util-linux) to drop to an unprivileged user, or with no copy of tiltkit that user may run"

    /// Whether tiltkit can run as a locked-out user here; prints why not.
    static var isAvailable: Bool {
        guard let reason = runner.skipReason else { return true }
        print("permission-denied row skipped: \(reason)")
        return false
    }

    static let runner: Runner = {
        // Not built: no prefix, and `run` fails (the test is skipped outside CI).
        guard let tiltkit = PedometerCommandTests.executable else { return Runner() }
        guard geteuid() == 0 else { return Runner(prefix: [tiltkit.path]) }
        let launchers = [("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups"]),
                         ("/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups"]),
                         ("/usr/sbin/runuser", ["-u", "nobody", "--"]),
                         ("/sbin/runuser", ["-u", "nobody", "--"])]
        guard let (launcher, options) = launchers.first(where: { FileManager.default.isExecutableFile(atPath: $0.0) }) else {
            return Runner(skipReason: "running as root without setpriv or runuser (util-linux) to drop to an unprivileged user")
        }
        var prefix = [launcher] + options + [tiltkit.path]
        if runs(prefix) { return Runner(prefix: prefix) }
        // The build folder is out of the user's reach: a copy it may reach, removed at exit.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-locked-out-\(getpid())")
        let copy = folder.appendingPathComponent("tiltkit")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: tiltkit, to: copy)
        } catch {
            return Runner(skipReason: "running as root, and tiltkit could not be copied where nobody may run it: \(error)")
        }
        copiedFolder = folder.path
        atexit { if let folder = copiedFolder { try? FileManager.default.removeItem(atPath: folder) } }
        chmod(folder.path, 0o755)
        chmod(copy.path, 0o755)
        prefix = [launcher] + options + [copy.path]
        guard runs(prefix) else {
            return Runner(skipReason: "running as root, and \(launcher) could not run a copy of tiltkit as nobody")
        }
        return Runner(prefix: prefix)
    }()

    /// tiltkit with `arguments`, run as the locked-out user.
    static func run(_ arguments: [String]) throws -> (status: Int32, out: Data, err: String) {
        let prefix = runner.prefix
        try #require(!prefix.isEmpty, "tiltkit is not built beside the tests")
        return try ChildProcess.run(URL(fileURLWithPath: prefix[0]), Array(prefix.dropFirst()) + arguments)
    }

    /// Whether `prefix` starts tiltkit (`--version` exits 0).
    private static func runs(_ prefix: [String]) -> Bool {
        (try? ChildProcess.run(URL(fileURLWithPath: prefix[0]), Array(prefix.dropFirst()) + ["--version"]).status) == 0
    }
}

/// The copy to remove at exit (atexit's handler captures nothing).
nonisolated(unsafe) private var copiedFolder: String?
