import Foundation
import Testing
import TestSupport

/// Every command that reads a file, against every kind of input a hostile tester brings: each must
/// end with status 1 and exactly one line on stderr that names the path and holds no raw bytes, and
/// an output over the input must leave the input byte for byte as it was.
@Suite("every command against hostile input")
struct HostileInputTests {
    /// A command line with `{in}` for the input and `{out}` for the output (nil: it writes none).
    struct Command: Sendable {
        var name: String
        var arguments: [String]
        var writes: Bool { arguments.contains("{out}") }
    }

    static let commands: [Command] = [
        Command(name: "replay", arguments: ["replay", "{in}"]),
        Command(name: "record", arguments: ["record", "--source", "{in}", "--out", "{out}", "--speed", "100"]),
        Command(name: "record hid-recording", arguments: ["record", "--source", "hid-recording:{in}", "--out", "{out}"]),
        Command(name: "fuse", arguments: ["fuse", "{in}", "--out", "{out}"]),
        Command(name: "convert", arguments: ["convert", "{in}", "{out}"]),
        Command(name: "compare", arguments: ["compare", "{in}"]),
        Command(name: "pedometer", arguments: ["pedometer", "{in}"]),
        Command(name: "bench pedometer", arguments: ["bench", "pedometer", "{in}"]),
        Command(name: "activity", arguments: ["activity", "{in}"]),
        Command(name: "bench activity", arguments: ["bench", "activity", "{in}"]),
        Command(name: "history query", arguments: ["history", "query", "{in}"]),
        Command(name: "history summary", arguments: ["history", "summary", "{in}"]),
        Command(name: "history record", arguments: ["history", "record", "--source", "{in}", "--out", "{out}", "--duration", "1"]),
        Command(name: "map --source", arguments: ["map", "--source", "{in}", "--dry-run", "--duration", "1"]),
        Command(name: "map --profile", arguments: ["map", "--profile", "{in}", "--dry-run", "--duration", "1"]),
        Command(name: "map --plot", arguments: ["map", "--source", "{in}", "--plot", "{out}"]),
    ]

    /// The kinds of input: where the input is, and where the output goes.
    enum Hostility: String, CaseIterable, Sendable {
        case missing, directory, devNull = "/dev/null", zeroBytes = "zero bytes", longLine = "a 10 MB line",
             binary = "binary garbage", outputIsInput = "output same as input", outputInMissingFolder = "output in a missing folder"
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var command: Command
        var hostility: Hostility
        var testDescription: String { "\(command.name): \(hostility.rawValue)" }
    }

    /// Every command × every kind that applies (the output kinds only where there is an output; a
    /// folder is what bench activity reads, so that pair is left out, as are the two that are
    /// valid: an empty profile, and --plot into a folder it makes).
    static let cases: [Case] = commands.flatMap { command in
        Hostility.allCases.compactMap { kind -> Case? in
            if [.outputIsInput, .outputInMissingFolder].contains(kind) && !command.writes { return nil }
            if kind == .directory && command.name == "bench activity" { return nil }
            // An empty profile is the default one; --plot makes its folder, as compare --plot does.
            if kind == .zeroBytes && command.name == "map --profile" { return nil }
            if kind == .outputInMissingFolder && command.name == "map --plot" { return nil }
            return Case(command: command, hostility: kind)
        }
    }

