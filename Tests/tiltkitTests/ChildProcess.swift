import Foundation

/// Programs the tests run as a user runs them: found where SwiftPM builds them beside the tests,
/// run to their end with both streams captured.
enum ChildProcess {
    /// The built product `name` beside the test bundle (`swift build --build-tests` builds both), or nil.
    static func builtProduct(_ name: String) -> URL? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// Runs `executable` with `arguments` (and `environment`, default the test's own; in `directory`,
    /// default the test's own) to its end, `input` on its standard input (none: the test's own).
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                    directory: URL? = nil, input: Data? = nil) throws -> (status: Int32, out: Data, err: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        if input != nil { process.standardInput = stdin }
        try process.run()
        if let input {
            // Written beside the reads below: a pipe holds 64 KiB, and the child may not read it all before writing.
            Thread.detachNewThread {
                stdin.fileHandleForWriting.write(input)
                try? stdin.fileHandleForWriting.close()
            }
        }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output, String(decoding: errors, as: UTF8.self))
    }
}
