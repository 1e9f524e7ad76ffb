import Foundation
import Motion
@testable import MotionDevices
import TestSupport
import Testing

@Suite("hid-recorder replay")
struct HIDRecordingTests {
    static let path = TestData.assets.appendingPathComponent("hid/ds4-usb-clone.hid-recording").path

    @Test("the bundled recording parses: name, ids, 8 events with the pad's timing")
    func parse() throws {
        let r = try HIDRecording(contentsOf: Self.path)
        #expect(r.name == "Sony Computer Entertainment Wireless Controller")
        #expect(r.vendorID == 0x054C && r.productID == 0x05C4 && r.busType == 3)
        #expect(r.events.count == 8 && r.events.allSatisfy { $0.report.count == 64 })
        #expect(r.device == GamepadDevice(model: .dualShock4, bus: .usb))
        #expect(abs(r.events[1].time - 0.003989) < 1e-6)
    }

    @Test("malformed lines are reported with file and line")
    func errors() {
        let text = "N: pad\nI: 3 054c 05c4\nE: 0.000000 4 01 02 03\n"
        #expect { try HIDRecording(text: text, file: "bad.hid") } throws: { error in
            "\(error)" == "bad.hid:3: says 4 bytes but has 3"
        }
        #expect { try HIDRecording(text: "N: pad\nE: x 1 01\n", file: "t") } throws: { "\($0)".hasPrefix("t:2:") }
        #expect { try HIDRecording(text: "# nothing\n", file: "t") } throws: { "\($0)".contains("no E: events") }
        #expect { try HIDRecording(text: "hello\n", file: "t") } throws: { "\($0)".hasPrefix("t:1:") }
    }

    @Test("replay goes through the same decoder, with calibration, at the recording's pace")
    func replay() throws {
        let dump = try Fixtures.ds4dump()
        var options = HIDRecordingSource.Options()
        options.calibrationReport = dump.feature
        options.paced = false
        let source = try HIDRecordingSource(path: Self.path, options: options)
        #expect(source.info.kind == "hid-recording")
        let events = try collect(source) { $0 == .ended }
        let samples = events.samples
        try #require(samples.count == 8)
        // First sample: the values of INPUT_FACTS §11.1.
        let g = try #require(samples[0].rotationRate)
        #expect(abs(g.x + 0.020385) < 2e-6 && abs(g.y - 0.019312) < 2e-6 && abs(g.z + 0.008583) < 2e-6)
        #expect(abs((samples[7].timestamp - samples[0].timestamp) - 7 * 748 * 16 / 3 * 1e-6) < 2e-5)
        #expect(source.statistics.decodedReports == 8)
    }

    @Test("multi-device recordings keep the first device; unsupported devices are refused by name")
    func devices() throws {
        let text = "D: 0\nN: Mouse\nI: 3 046d c077\nE: 0.000000 4 01 00 00 00\nD: 1\nN: Other\nE: 0.1 1 00\n"
        let r = try HIDRecording(text: text)
        #expect(r.name == "Mouse" && r.events.count == 1)
        #expect { try HIDRecordingSource(recording: r, name: "mouse.hid") } throws: { "\($0)".contains("not from a supported gyro pad") }
    }
}
