import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A real Dolphin (Debian's `dolphin-emu`, under Xvfb) given only the file `serve dsu --print-config
/// dolphin` prints, in a fresh user folder: it connects to `tiltkit serve dsu` and names the slot
/// `DSUClient/0/Tiltkit`. The server is on a port Dolphin does not default to and the name exists
/// only in that file, so a wrong section, key or entry format leaves Dolphin without the device and
/// the server without a client.
@Suite("Dolphin reads the config serve dsu prints")
struct DolphinReadsDSUConfigTests {
    static let dolphin = ["/usr/games/dolphin-emu", "/usr/bin/dolphin-emu"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let xvfb = ["/usr/bin/Xvfb"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let ready = CLIConventionsTests.built && ((dolphin != nil && xvfb != nil) || TestData.isCI)
    static let reason: Comment = "needs tiltkit built beside the tests, dolphin-emu and Xvfb (scripts/setup.sh installs them); under CI=true this fails instead"

    @Test("a fresh Dolphin user folder with only DSUClient.ini connects to serve dsu", .enabled(if: ready, reason))
    func dolphinConnects() throws {
        let dolphin = try #require(Self.dolphin, "dolphin-emu is not installed")
        let xvfb = try #require(Self.xvfb, "Xvfb is not installed")
        let executable = try #require(PedometerCommandTests.executable, "tiltkit is not built beside the tests")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-dolphin-\(UUID().uuidString)")
        let config = folder.appendingPathComponent("Config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try Self.freeUDPPort()

        let printed = try CLIConventionsTests.run(["serve", "dsu", "--print-config", "dolphin", "--port", "\(port)"])
        #expect(printed.status == 0, "\(printed.err)")
        try printed.out.write(to: config.appendingPathComponent("DSUClient.ini"), atomically: true, encoding: .utf8)
        // Dolphin's controller-interface log (PLAY_FACTS: category CI), written to Logs/dolphin.log.
        try "[Logs]\nCI = True\n[Options]\nVerbosity = 4\nWriteToFile = True\n"
            .write(to: config.appendingPathComponent("Logger.ini"), atomically: true, encoding: .utf8)

        let server = Process()
        server.executableURL = executable
        server.arguments = ["serve", "dsu", "--source", MapCommandTests.trace.path, "--port", "\(port)", "--json", "--status-interval", "0"]
        let summary = Pipe()
        server.standardOutput = summary
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { server.terminate() } }

        // Xvfb picks a free display and writes its number on stdout (-displayfd 1).
        let display = Process()
        display.executableURL = URL(fileURLWithPath: xvfb)
        display.arguments = ["-displayfd", "1", "-screen", "0", "800x600x24", "-nolisten", "tcp"]
        let displayNumber = Pipe()
        display.standardOutput = displayNumber
        display.standardError = FileHandle.nullDevice
        let shown = ReceivedText()
        displayNumber.fileHandleForReading.readabilityHandler = { shown.append($0.availableData) }
        try display.run()
        // SIGKILL: a child of the test runner starts with SIGTERM blocked (the runner's signal mask).
        defer { if display.isRunning { kill(display.processIdentifier, SIGKILL); display.waitUntilExit() } }
        #expect(shown.wait(for: "\n", seconds: 15), "Xvfb did not start")
        displayNumber.fileHandleForReading.readabilityHandler = nil
        let number = try #require(Int(shown.value.trimmingCharacters(in: .whitespacesAndNewlines)), "Xvfb said '\(shown.value)'")

        let started = Date()
        let emulator = Process()
        emulator.executableURL = URL(fileURLWithPath: dolphin)
        emulator.arguments = ["-u", folder.path]
        // Qt's settings and caches go to the test's folder, not the user's home.
        emulator.environment = ProcessInfo.processInfo.environment.merging(
            ["DISPLAY": ":\(number)", "QT_QPA_PLATFORM": "xcb", "LIBGL_ALWAYS_SOFTWARE": "1",
             "HOME": folder.path, "XDG_CONFIG_HOME": folder.path, "XDG_DATA_HOME": folder.path,
             "XDG_CACHE_HOME": folder.path, "XDG_RUNTIME_DIR": folder.path]) { $1 }
        emulator.standardOutput = FileHandle.nullDevice
        emulator.standardError = FileHandle.nullDevice
        try emulator.run()
        defer { if emulator.isRunning { kill(emulator.processIdentifier, SIGKILL) } }

        let log = folder.appendingPathComponent("Logs/dolphin.log")
        let device = "Added device: DSUClient/0/Tiltkit"
        var text = ""
        while Date().timeIntervalSince(started) < 30, emulator.isRunning, !text.contains(device) {
            Thread.sleep(forTimeInterval: 0.1)
            text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }
        let seen = Date().timeIntervalSince(started)
        // A second of streaming: Dolphin asks for the slot's pad data, not only its state.
        Thread.sleep(forTimeInterval: 1)
        kill(emulator.processIdentifier, SIGKILL)
        emulator.waitUntilExit()
        server.terminate()
        server.waitUntilExit()
        let json = summary.fileHandleForReading.readDataToEndOfFile()
        let served = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any], "serve dsu printed no summary")
        let dsuLines = text.split(separator: "\n").filter { $0.contains("DSUClient") || $0.contains("DualShockUDPClient") }
        print("Dolphin: '\(device)' after \(String(format: "%.1f", seen)) s; serve dsu: clients \(served["clients_seen"] ?? "?"), requests \(served["requests"] ?? "?"), pad-data packets \(served["pad_data_packets"] ?? "?")")

        #expect(text.contains(device), "Dolphin's log never named the server's slot: \(dsuLines.suffix(6).joined(separator: " | "))")
        #expect(served["clients_seen"] as? Int == 1, "serve dsu saw \(served["clients_seen"] ?? "no") clients")
        #expect((served["pad_data_packets"] as? Int ?? 0) > 20, "Dolphin did not subscribe to the slot's pad data")
    }

    /// A UDP port nothing listens on now (the kernel's pick for port 0).
    static func freeUDPPort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        try #require(bound, "no free UDP port: errno \(errno)")
        return UInt16(bigEndian: address.sin_port)
    }
}
