import Foundation
import Motion
import MotionEvaluation
import Testing

/// `tiltkit bench activity`'s scoring without the command: labels from names, calls per second,
/// the confusion over a folder.
@Suite struct EvaluationActivityConfusionTests {
    @Test("a file's truth is its MotionSense code, else its folder's activity name", arguments: [
        ("/d/wlk_7_sub_1.csv", MotionActivityKind.walking), ("/d/dws_1.csv", .walking), ("/d/ups_3.csv", .walking),
        ("/d/jog_9.csv", .running), ("/d/sit_5.csv", .stationary), ("/d/std_6.csv", .stationary),
        ("/data/cycling/ride.csv", .cycling), ("/data/automotive/bus_1.csv", .automotive),
    ])
    func labels(_ path: String, _ kind: MotionActivityKind) {
        #expect(ActivityConfusion.label(of: URL(fileURLWithPath: path)) == kind)
    }

    @Test("an unlabelled file has no truth")
    func noLabel() {
        #expect(ActivityConfusion.label(of: URL(fileURLWithPath: "/data/misc/ride.csv")) == nil)
    }

    @Test("the call per second is the segment over each second's middle, unknown where none covers it")
    func perSecond() {
        let segments = [MotionActivitySegment(start: 10, end: 12.2, kind: .walking, confidence: .high),
                        MotionActivitySegment(start: 13.4, end: 20, kind: .running, confidence: .medium)]
        #expect(ActivityConfusion.perSecond(segments, from: 10, duration: 5.9)
                == [.walking, .walking, .unknown, .running, .running])
        #expect(ActivityConfusion.perSecond(segments, from: 10, duration: 0.5).isEmpty)
    }

    /// `seconds` of a still device at 50 Hz: gravity only, a touch of sensor noise.
    static func still(seconds: Int) -> Trace {
        var random = SystemRandomNumberGenerator()
        let samples = (0..<seconds * 50).map { i in
            MotionSample(timestamp: 100 + Double(i) / 50,
                         acceleration: Vector3(Double.random(in: -0.002...0.002, using: &random), 0, -1))
        }
        return Trace(samples: samples, metadata: TraceMetadata(source: "still", nominalRate: 50))
    }

    @Test("a still recording scores as stationary for each whole second; a folder without a truth is an error")
    func scoresAFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-confusion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.still(seconds: 30).write(to: folder.appendingPathComponent("desk.csv"))
        #expect(throws: ActivityConfusion.NoLabelledRecordings(folder: folder.path)) {
            try ActivityConfusion.score(folder: folder, label: nil)
        }
        try Self.still(seconds: 30).write(to: folder.appendingPathComponent("sit_1.csv"))
        let stationary = MotionActivityKind.allCases.firstIndex(of: .stationary)!
        for live in [false, true] {
            let report = try ActivityConfusion.score(folder: folder, label: nil, live: live)
            #expect(report.files.map(\.name) == ["sit_1.csv"], "desk.csv has no truth and is left out")
            #expect(report.seconds[stationary].reduce(0, +) == 29, "every whole second of 29.98 s counted once")
            #expect(report.seconds.enumerated().allSatisfy { $0.offset == stationary || $0.element.allSatisfy { $0 == 0 } })
            #expect(report.files[0].agreement >= (live ? 0.7 : 0.95), "live: \(live), \(report.table)")
        }
        // --label gives every recording a truth; joined, both play as one 58 s stream.
        let joined = try ActivityConfusion.score(folder: folder, label: .stationary, joined: true)
        #expect(joined.files.map(\.name) == ["desk.csv", "sit_1.csv"])
        #expect(joined.seconds[stationary].reduce(0, +) == 58)
        #expect(joined.table.contains("stationary") && joined.table.contains("desk.csv"))
    }
}