    /// The inputs, made once: a folder, an empty file, a file of one 10 MB line, random bytes.
    static let fixtures: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-hostile-\(getpid())")
        try? FileManager.default.createDirectory(at: folder.appendingPathComponent("folder"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("zero.csv").path, contents: Data())
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("long.csv").path,
                                       contents: Data(repeating: UInt8(ascii: "7"), count: 10_000_000) + Data("\n".utf8))
        var random = SplitMix64(seed: 7)
        let garbage = (0..<65_536).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("garbage.bin").path, contents: Data(garbage))
        return folder
    }()

    @Test("one line naming the path, status 1, no raw bytes, the input untouched",
          .enabled(if: PedometerCommandTests.executable != nil || TestData.isCI, "tiltkit is not built beside the tests; under CI=true this fails instead"),
          arguments: cases)
    func hostileInput(_ c: Case) throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-hostile-case-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        // A good input of the command's kind, for the output cases.
        let isCapture = c.command.name == "record hid-recording"
        let trace = work.appendingPathComponent(isCapture ? "capture.hid-recording" : "trace.csv")
        let good = isCapture ? TestData.repositoryRoot.appendingPathComponent("Assets/hid/ds4-usb-clone.hid-recording")
                             : try Recordings.url("xio/sensor_data.csv")
        try Data(contentsOf: good).write(to: trace)
        let isPlot = c.command.name == "map --plot"
        var input: String, output = work.appendingPathComponent(isPlot ? "out.svg" : "out.csv").path
        switch c.hostility {
        case .missing: input = work.appendingPathComponent("missing.csv").path
        case .directory: input = Self.fixtures.appendingPathComponent("folder").path
        case .devNull: input = "/dev/null"
        case .zeroBytes: input = Self.fixtures.appendingPathComponent("zero.csv").path
        case .longLine: input = Self.fixtures.appendingPathComponent("long.csv").path
        case .binary: input = Self.fixtures.appendingPathComponent("garbage.bin").path
        case .outputIsInput:
            input = trace.path
            // Through a hard link: another name, the same file.
            output = work.appendingPathComponent(isPlot ? "link.svg" : "link.csv").path
            try FileManager.default.linkItem(atPath: trace.path, toPath: output)
        case .outputInMissingFolder:
            input = trace.path
            output = work.appendingPathComponent("missing/out.csv").path
        }
        if c.command.name == "map --profile" && [.outputIsInput, .outputInMissingFolder].contains(c.hostility) { return }
        let before = try Data(contentsOf: trace)
        let arguments = c.command.arguments.map {
            $0.replacingOccurrences(of: "{in}", with: input).replacingOccurrences(of: "{out}", with: output)
        }
        let result = try ChildProcess.run(try #require(PedometerCommandTests.executable), arguments)
        #expect(result.status == 1, "\(arguments): \(result.err)")
        let lines = result.err.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "exactly one line: \(result.err.prefix(2000))")
        let named = [.outputIsInput, .outputInMissingFolder].contains(c.hostility) ? output : input
        #expect(result.err.contains(named), "names \(named): \(result.err.prefix(500))")
        #expect(!result.err.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F || $0 == "\u{FFFD}" },
                "no raw bytes: \(result.err.debugDescription.prefix(500))")
        #expect(result.err.utf8.count < 1200, "a line, not a dump: \(result.err.utf8.count) bytes")
        #expect(try Data(contentsOf: trace) == before, "the input is untouched")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.contains(".tiltkit-") }
        #expect(leftovers.isEmpty, "no temporary file left: \(leftovers)")
    }

    @Test("a file the user may not read is refused with one line naming it and saying permission was denied",
          .enabled(if: PedometerCommandTests.executable != nil || TestData.isCI, "tiltkit is not built beside the tests; under CI=true this fails instead"),
          // The condition runs only for a test that runs; a comment built from the runner would start a
          // process whenever the tests are listed (the leak checker's run, which filters this test out, too).
          .enabled(if: LockedOutUser.isAvailable, LockedOutUser.skipComment),
          arguments: commands)
    func permissionDenied(_ command: Command) throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-hostile-case-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        // Open to everyone, so the locked input is the only thing the user run as cannot reach.
        chmod(work.path, 0o777)
        // bench activity reads a folder of labelled recordings: there, the folder is what is locked.
        let readsFolder = command.name == "bench activity"
        let input = work.appendingPathComponent(readsFolder ? "locked" : "locked.csv").path
        let trace = readsFolder ? input + "/wlk_1.csv" : input
        if readsFolder { try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: false) }
        try Data(contentsOf: try Recordings.url("xio/sensor_data.csv")).write(to: URL(fileURLWithPath: trace))
        let before = try Data(contentsOf: URL(fileURLWithPath: trace))
        chmod(input, 0)
        defer { chmod(input, 0o700) }  // so the folder can be removed
        let output = work.appendingPathComponent(command.name == "map --plot" ? "out.svg" : "out.csv").path
        let arguments = command.arguments.map {
            $0.replacingOccurrences(of: "{in}", with: input).replacingOccurrences(of: "{out}", with: output)
        }
        let result = try LockedOutUser.run(arguments)
        chmod(input, 0o700)  // readable again, to compare
        #expect(result.status == 1, "\(arguments): \(result.err)")
        #expect(result.err.split(separator: "\n").count == 1 && result.err.contains(input), "one line naming the input: \(result.err)")
        #expect(result.err.lowercased().contains("permission denied"), "says why: \(result.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == before, "the input is untouched")
        #expect(!FileManager.default.fileExists(atPath: output), "nothing written")
    }
}
