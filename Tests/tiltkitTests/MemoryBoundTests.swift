import Foundation
import Motion
import Testing
import TestSupport

/// The commands that read a trace read it a piece at a time: their peak memory does not grow with
/// the trace. (`scripts/memory-bench.py` measures the same on a 1 GB trace against 200 MB.)
/// Not under a sanitizer: its allocator holds freed memory back (ASan's quarantine alone is 256 MB),
/// so the peak measures the sanitizer; the plain run of the suite measures tiltkit.
@Suite("tiltkit commands, memory against trace length",
       .disabled(if: ProcessInfo.processInfo.environment["TILTKIT_SANITIZER"] != nil,
                 "a sanitizer's allocator keeps freed memory, so a peak would measure it; the plain run measures this"))
struct MemoryBoundTests {
    /// A walk, a rest and a turn, repeated: `seconds` of a tiltkit trace at 100 Hz, about 95 bytes a sample.
    static func writeTrace(seconds: Int, to url: URL) throws {
        var text = "# tiltkit-trace v1\n# source: memory test\n# nominal-rate-hz: 100.0\n"
            + "t (s),ax (g),ay (g),az (g),gx (rad/s),gy (rad/s),gz (rad/s),mx (uT),my (uT),mz (uT)\n"
        let output = try #require(FileHandle(forWritingAtPath: { FileManager.default.createFile(atPath: url.path, contents: nil); return url.path }()))
        defer { try? output.close() }
        for i in 0..<(seconds * 100) {
            let t = Double(i) / 100, phase = t.truncatingRemainder(dividingBy: 30)
            let bounce = phase < 10 ? 0.35 * sin(2 * .pi * 2 * t) : 0.001 * sin(7 * t)
            let turn = phase >= 20 ? 1.5 * sin(2 * .pi * 0.25 * t) : 0.0005
            text += String(format: "%.2f,%.5f,0.03,%.5f,%.5f,0.05,%.5f,%.4f,%.4f,-40\n",
                           t, 0.05 * sin(2 * .pi * t), -1 + bounce, 0.1 * sin(4 * .pi * t), turn, 20 * cos(0.3 * t), 20 * sin(0.3 * t))
            if text.utf8.count > 1 << 20 {
                try output.write(contentsOf: Data(text.utf8))
                text = ""
            }
        }
        try output.write(contentsOf: Data(text.utf8))
    }

    /// GNU time, which forks the command from its own small process and reports that child's peak.
    static let gnuTime = URL(fileURLWithPath: "/usr/bin/time")
    static let canMeasure = PedometerCommandTests.executable != nil && FileManager.default.isExecutableFile(atPath: gnuTime.path)

    /// Runs tiltkit with `arguments` (output discarded) and returns its exit status and its own peak
    /// resident set in bytes. Measured by GNU time, not by this process's wait4: a child spawned from
    /// here shares this process's memory until its exec, and the kernel keeps that memory's high-water
    /// mark as the child's peak (exec_mmap), so a test process of 200 MB would be read as the command's.
    static func peakMemory(_ arguments: [String]) throws -> (status: Int32, bytes: Int) {
        let executable = try #require(PedometerCommandTests.executable, "tiltkit is not built beside the tests")
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-peak-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let process = Process()
        process.executableURL = gnuTime
        process.arguments = ["--format=%M", "--output=\(report.path)", executable.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        // GNU time writes "Command exited with non-zero status N" before the figure when the command fails.
        let lines = try String(contentsOf: report, encoding: .utf8).split(separator: "\n")
        let kilobytes = try #require(lines.last.flatMap { Int($0) }, "GNU time wrote \(lines)")
        return (process.terminationStatus, kilobytes * 1024)
    }

    /// Commands that take a trace file, `{trace}` standing for it (`scripts/memory-bench.py` measures
    /// every command, the headless scenes among them).
    static let traceCommands = [
        ["pedometer", "{trace}"],
        ["activity", "{trace}"],
    ]

    @Test("pedometer and activity peak within a few MB on a trace 4× as long",
          .enabled(if: canMeasure || TestData.isCI,
                   "tiltkit is not built beside the tests, or GNU time is not installed (scripts/setup.sh); under CI=true this fails instead"))
    func memoryDoesNotGrowWithTheTrace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-memory-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let short = folder.appendingPathComponent("short.csv"), long = folder.appendingPathComponent("long.csv")
        // Both longer than a read piece (4 MB), so the shorter shows what a piece costs.
        try Self.writeTrace(seconds: 700, to: short)     // ≈ 5 MB
        try Self.writeTrace(seconds: 2800, to: long)     // ≈ 20 MB
        let grown = try FileManager.default.attributesOfItem(atPath: long.path)[.size] as! Int
            - (try FileManager.default.attributesOfItem(atPath: short.path)[.size] as! Int)
        for command in Self.traceCommands {
            var peaks: [Int] = []
            for trace in [short, long] {
                let arguments = command.map { $0.replacingOccurrences(of: "{trace}", with: trace.path) }
                let (status, bytes) = try Self.peakMemory(arguments)
                #expect(status == 0, "tiltkit \(arguments.joined(separator: " ")) exited \(status)")
                peaks.append(bytes)
            }
            print("tiltkit \(command[0]): peak \(peaks[0] >> 20) MB on 5 MB, \(peaks[1] >> 20) MB on 20 MB")
            // Read whole, the longer trace adds about six times its extra bytes (samples of about 200 bytes
            // each, and the text); read in pieces, only allocator noise, which differs from machine to machine.
            #expect(peaks[1] - peaks[0] < grown,
                    "tiltkit \(command[0]): peak \(peaks[0] >> 20) MB on 5 MB, \(peaks[1] >> 20) MB on 20 MB: memory grows with the trace")
        }
    }

    /// Bytes in the files of `folder`.
    static func size(ofFolder folder: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).reduce(0) {
            $0 + (try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($1).path)[.size] as! Int)
        }
    }

    @Test("a Sensor Logger folder 4× as long: convert and pedometer peak within a few MB",
          .enabled(if: canMeasure || TestData.isCI,
                   "tiltkit is not built beside the tests, or GNU time is not installed (scripts/setup.sh); under CI=true this fails instead"))
    func folderMemoryDoesNotGrow() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-memory-folder-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let short = root.appendingPathComponent("short"), long = root.appendingPathComponent("long")
        // Seven sensor files, about 38 kB a second together, each read 1 MB at a time: the longer
        // folder's larger files span several pieces, the shorter's about one.
        try SensorLoggerFolder(seconds: 150).write(to: short)    // ≈ 6 MB
        try SensorLoggerFolder(seconds: 600).write(to: long)     // ≈ 23 MB
        let grown = try Self.size(ofFolder: long) - Self.size(ofFolder: short)
        for command in [["convert", "{}", "-"], ["pedometer", "{}"]] {
            var peaks: [Int] = []
            for folder in [short, long] {
                let arguments = command.map { $0 == "{}" ? folder.path : $0 }
                let (status, bytes) = try Self.peakMemory(arguments)
                #expect(status == 0, "tiltkit \(arguments.joined(separator: " ")) exited \(status)")
                peaks.append(bytes)
            }
            // Loaded whole, the longer folder adds its text, its parsed lines and its samples: several
            // times its extra bytes. Merged as read, only allocator noise.
            #expect(peaks[1] - peaks[0] < grown,
                    "tiltkit \(command[0]): peak \(peaks[0] >> 20) MB on the short folder, \(peaks[1] >> 20) MB on one \(grown >> 20) MB larger: memory grows with the folder")
        }
    }
}
