import Foundation
import Testing
import TestSupport

@Suite("tiltkit doctor, the command")
struct DoctorCommandTests {
    @Test("--json on this machine: the documented document, every section, each finding's four keys; the exit status follows it",
          .enabled(if: PedometerCommandTests.executable != nil || TestData.isCI,
                   "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func json() throws {
        let result = try PedometerCommandTests.run(["doctor", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: result.out) as? [String: Any], "\(result.err)")
        #expect(Set(object.keys) == ["schema", "status", "counts", "sections"])
        #expect(object["schema"] as? String == "tiltkit-doctor v1")
        let sections = try #require(object["sections"] as? [[String: Any]])
        #expect(sections.compactMap { $0["name"] as? String } == ["devices", "access", "udev-rules", "drivers", "sdl", "uinput", "groups"])
        var statuses: [String] = []
        for section in sections {
            #expect(Set(section.keys) == ["name", "title", "status", "findings"])
            let findings = try #require(section["findings"] as? [[String: Any]])
            #expect(!findings.isEmpty, "\(section)")
            for finding in findings {
                #expect(Set(finding.keys) == ["status", "subject", "detail", "fix"])
                statuses.append(try #require(finding["status"] as? String))
            }
        }
        #expect(Set(statuses).isSubset(of: ["ok", "warning", "problem"]))
        let counts = try #require(object["counts"] as? [String: Int])
        #expect(counts == ["ok": statuses.filter { $0 == "ok" }.count, "warning": statuses.filter { $0 == "warning" }.count,
                           "problem": statuses.filter { $0 == "problem" }.count])
        #expect(result.status == (statuses.contains("problem") ? 1 : 0), "\(result.err)")
        // The SDL section names the linked library's version whatever is plugged in.
        let sdl = try #require(sections.first { $0["name"] as? String == "sdl" }?["findings"] as? [[String: Any]])
        #expect((sdl.first?["detail"] as? String)?.hasPrefix("linked version 2.") == true, "\(sdl)")
        // No pad here: said, and a warning rather than a failure.
        let devices = try #require(sections.first?["findings"] as? [[String: Any]])
        if devices.count == 1, devices[0]["subject"] as? String == "motion devices" {
            #expect(devices[0]["status"] as? String == "warning")
            #expect((devices[0]["detail"] as? String)?.hasPrefix("no hidraw gamepad") == true)
        }
        // The text says the same, one section heading each, and ends with the tally.
        let text = try PedometerCommandTests.run(["doctor"])
        let lines = String(decoding: text.out, as: UTF8.self).split(separator: "\n")
        #expect(text.status == result.status)
        #expect(lines.last == "\(counts["problem"]!) problems, \(counts["warning"]!) warnings")
        #expect(lines.filter { !$0.hasPrefix(" ") }.count == sections.count + 1)
    }
}
