import Foundation

/// A file a command writes, made under a temporary name in the same folder and renamed over its
/// path only once whole (fsynced first): a failed or interrupted write never leaves half a file
/// where a good one was. Not committed, the temporary file is removed: when this object goes, at
/// Ctrl-C or SIGTERM (unless the command handles those itself, see `InterruptFlag`).
///
///     let out = try OutputFile("fused.csv", reading: ["walk.csv"])
///     let writer = try LineFileWriter(path: out.temporaryPath, name: out.path)
///     …
///     try writer.close()
///     try out.commit()
final class OutputFile {
    /// Where the file goes, as given.
    let path: String
    /// Where it is written until `commit()`.
    let temporaryPath: String
    private var finished = false

    /// Refuses `path` when it is one of `inputs` (see `OutputPath.refuseOverwriting`), then makes
    /// the temporary file beside it: `.NAME.tiltkit-XXXXXX`.
    init(_ path: String, reading inputs: [String] = []) throws {
        try OutputPath.refuseOverwriting(path, inputs: inputs)
        self.path = path
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var template = Array("\(folder)/.\(url.lastPathComponent).tiltkit-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw OutputFileError(path: path, what: "cannot write", code: errno, folder: folder) }
        // mkstemp makes it private (0600); the file the user asked for gets the usual mode.
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        close(fd)
        temporaryPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        PendingOutputs.add(temporaryPath)
    }

    deinit { if !finished { discard() } }

    /// Syncs the temporary file and renames it over `path`.
    func commit() throws {
        guard !finished else { return }
        let fd = open(temporaryPath, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            defer { close(fd) }
            guard fsync(fd) == 0 || errno == EINVAL else {
                let code = errno
                discard()
                throw OutputFileError(path: path, what: "cannot write", code: code, folder: nil)
            }
        }
        guard rename(temporaryPath, path) == 0 else {
            let code = errno
            discard()
            throw OutputFileError(path: path, what: "cannot write", code: code, folder: nil)
        }
        finished = true
        PendingOutputs.remove(temporaryPath)
        // The rename itself survives a power cut once the folder is synced.
        let folder = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 { fsync(folder); close(folder) }
    }

    /// Removes the temporary file; `path` keeps what it held.
    func discard() {
        guard !finished else { return }
        finished = true
        unlink(temporaryPath)
        PendingOutputs.remove(temporaryPath)
    }
}

/// An output that could not be made or put in place: the path, what failed, the system's reason.
struct OutputFileError: Error, CustomStringConvertible {
    let path: String
    let what: String
    let code: Int32
    /// The folder it goes in, named when that folder is the problem.
    let folder: String?
    var description: String {
        if code == ENOENT, let folder { return "\(path): \(what): no folder \(folder)" }
        return "\(path): \(what): \(SystemWords.reason(code))"
    }
}

/// Temporary outputs not yet committed, removed when SIGINT or SIGTERM ends the process.
enum PendingOutputs {
    /// C strings, so the signal handler only reads pointers and calls unlink(2) (async-signal-safe).
    nonisolated(unsafe) private static var paths: [UnsafeMutablePointer<CChar>] = []
    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed = false

    static func add(_ path: String) {
        lock.lock(); defer { lock.unlock() }
        paths.append(strdup(path))
        guard !installed else { return }
        installed = true
        for number in [SIGINT, SIGTERM] {
            // A command that takes Ctrl-C itself (`InterruptFlag`) replaces this handler.
            signal(number) { number in
                for path in PendingOutputs.paths { unlink(path) }
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    static func remove(_ path: String) {
        lock.lock(); defer { lock.unlock() }
        if let i = paths.firstIndex(where: { String(cString: $0) == path }) { free(paths.remove(at: i)) }
    }
}
