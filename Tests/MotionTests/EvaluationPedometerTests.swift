import Foundation
import Motion
import MotionEvaluation
import Testing
import TestSupport

/// `tiltkit bench pedometer`'s parts without the command: the Oxford foot sensor's recount, the
/// optimisation set's reader and the count's errors against its truth.
@Suite struct EvaluationPedometerTests {
    @Test("the foot sensor's recount leaves its bounces out and puts its missed landings in")
    func footSensorRecount() throws {
        let clean = try #require(OxfordFootSensor.count(log: OxfordFootLog.text(landings: 40, bounces: [], missed: [])))
        #expect(clean == OxfordFootSensor.Count(steps: 40, bounces: 0, missedLandings: 0))
        let faulty = try #require(OxfordFootSensor.count(log: OxfordFootLog.text(landings: 60, bounces: [10, 20, 30], missed: [15, 41])))
        #expect(faulty == OxfordFootSensor.Count(steps: 60, bounces: 3, missedLandings: 2))
    }

    @Test("a foot log line that is not ns,0|1,0|1 gives no count", arguments: ["1000,0,2\n", "1000,0\n", "x,0,1\n", "1000,1,0,1\n"])
    func footSensorRejects(_ line: String) {
        #expect(OxfordFootSensor.count(log: "999,0,0\n" + line) == nil)
    }

    /// An optimisation folder with one walk: `stats` is stats.csv's body, the accelerometer `samples` as the dataset writes them.
    static func optimisationFolder(stats: String, log: String?, samples: [MotionSample]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-oxford-\(UUID().uuidString)")
        let walk = root.appendingPathComponent("data/Phone_User_Hard_InHand_1")
        try FileManager.default.createDirectory(at: walk, withIntermediateDirectories: true)
        if let log { try log.write(to: walk.appendingPathComponent("stepcounter.csv"), atomically: true, encoding: .utf8) }
        try ("#dir, user, phone, position, surface, duration(s), steps\n" + stats)
            .write(to: root.appendingPathComponent("stats.csv"), atomically: true, encoding: .utf8)
        // The dataset's accelerometer: ns, accuracy, m/s² with Android's sign (+1 g up at rest).
        let accelerometer = samples.map { s in
            let a = s.acceleration * -OxfordOptimisationSet.standardGravity
            return "\(Int64(s.timestamp * 1e9) + 5_000_000_000),3,\(a.x),\(a.y),\(a.z)"
        }.joined(separator: "\n") + "\n"
        try accelerometer.write(to: walk.appendingPathComponent("accelerometer.csv"), atomically: true, encoding: .utf8)
        return root
    }

    @Test("the optimisation set reads stats.csv, the foot log's truth and the accelerometer in g from 0 s")
    func optimisationSetReads() throws {
        let samples = (0..<100).map { MotionSample(timestamp: 2 + Double($0) / 100, acceleration: Vector3(0.1, -0.2, -1)) }
        let root = try Self.optimisationFolder(stats: "Phone_User_Hard_InHand_1, User, Phone, InHand, Hard, 30, 61\n",
                                               log: OxfordFootLog.text(landings: 60, bounces: [10, 20, 30], missed: [15, 41]),
                                               samples: samples)
        defer { try? FileManager.default.removeItem(at: root) }
        let recordings = try OxfordOptimisationSet.load(root.path)
        #expect(recordings.count == 1)
        let walk = try #require(recordings.first)
        #expect(walk.name == "Phone_User_Hard_InHand_1" && walk.placement == "InHand")
        #expect(walk.truth == 60 && walk.statsTruth == 61)
        #expect(walk.samples.count == 100)
        #expect(walk.samples[0].timestamp == 0 && abs(walk.samples[99].timestamp - 0.99) < 1e-9)
        #expect((walk.samples[50].acceleration - Vector3(0.1, -0.2, -1)).length < 1e-9)

        // Without a foot log the truth is stats.csv's.
        let noLog = try Self.optimisationFolder(stats: "Phone_User_Hard_InHand_1, User, Phone, InHand, Hard, 30, 61\n", log: nil, samples: samples)
        defer { try? FileManager.default.removeItem(at: noLog) }
        #expect(try OxfordOptimisationSet.load(noLog.path).first?.truth == 61)
    }

    @Test("a bad stats.csv line or accelerometer line is a file:line error")
    func optimisationSetErrors() throws {
        let samples = (0..<10).map { MotionSample(timestamp: Double($0) / 100, acceleration: Vector3(0, 0, -1)) }
        let badStats = try Self.optimisationFolder(stats: "Phone_User_Hard_InHand_1, User, Phone, InHand, Hard, 30\n", log: nil, samples: samples)
        defer { try? FileManager.default.removeItem(at: badStats) }
        #expect { try OxfordOptimisationSet.load(badStats.path) } throws: { error in
            (error as? TraceError)?.file.hasSuffix("stats.csv") == true && (error as? TraceError)?.line == 2
        }
        let badLog = try Self.optimisationFolder(stats: "Phone_User_Hard_InHand_1, User, Phone, InHand, Hard, 30, 61\n",
                                                 log: "1000,0,7\n", samples: samples)
        defer { try? FileManager.default.removeItem(at: badLog) }
        #expect { try OxfordOptimisationSet.load(badLog.path) } throws: { error in
            (error as? TraceError)?.file.hasSuffix("stepcounter.csv") == true
        }
    }

    static func result(_ steps: Int, truth: Int?, stats: Int? = nil) -> PedometerResult {
        var notes: [String: String] = [:]
        if let truth { notes["steps_truth"] = String(truth) }
        if let stats { notes["steps_truth_stats_csv"] = String(stats) }
        return PedometerResult(name: "walk\(steps).csv", data: PedometerData(start: 0, end: 60, numberOfSteps: steps), notes: notes)
    }

    @Test("the error is signed and in % of the truth; the table's summary is the mean |error| and the share within 5 %")
    func errorsAndSummary() {
        #expect(Self.result(110, truth: 100).errorPercent == 10)
        #expect(Self.result(96, truth: 100).errorPercent == -4)
        #expect(Self.result(96, truth: nil).errorPercent == nil)
        #expect(Self.result(96, truth: 0).errorPercent == nil)
        #expect(Self.result(96, truth: 100, stats: 120).statsErrorPercent == -20)
        #expect(PedometerResult.meanAbsolute([10, -4, 1]) == 5)
        #expect(PedometerResult.within5([10, -4, 5, -5.5]) == "2/4")

        let table = PedometerResult.table([Self.result(110, truth: 100), Self.result(96, truth: 100)])
        let summary = try? #require(table.split(separator: "\n").first { $0.hasPrefix("mean |error|") })
        #expect(summary?.split(separator: " ").last == "7.0")
        #expect(table.contains("within 5 %") && table.split(separator: "\n").last?.hasSuffix("1/2") == true)
        #expect(!table.contains("stats.csv"), "no stats.csv column without its count")
    }

    @Test("a result's fields carry the truth and its error only when it has one")
    func fieldsFollowTheTruth() {
        var result = Self.result(110, truth: 100)
        #expect(result.json["steps_truth"] as? Int == 100 && result.json["error_percent"] as? Double == 10)
        result.truth = nil
        #expect(result.json["steps_truth"] == nil && result.json["error_percent"] == nil && result.json["steps"] as? Int == 110)
    }
}
