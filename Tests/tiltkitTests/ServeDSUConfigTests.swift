import Foundation
import Testing
import TestSupport

/// `serve dsu --print-config`: a client's settings for the server as it would run, on stdout, read
/// back the way Dolphin reads them (`DualShockUDPClient.cpp`: the `[Server]` section's `Entries`,
/// split at `;` then `:`).
@Suite("tiltkit serve dsu --print-config")
struct ServeDSUConfigTests {
    static let built = CLIConventionsTests.built
    static let reason = CLIConventionsTests.reason

    /// The `[Server]` section's keys, as Dolphin's ini reader sees them (lines before a section and
    /// `#` lines are not settings).
    static func serverSection(_ ini: String) -> [String: String] {
        var section = ""
        var values: [String: String] = [:]
        for line in ini.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("[") { section = line; continue }
            guard section == "[Server]", !line.hasPrefix("#"), let eq = line.firstIndex(of: "=") else { continue }
            values[line[..<eq].trimmingCharacters(in: .whitespaces)] = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
        }
        return values
    }

    @Test("dolphin: DSUClient.ini with the server's address and port, and where it goes", .enabled(if: built, reason))
    func dolphin() throws {
        let r = try CLIConventionsTests.run(["serve", "dsu", "--print-config", "dolphin", "--port", "26799"])
        #expect(r.status == 0, "\(r.err)")
        let server = Self.serverSection(r.out)
        #expect(server["Enabled"] == "True")
        let entries = try #require(server["Entries"]).split(separator: ";").map { $0.split(separator: ":").map(String.init) }
        #expect(entries == [["Tiltkit", "127.0.0.1", "26799"]])
        #expect(r.out.contains("~/.config/dolphin-emu/Config/DSUClient.ini"))
        #expect(r.out.contains("DSUClient/N/Tiltkit"), "names the device Dolphin makes of each slot")
        // Every interface: a client on this machine reaches it at 127.0.0.1.
        let any = try CLIConventionsTests.run(["serve", "dsu", "--print-config", "dolphin", "--bind", "0.0.0.0"])
        #expect(Self.serverSection(any.out)["Entries"] == "Tiltkit:127.0.0.1:26760;")
        let lan = try CLIConventionsTests.run(["serve", "dsu", "--print-config", "dolphin", "--bind", "192.168.1.20"])
        #expect(Self.serverSection(lan.out)["Entries"] == "Tiltkit:192.168.1.20:26760;")
    }

    @Test("dolphin-wiimote: a Wii Remote profile on DSU slot 0 with every motion input", .enabled(if: built, reason))
    func wiimote() throws {
        let r = try CLIConventionsTests.run(["serve", "dsu", "--print-config", "dolphin-wiimote"])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.contains("[Profile]"))
        #expect(lines.contains("Device = DSUClient/0/Tiltkit"))
        for (group, controls, prefix) in [("IMUAccelerometer", ["Up", "Down", "Left", "Right", "Forward", "Backward"], "Accel"),
                                          ("IMUGyroscope", ["Pitch Up", "Pitch Down", "Roll Left", "Roll Right", "Yaw Left", "Yaw Right"], "Gyro")] {
            for control in controls { #expect(lines.contains("\(group)/\(control) = `\(prefix) \(control)`"), "\(group)/\(control)") }
        }
        #expect(lines.contains("Buttons/A = `Cross`"))
    }

    @Test("a bad choice or address is one line naming it", .enabled(if: built, reason))
    func badInput() throws {
        var r = try CLIConventionsTests.run(["serve", "dsu", "--print-config", "cemu"])
        #expect(r.status != 0 && r.out.isEmpty)
        #expect(r.err.contains("cemu") && r.err.contains("dolphin"), "\(r.err)")
        r = try CLIConventionsTests.run(["serve", "dsu", "--print-config", "dolphin", "--bind", "my-pc"])
        #expect(r.status != 0 && r.out.isEmpty)
        #expect(r.err.contains("my-pc"), "\(r.err)")
    }
}
