import Foundation

/// A trace a command reads, where `-` means standard input. Standard input is copied, a piece at a time, into a
/// private temporary folder first (the readers take files: replay reads twice, and a pipe cannot
/// be read again), as a file called "standard input", so messages say `standard input:12: …`.
/// The folder goes when the process exits.
///
///     let url = try InputPath.url("-")          // …/tiltkit-stdin-1234/standard input, relative path "standard input"
enum InputPath {
    static func url(_ argument: String) throws -> URL {
        guard argument == "-" else { return URL(fileURLWithPath: argument) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-stdin-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        copiedInputFolder = folder.path
        atexit { if let folder = copiedInputFolder { try? FileManager.default.removeItem(atPath: folder) } }
        let url = URL(fileURLWithPath: "standard input", relativeTo: folder)
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
              let copy = FileHandle(forWritingAtPath: url.path) else {
            throw InputCopyFailed(folder: folder.path)
        }
        defer { try? copy.close() }
        // A piece at a time: the input may be larger than memory.
        while let piece = try FileHandle.standardInput.read(upToCount: 1 << 20), !piece.isEmpty {
            do { try copy.write(contentsOf: piece) } catch { throw InputCopyFailed(folder: folder.path) }
        }
        return url
    }
}

/// The folder to remove at exit (atexit's handler captures nothing).
nonisolated(unsafe) private var copiedInputFolder: String?

private struct InputCopyFailed: Error, CustomStringConvertible {
    let folder: String
    var description: String { "standard input: could not keep a copy in \(folder) (expected a writable temporary folder)" }
}
