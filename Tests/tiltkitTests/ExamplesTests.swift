import Foundation
import Testing
import TestSupport

/// Every program in `Examples/` run as a user runs it, on the bundled recordings: each shows its
/// feature working, not merely starting. The examples are built beside the tests.
@Suite("Examples/, run on the bundled traces")
struct ExamplesTests {
    static let xio = TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv").path
    static let jog = TestData.assets.appendingPathComponent("traces/motionsense/jog_16_sub_1.csv").path

    static func run(_ example: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let executable = try #require(ChildProcess.builtProduct(example), "\(example) is not built beside the tests")
        let result = try ChildProcess.run(executable, arguments)
        return (result.status, String(decoding: result.out, as: UTF8.self), result.err)
    }

    /// The number after `label` in `text` (`"roll"` in `"roll   -0.0°"`).
    static func number(after label: String, in text: some StringProtocol) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        return Double(text[range.upperBound...].drop { $0 == " " || $0 == "(" }.prefix { "-+.0123456789".contains($0) })
    }

    @Test("PullInRenderLoop: a frame loop pulls the recording lying flat (roll and pitch within 2°)")
    func pull() throws {
        let r = try Self.run("PullInRenderLoop", [Self.xio, "60"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("pulled 60 frames"))
        let frames = r.out.split(separator: "\n").filter { $0.hasPrefix("frame") }
        #expect(frames.count == 2)
        for line in frames {
            #expect(abs(Self.number(after: "roll", in: line) ?? 99) < 2 && abs(Self.number(after: "pitch", in: line) ?? 99) < 2, "\(line)")
        }
    }

    @Test("PushEverySample: every sample in order")
    func push() throws {
        let r = try Self.run("PushEverySample", [Self.xio, "0.5"])
        #expect(r.status == 0, "\(r.err)")
        #expect((Self.number(after: "pushed", in: r.out) ?? 0) >= 40, "\(r.out)")
        #expect(r.out.contains(" 0 out of order"), "\(r.out)")
    }

    @Test("ReferenceFrames: all four frames offered; true north differs from magnetic north by the declination")
    func frames() throws {
        let r = try Self.run("ReferenceFrames", [Self.xio, "1"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("x-arbitrary-z-vertical, x-arbitrary-corrected-z-vertical, x-magnetic-north-z-vertical, x-true-north-z-vertical"))
        let halves = r.out.split(separator: ";")  // "… heading H° from magnetic north; at t=… s T° from true north …"
        let magnetic = try #require(Self.number(after: "heading", in: halves[0]), "\(r.out)")
        let trueNorth = try #require(halves.count == 2 ? Self.number(after: " s ", in: halves[1]) : nil, "\(r.out)")
        let declination = try #require(Self.number(after: "declination here", in: r.out))
        // The recording lies still at its start, so both read the same magnetic heading.
        let difference = (trueNorth - magnetic + 540).truncatingRemainder(dividingBy: 360) - 180
        #expect(abs(difference - declination) < 0.2, "\(r.out)")
    }

    @Test("ResetReference: zero right after the reset, the old attitude back once cleared")
    func reset() throws {
        let r = try Self.run("ResetReference", [Self.xio, "0.3"])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        let after = try #require(lines.first { $0.hasPrefix("after reset") })
        for axis in ["roll", "pitch", "yaw"] { #expect(abs(Self.number(after: axis, in: after) ?? 99) < 0.3, "\(after)") }
        let before = try #require(lines.first { $0.hasPrefix("before reset") }), cleared = try #require(lines.first { $0.hasPrefix("cleared") })
        #expect(abs((Self.number(after: "pitch", in: before) ?? 0) - (Self.number(after: "pitch", in: cleared) ?? 99)) < 0.3)
    }

    @Test("AccelerometerOnly: gravity from the low-pass alone, 1 g down")
    func accelerometerOnly() throws {
        let r = try Self.run("AccelerometerOnly", [Self.xio, "0.5"])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            let inside = line.split(separator: "(").dropFirst().first?.prefix { $0 != ")" } ?? ""
            let gravity = inside.split(separator: " ").compactMap { Double($0) }
            #expect(gravity.count == 3 && abs(gravity[2] + 1) < 0.05, "\(line)")
        }
    }

    @Test("ShakeAndOrientation: the x-io recording turned through every orientation, no shake; jogging shakes")
    func gestures() throws {
        let turned = try Self.run("ShakeAndOrientation", [Self.xio, "120", "100"])  // to the recording's end
        #expect(turned.status == 0, "\(turned.err)")
        for change in ["unknown → faceUp", "faceUp → portrait", "faceUp → portraitUpsideDown", "faceUp → landscapeRight", "faceUp → landscapeLeft"] {
            #expect(turned.out.contains(change), "\(turned.out)")
        }
        #expect(turned.out.contains("0 shakes, 9 orientation changes"), "\(turned.out)")
        let jogging = try Self.run("ShakeAndOrientation", [Self.jog, "120", "30"])
        #expect(jogging.status == 0, "\(jogging.err)")
        let shakes = jogging.out.split(separator: "\n").last?.split(separator: " ").first.flatMap { Int($0) }
        #expect((shakes ?? 0) >= 10, "\(jogging.out)")
    }

    @Test("RecordAndReplay: what was recorded is what is replayed")
    func recordAndReplay() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-example-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try Self.run("RecordAndReplay", [Self.xio, "0.5", file.path])
        #expect(r.status == 0, "\(r.err)")
        let recorded = try #require(Self.number(after: "recorded", in: r.out)), replayed = try #require(Self.number(after: "replayed", in: r.out))
        #expect(recorded >= 30 && recorded == replayed, "\(r.out)")
    }

    @Test("LivePad: a DualShock 4 capture through the hidraw decoder; a missing node is a clear error")
    func livePad() throws {
        let capture = TestData.assets.appendingPathComponent("hid/ds4-usb-clone.hid-recording").path
        let r = try Self.run("LivePad", ["hid-recording:\(capture)", "5"])  // ends with the capture
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("reading Sony Computer Entertainment Wireless Controller"), "\(r.out)")
        #expect(r.out.contains("gravity"), "\(r.out)")
        let missing = try Self.run("LivePad", ["hidraw:/dev/nonexistent-tiltkit", "1"])
        #expect(missing.status == 1 && missing.err.contains("/dev/nonexistent-tiltkit does not exist"), "\(missing.err)")
    }

    @Test("SDLSensors: reads a controller when SDL sees one, else says so and exits 1")
    func sdlSensors() throws {
        let r = try Self.run("SDLSensors", ["0", "0.5"])
        if r.out.contains("sdl:") {
            #expect(r.status == 0, "\(r.err)")
        } else {
            #expect(r.status == 1 && r.err.contains("SDL sees no game controller"), "\(r.err)")
        }
    }
}
