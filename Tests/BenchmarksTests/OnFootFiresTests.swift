@testable import Benchmarks
import Demo
import Foundation
import Motion
import Testing
import TestSupport

/// `tiltkit bench on-foot`: which fires count, over a whole recording or only inside its labelled
/// stretches (the notes `scripts/import-hapt.py` writes), and the notes themselves.
@Suite struct OnFootFiresTests {
    static let url = URL(fileURLWithPath: "/d/hapt_exp01_user01.csv")

    @Test func readsTheSubjectAndTheStretchesAndNamesTheFileOfABadOne() throws {
        let recording = try OnFootFires.Recording(url: Self.url, notes: ["subject": "HAPT 1",
                                                                         "on_foot_spans": "wlk 10.00 21.64; ups 30 42.5"])
        #expect(recording.subject == "HAPT 1")
        #expect(recording.stretches == [.init(activity: "wlk", start: 10, end: 21.64), .init(activity: "ups", start: 30, end: 42.5)])
        #expect(try OnFootFires.Recording(url: Self.url).stretches.isEmpty)
        for bad in ["wlk 10", "wlk 12 10", "wlk a b", "wlk 1 nan", ";", "wlk 0 10; ups 9 12"] {
            #expect {
                try OnFootFires.Recording(url: Self.url, notes: ["on_foot_spans": bad])
            } throws: { error in
                "\(error)".contains("/d/hapt_exp01_user01.csv") && "\(error)".contains("on_foot_spans")
            }
        }
    }

    @Test func insideStretchesOnlyTheirFiresReopeningsAndOpenTimeCount() {
        let events: [CartReplayEvent] = [
            .gestureHold(t: 0, hold: "hold still - gestures start when still"),
            .gestureHold(t: 2, hold: nil),                      // opens before the stretch
            .gesture(t: 3, gesture: .duck, crossedAt: 3, mean: -0.3),   // outside: not judged
            .gesture(t: 10.5, gesture: .duck, crossedAt: 10.5, mean: -0.3),
            .gesture(t: 11, gesture: .jump, crossedAt: 11, mean: 3),
            .gestureHold(t: 12, hold: "walking - gestures paused"),
            .gestureHold(t: 19, hold: nil),                     // reopens inside
            .gesture(t: 25, gesture: .jump, crossedAt: 25, mean: 3),    // in the gap between stretches
        ]
        let stretches = [OnFootFires.Stretch(activity: "wlk", start: 10, end: 20),
                         OnFootFires.Stretch(activity: "wlk", start: 30, end: 40)]
        let judged = OnFootFires.row(name: "r.csv", events: events, seconds: 50, judged: stretches)
        #expect(judged.seconds == 20)
        #expect(judged.jumps == 1 && judged.ducks == 1 && judged.reopenings == 1)
        #expect(abs(judged.secondsOpen - (2 + 1 + 10)) < 1e-9)   // 10-12, 19-20, 30-40
        let whole = OnFootFires.row(name: "r.csv", events: events, seconds: 50)
        #expect(whole.seconds == 50)
        #expect(whole.jumps == 2 && whole.ducks == 2 && whole.reopenings == 2)   // at 2 s too
        #expect(abs(whole.secondsOpen - (10 + 31)) < 1e-9)       // 2-12, 19-50
    }

    /// Each subject over all its recordings and each activity over all subjects, beside the rows.
    @Test func theTableTotalsEachSubjectAndEachActivity() {
        func row(_ subject: String, _ activity: String, seconds: Double, ducks: Int) -> OnFootFires.Row {
            .init(recording: "\(subject) \(activity)", subject: subject, activity: activity, seconds: seconds,
                  jumps: 0, ducks: ducks, reopenings: 0, secondsOpen: 0)
        }
        let text = OnFootFires.table([row("HAPT 10", "wlk", seconds: 60, ducks: 2), row("HAPT 10", "ups", seconds: 180, ducks: 0),
                                      row("HAPT 2", "wlk", seconds: 120, ducks: 3)])
        #expect(text.contains("recordings over 1.0 fires/min: 2 of 3"))
        #expect(text.contains("subjects over 1.0 fires/min over all their recordings: 1 of 2 (HAPT 2)"))   // HAPT 10: 2 in 4 min
        #expect(text.contains("all: 0 jumps, 5 ducks in 6.0 min (0.83/min); by activity: wlk 5 in 3.0 min (1.67/min), ups 0 in 3.0 min (0.00/min)"))
        #expect(text.range(of: "HAPT 2 ")!.lowerBound < text.range(of: "HAPT 10 ")!.lowerBound)   // by number, not by text
    }

    /// A bundled jog with the notes added: a row per activity over its stretches, named for its subject.
    @Test func aRecordingWithStretchesGivesARowPerActivity() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("on-foot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("jog.csv")
        try Recordings.motionSense("jog_16_sub_1").write(to: url)
        let recording = try OnFootFires.Recording(url: url, notes: ["subject": "tester",
                                                                    "on_foot_spans": "jog 1 9; wlk 10 12; jog 13 20"])
        let rows = try OnFootFires.measure([recording])
        #expect(rows.map(\.activity) == ["jog", "wlk"])
        #expect(rows.map(\.recording) == ["jog jog", "jog wlk"])
        #expect(rows.allSatisfy { $0.subject == "tester" })
        #expect(abs(rows[0].seconds - 15) < 1e-9 && abs(rows[1].seconds - 2) < 1e-9)
        let whole = try OnFootFires.measure([url])
        #expect(whole.count == 1 && whole[0].seconds > 20)
        #expect(rows.reduce(0) { $0 + $1.jumps + $1.ducks } <= whole[0].jumps + whole[0].ducks)
    }
}
