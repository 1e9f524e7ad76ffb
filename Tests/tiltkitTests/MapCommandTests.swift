import Foundation
import Mapper
import Motion
import Testing
import TestSupport

@Suite("tiltkit map, the command")
struct MapCommandTests {
    static var executable: URL? { PedometerCommandTests.executable }
    static let built = executable != nil || TestData.isCI
    static let trace = TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv")

    static func run(_ arguments: [String]) throws -> (status: Int32, out: Data, err: String) {
        try ChildProcess.run(try #require(executable, "tiltkit is not built beside the tests"), arguments)
    }

    @Test("--dry-run on the bundled trace prints exactly the mouse motion the default profile's Mapper gives for its samples",
          .enabled(if: built, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func dryRunTrace() throws {
        let result = try Self.run(["map", "--source", Self.trace.path, "--dry-run", "--speed", "40", "--status-interval", "0"])
        #expect(result.status == 0, "\(result.err)")
        let lines = String(decoding: result.out, as: UTF8.self).split(separator: "\n").map(String.init)

        var mapper = Mapper(profile: .default)
        var expected: [String] = []
        var counts = 0, events = 0
        for sample in try Trace.load(contentsOf: Self.trace).samples {
            let out = mapper.step(sample: sample, controls: .idle)
            var fields: [String] = []
            if out.mouseX != 0 { fields.append("REL_X \(out.mouseX)") }
            if out.mouseY != 0 { fields.append("REL_Y \(out.mouseY)") }
            counts += Int(out.mouseX.magnitude + out.mouseY.magnitude)
            events += fields.count
            if !fields.isEmpty { expected.append(String(format: "%.4f mouse ", sample.timestamp) + fields.joined(separator: " ")) }
        }
        #expect(expected.count > 1000, "the trace should turn the view: \(expected.count) steps move the mouse")
        #expect(lines == expected, "first difference: \(zip(lines, expected).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "in length \(lines.count) vs \(expected.count)")")
        let stderr = result.err.split(separator: "\n").map(String.init)
        #expect(Array(stderr.prefix(2)) == ["tiltkit map: trace xio/sensor_data.csv → dry run: the events for Tiltkit Virtual Mouse, Tiltkit Virtual Gamepad on stdout",
                                            "tiltkit map: this source has no pad buttons or sticks: motion only, the virtual pad at rest"])
        #expect(stderr.last?.hasPrefix("tiltkit map: mapped ") == true && stderr.last?.contains(" \(counts) mouse counts in \(events) events, 0 pad events") == true,
                "\(result.err)")
    }

    @Test("--plot maps the trace offline: the view's turn from the counts lies within a degree of the pad's turn, and a profile's sensitivity doubles both",
          .enabled(if: built, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func plot() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-map-plot-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let profile = folder.appendingPathComponent("double.toml")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "gyro_sens = 2\ngyro_smooth_threshold = 0\n".write(to: profile, atomically: true, encoding: .utf8)
        for arguments in [[], ["--profile", profile.path]] {
            let svg = folder.appendingPathComponent("map\(arguments.count).svg")
            let result = try Self.run(["map", "--source", Self.trace.path, "--plot", svg.path] + arguments)
            #expect(result.status == 0, "\(result.err)")
            let text = String(decoding: result.out, as: UTF8.self)
            // "... at most 0.15° (yaw) and 0.15° (pitch) from the pad's turn × sensitivity"
            let gaps = text.matches(of: /at most ([0-9.]+)° \(yaw\) and ([0-9.]+)° \(pitch\)/).first
            let yaw = try #require(gaps.flatMap { Double($0.1) }, "\(text)")
            let pitch = try #require(gaps.flatMap { Double($0.2) }, "\(text)")
            #expect(yaw < 1 && pitch < 1, "\(text)")
            let chart = try String(contentsOf: svg, encoding: .utf8)
            #expect(chart.contains("sensitivity \(arguments.isEmpty ? "1" : "2")"))
        }
        // The chart never overwrites the trace it maps, under its own name or as the PNG beside it.
        let copy = folder.appendingPathComponent("trace.png")
        try Data(contentsOf: Self.trace).write(to: copy)  // a copy of the bytes: the bundled trace is a relative link
        let before = try Data(contentsOf: copy)
        for target in [copy.path, folder.appendingPathComponent("trace.svg").path] {
            let over = try Self.run(["map", "--source", copy.path, "--plot", target])
            #expect(over.status != 0 && over.err.contains("is the trace being mapped"), "\(over.err)")
        }
        #expect(try Data(contentsOf: copy) == before)
        let device = try Self.run(["map", "--source", "hidraw:/dev/null", "--plot", folder.appendingPathComponent("x.svg").path])
        #expect(device.status != 0 && device.err.contains("--plot maps a trace file"), "\(device.err)")
    }

    @Test("a bad --profile is reported as FILE:LINE: what, and nothing runs",
          .enabled(if: built, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func badProfile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-profile-\(UUID().uuidString).toml")
        defer { try? FileManager.default.removeItem(at: file) }
        try "# aim\ngyro_sens = 2\ngyro_sense = 3\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try Self.run(["map", "--source", Self.trace.path, "--profile", file.path, "--dry-run", "--duration", "1"])
        #expect(result.status != 0)
        #expect(result.err.hasPrefix("tiltkit: \(file.path):3: "), "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1 && result.out.isEmpty, "\(result.err)")
    }

    @Test("without uinput (no module loaded) the command says to load it, in one line, and fails",
          .enabled(if: built, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func missingUInput() throws {
        let result = try Self.run(["map", "--source", Self.trace.path, "--uinput-path", "/nonexistent/uinput", "--duration", "1"])
        #expect(result.status != 0)
        #expect(result.err == "tiltkit: /nonexistent/uinput does not exist: the kernel's uinput module is not loaded (sudo modprobe uinput; "
                + "to load it at every boot: echo uinput | sudo tee /etc/modules-load.d/uinput.conf)\n")
    }

    @Test("the profile is reloaded when its file changes: a bad edit is reported as FILE:LINE and the last good one kept; SIGTERM ends with a summary and exit 0",
          .enabled(if: built, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func reloadAndTerminate() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-reload-\(UUID().uuidString).toml")
        defer { try? FileManager.default.removeItem(at: file) }
        try "gyro_sens = 1\n".write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = try #require(Self.executable)
        process.arguments = ["map", "--source", Self.trace.path, "--profile", file.path, "--dry-run", "--status-interval", "0"]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let text = ReceivedText()
        errors.fileHandleForReading.readabilityHandler = { text.append($0.availableData) }
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        #expect(text.wait(for: "→ dry run"), "\(text.value)")
        try "gyro_sens = 1\ngyro_sense = 2\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(text.wait(for: "tiltkit map: \(file.path):2: "), "\(text.value)")
        #expect(text.value.contains("; keeping the last good profile"))
        try "gyro_sens = 3.5\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(text.wait(for: "tiltkit map: profile reloaded (\(file.path))"), "\(text.value)")
        process.terminate()
        process.waitUntilExit()
        errors.fileHandleForReading.readabilityHandler = nil
        #expect(process.terminationStatus == 0)
        #expect(text.value.contains("tiltkit map: mapped "), "\(text.value)")
    }
}

/// A child's stderr as it arrives.
final class ReceivedText: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ more: Data) { lock.lock(); data.append(more); lock.unlock() }
    var value: String { lock.lock(); defer { lock.unlock() }; return String(decoding: data, as: UTF8.self) }

    /// Waits up to `seconds` for `text` to appear.
    func wait(for text: String, seconds: Double = 15) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if value.contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }
}
