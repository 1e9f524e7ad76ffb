import CartGame
import Foundation

/// One labelled stretch of a recording in the cart game's gesture set (`Assets/gestures/labels.csv`,
/// rebuilt by `scripts/gesture-labels.py` from independent truth: BROAD's optical motion capture,
/// x-io's known events, MotionSense's activity labels).
public struct GestureLabel: Hashable, Sendable {
    /// What the player is expected to have done, as the game should read it.
    public enum Expect: String, Hashable, Sendable {
        case jump, duck
        /// A jump here is right and none is not a miss: the top came toward the player as a tip does,
        /// with other turning mixed in (a tip toward of ≥ 15° at ≥ 2 rad/s, half to 80 % of the turning).
        case jumpAllowed = "jump-allowed"
        /// Nothing should fire here.
        case none
        /// Not scored (mixed axes, a tip too small to call).
        case ignore
    }

    /// Path below the shared data folder, e.g. "broad/06_undisturbed_fast_rotation_A.csv".
    public var recording: String
    /// The pose the player holds; nil: detected by the game ("auto").
    public var pose: HoldingPose?
    /// tip-toward, tip-toward-mixed, tip-away, roll, yaw, still, knock, push-down, push-up,
    /// push-sideways, push-stop, walk, jog, stairs, ignore.
    public var kind: String
    /// Seconds from the recording's first sample.
    public var start: Double
    public var end: Double
    /// The truth's onset (NaN where the truth has none, as x-io's events).
    public var onset: Double
    public var expect: Expect

    public var duration: Double { end - start }

    /// Parses the labels CSV (comment lines start with #).
    public static func parse(_ text: String, source: String = "labels") throws(BenchError) -> [GestureLabel] {
        var labels: [GestureLabel] = []
        var sawHeader = false
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if !sawHeader {
                guard line == "recording,pose,kind,start_s,end_s,onset_s,expect" else {
                    throw .missingData("\(source):\(index + 1): expected the header recording,pose,kind,start_s,end_s,onset_s,expect")
                }
                sawHeader = true
                continue
            }
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            func bad(_ why: String) -> BenchError { .missingData("\(source):\(index + 1): \(why)") }
            guard f.count == 7 else { throw bad("7 fields expected, found \(f.count)") }
            guard let start = Double(f[3]), let end = Double(f[4]), start.isFinite, end >= start else { throw bad("bad start/end") }
            guard let onset = Double(f[5]) else { throw bad("bad onset") }
            guard let expect = Expect(rawValue: f[6]) else { throw bad("unknown expectation \(f[6])") }
            let pose: HoldingPose?
            if f[1] == "auto" { pose = nil } else {
                guard let p = HoldingPose(rawValue: f[1]) else { throw bad("unknown pose \(f[1])") }
                pose = p
            }
            labels.append(GestureLabel(recording: f[0], pose: pose, kind: f[2], start: start, end: end, onset: onset, expect: expect))
        }
        guard sawHeader else { throw .missingData("\(source): no labels") }
        return labels
    }
}
