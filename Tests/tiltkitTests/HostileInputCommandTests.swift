import Foundation
import Testing
import TestSupport

/// Every command that takes a path or an IIO device, given what a hostile tester gives it: a
/// named FIFO with no writer (refused at once, not waited on), an IIO device whose attributes
/// cannot be trusted (refused with the attribute's path and value), a rate no device takes.
/// Each ends with one line on stderr and exit status 1: no crash, no hang.
@Suite("hostile input: FIFOs and untrustworthy IIO attributes, every command")
struct HostileInputCommandTests {
    static let built = PedometerCommandTests.executable != nil || TestData.isCI
    static let reason: Comment = "tiltkit is not built beside the tests; under CI=true this fails instead"

    /// Runs tiltkit with `arguments`, its output into files (no pipe to fill), killed after
    /// `seconds`: a run that had to be killed is reported as a hang, status nil.
    static func run(_ arguments: [String], seconds: Double = 20) throws -> (status: Int32?, err: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let errURL = folder.appendingPathComponent("err")
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = try #require(PedometerCommandTests.executable, "tiltkit is not built beside the tests")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return (nil, try String(contentsOf: errURL, encoding: .utf8))
        }
        return (process.terminationStatus, try String(contentsOf: errURL, encoding: .utf8))
    }

    static func expectOneLineError(_ arguments: [String], containing parts: [String],
                                   sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try run(arguments)
        #expect(r.status == 1, "\(arguments): \(r.status.map { "exit \($0)" } ?? "hung"); \(r.err)", sourceLocation: sourceLocation)
        #expect(r.err.split(separator: "\n").count == 1, "\(arguments): \(r.err)", sourceLocation: sourceLocation)
        for part in parts { #expect(r.err.contains(part), "\(arguments): \(r.err)", sourceLocation: sourceLocation) }
    }

    @Test("a named FIFO with no writer, given as a file, is refused at once by every command that reads one",
          .enabled(if: built, reason))
    func fifoPaths() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("trace.csv").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let out = folder.appendingPathComponent("out.csv").path
        let pipe = "\(fifo): cannot read: a pipe, not a file"
        let cases: [([String], String)] = [
            (["replay", fifo], pipe),
            (["record", "--source", fifo, "--duration", "1", "--out", out], pipe),
            (["fuse", fifo, "--out", out], pipe),
            (["convert", fifo, out], pipe),
            (["compare", fifo], pipe),
            (["pedometer", fifo], pipe),
            (["activity", fifo], pipe),
            (["serve", "dsu", "--source", fifo, "--duration", "1"], pipe),
            (["map", "--source", fifo, "--dry-run", "--duration", "1"], pipe),
            (["history", "query", fifo], "\(fifo): not a regular file"),
            (["map", "--profile", fifo, "--dry-run", "--duration", "1"], "\(fifo): is not a regular file"),
            (["record", "--source", "hid-recording:\(fifo)", "--duration", "1", "--out", out], "a pipe, not a file"),
        ]
        for (arguments, expected) in cases { try Self.expectOneLineError(arguments, containing: [expected]) }
    }

    /// A polled IMU's sysfs folder: accelerometer only, its scale and rate as given.
    static func device(scale: String = "0.000598", rate: String = "50") throws -> (root: URL, directory: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-iio-cli-\(UUID().uuidString)")
        let directory = root.appendingPathComponent("iio:device0").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let attributes = ["name": "mpu6050", "sampling_frequency": rate, "in_accel_scale": scale,
                          "in_accel_x_raw": "0", "in_accel_y_raw": "0", "in_accel_z_raw": "16384"]
        for (file, value) in attributes { try (value + "\n").write(toFile: directory + "/" + file, atomically: true, encoding: .utf8) }
        return (root, directory)
    }

    @Test("an IIO device with a bad scale or rate is refused by record, serve and map, naming the attribute and its value",
          .enabled(if: built, reason), arguments: [("scale", "garbage"), ("scale", "nan"), ("scale", "0"),
                                                    ("rate", "0.0000000001"), ("rate", "-100"), ("rate", "nan"), ("rate", "inf")])
    func untrustworthyDevice(attribute: String, value: String) throws {
        let (root, directory) = attribute == "scale" ? try Self.device(scale: value) : try Self.device(rate: value)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = attribute == "scale" ? "in_accel_scale" : "sampling_frequency"
        let parts = ["\(directory)/\(file)", "'\(value)'"]
        for kind in ["iio", "iio-buffer"] {
            try Self.expectOneLineError(["record", "--source", "\(kind):\(directory)", "--duration", "1", "--out", root.path + "/out.csv"],
                                        containing: parts)
        }
        try Self.expectOneLineError(["serve", "dsu", "--source", "iio:\(directory)", "--duration", "1"], containing: parts)
        try Self.expectOneLineError(["map", "--source", "iio:\(directory)", "--dry-run", "--duration", "1"], containing: parts)
    }

    @Test("rate= that no device takes is refused before any device is opened", .enabled(if: built, reason),
          arguments: ["0", "-1", "nan", "inf", "1e-300", "1e300", "fast"])
    func requestedRates(value: String) throws {
        try Self.expectOneLineError(["record", "--source", "iio:/nonexistent,rate=\(value)", "--duration", "1", "--out", "/tmp/unused.csv"],
                                    containing: ["rate= needs Hz from 0.000001 to 1000000, got '\(value)'"])
    }

    @Test("a hub at rest (rate 0) is asked for the rate and recorded; stderr says so", .enabled(if: built, reason))
    func restingHub() throws {
        let (root, directory) = try Self.device(rate: "0.000000")
        defer { try? FileManager.default.removeItem(at: root) }
        let r = try Self.run(["record", "--source", "iio:\(directory)", "--duration", "0.3", "--out", root.path + "/out.csv"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("\(directory): sampling_frequency reads 0 (a sensor hub at rest); asked it for 100 Hz, it took 100 Hz"), "\(r.err)")
    }

    /// Outputs a hostile tester names: a device, a pipe another program reads, a symbolic link and a
    /// folder. Written whole and renamed over, `/dev/null` itself became a regular file (as root, for
    /// every program on the machine); now a device or a pipe is written as it is, a link's file is
    /// replaced and the link kept, a folder refused in one line.
    @Test("an output that is /dev/null, a FIFO, a symbolic link or a folder: written through, or refused in one line",
          .enabled(if: built, reason))
    func specialOutputs() throws {
        let trace = TestData.assets.appendingPathComponent("traces/broad/01_undisturbed_slow_rotation_A_26-61s.csv").path
        func isCharacterDevice(_ path: String) -> Bool {
            var info = stat()
            return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR
        }
        #expect(isCharacterDevice("/dev/null"))
        for arguments in [["fuse", trace, "--out", "/dev/null"], ["convert", trace, "/dev/null"],
                          ["record", "--source", trace, "--duration", "0.5", "--out", "/dev/null"]] {
            let r = try Self.run(arguments)
            #expect(r.status == 0, "\(arguments): \(r.err)")
            #expect(isCharacterDevice("/dev/null"), "\(arguments) replaced /dev/null")
        }
        try Self.expectOneLineError(["map", "--source", trace, "--plot", "/dev/null"],
                                    containing: ["/dev/null: is a device, a pipe or a socket, not a file"])
        #expect(isCharacterDevice("/dev/null"))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-outputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // a FIFO another program reads: the rows go through it
        let fifo = folder.appendingPathComponent("rows.csv").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let received = ReadBytes()
        let reader = Thread {
            guard let handle = FileHandle(forReadingAtPath: fifo) else { return }
            received.set(handle.readDataToEndOfFile())
        }
        reader.start()
        let piped = try Self.run(["fuse", trace, "--out", fifo])
        #expect(piped.status == 0, "\(piped.err)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
        let deadline = Date().addingTimeInterval(10)
        while received.get().isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let text = String(decoding: received.get(), as: UTF8.self)
        #expect(text.hasPrefix("t,qw,qx,qy,qz,"))
        #expect(text.split(separator: "\n").count == 10_001)   // the header and a row per sample
        // a symbolic link: the file it names gets the rows, the link stays a link
        let real = folder.appendingPathComponent("real.csv").path, link = folder.appendingPathComponent("link.csv").path
        try "old\n".write(toFile: real, atomically: false, encoding: .utf8)
        #expect(symlink(real, link) == 0)
        let linked = try Self.run(["fuse", trace, "--out", link])
        #expect(linked.status == 0, "\(linked.err)")
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link was replaced")
        #expect(try String(contentsOfFile: real, encoding: .utf8).hasPrefix("t,qw,"))
        // a folder
        try Self.expectOneLineError(["fuse", trace, "--out", folder.path], containing: ["\(folder.path): is a folder; give a file to write"])
    }
}

/// What a reader thread read, handed to the test's thread.
private final class ReadBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ bytes: Data) { lock.withLock { data = bytes } }
    func get() -> Data { lock.withLock { data } }
}
