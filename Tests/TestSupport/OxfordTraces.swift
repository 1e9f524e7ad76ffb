import Foundation
import Motion

/// The bundled Oxford Step Counter validation recordings (CC BY 4.0, Assets/traces/oxford-steps)
/// and their metadata comments, for the pedometer's and the command's tests.
public enum OxfordTraces {
    public static let folder = TestData.assets.appendingPathComponent("traces/oxford-steps")

    public static let names = ["user1_armband", "user1_backpocket", "user1_bag", "user1_frontpocket", "user1_hand",
                        "user1_neckpouch", "user2_armband", "user2_backpocket", "user2_bag", "user2_frontpocket",
                        "user2_hand", "user2_neckpouch"]

    public static func url(_ name: String) -> URL { folder.appendingPathComponent("\(name).csv") }

    public static func trace(_ name: String) throws -> Trace { try Trace.load(contentsOf: url(name)) }

    /// `# steps_truth: N` from the file's comment lines.
    public static func truth(_ name: String) throws -> Int {
        let text = try String(contentsOf: url(name), encoding: .utf8)
        for line in text.split(separator: "\n").prefix(20) where line.hasPrefix("# steps_truth:") {
            if let n = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) { return n }
        }
        throw MissingTruth(name: name)
    }

    public struct MissingTruth: Error { public var name: String }

    /// Steps a fresh `StepCounter` counts over `samples`.
    public static func count(_ samples: [MotionSample], settings: StepDetectorSettings = .default) -> StepCounter {
        var counter = StepCounter(settings: settings)
        for s in samples { counter.update(s) }
        counter.finish()
        return counter
    }
}
