import Foundation

extension GestureBenchmark.Report {
    /// The aligned table `tiltkit bench gestures` prints.
    public var text: String {
        func ms(_ g: GestureScore.PerGesture, _ q: Double) -> String {
            g.latency(at: q).map { String(format: "%.0f", $0 * 1000) } ?? "-"
        }
        var lines = ["gesture  labels  found  fires  unjudged  precision  recall  latency ms (median / p90)"]
        for (name, g) in [("jump", score.jump), ("duck", score.duck)] {
            lines.append(String(format: "%-7@  %6d  %5d  %5d  %8d  %9.3f  %6.3f  %@ / %@", name as NSString, g.labels, g.found, g.fires, g.unjudged,
                                g.precision, g.recall, ms(g, 0.5) as NSString, ms(g, 0.9) as NSString))
        }
        lines.append("")
        lines.append(String(format: "false fires while rolling: %d in %.1f s = %.2f per minute", score.rollFires, score.rollSeconds, score.rollFiresPerMinute))
        lines.append(String(format: "false fires while walking, jogging, on stairs: %d in %.1f s = %.2f per minute",
                            score.walkFires, score.walkSeconds, score.walkFiresPerMinute))
        lines.append(String(format: "fires no label judges: %d in %.1f min of recordings = %.2f per minute",
                            score.jump.unjudged + score.duck.unjudged, score.recordedSeconds / 60, score.unjudgedPerMinute))
        lines.append("recordings: \(recordings.count) scored" + (missing.isEmpty ? "" : ", \(missing.count) absent from the data folder (skipped): \(missing.joined(separator: ", "))"))
        return lines.joined(separator: "\n")
    }
}
