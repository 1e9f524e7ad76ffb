/// Synthetic logs of the Oxford Step Counter dataset's foot-worn sensor (`data/<dir>/stepcounter.csv`:
/// ns, foot 1 contact 0/1, foot 2 contact 0/1), for the truth's recount and the bench's tests.
public enum OxfordFootLog {
    /// A foot sensor's log polled every 90 ms: `landings` alternating feet every 0.5 s, each foot on
    /// the ground for 0.6 s; a bounce opens a contact for one poll mid-stance, a missed landing
    /// leaves a stance without contact.
    public static func text(landings: Int, bounces: Set<Int>, missed: Set<Int>) -> String {
        var lines: [String] = []
        for poll in 0..<Int(Double(landings + 1) * 0.5 / 0.09) + 10 {
            let t = Double(poll) * 0.09
            var contact = [0, 0]
            for i in 0..<landings where !missed.contains(i) {
                let since = t - Double(i + 1) * 0.5
                let bouncing = bounces.contains(i) && since >= 0.25 && since < 0.34
                if since >= 0 && since < 0.6 && !bouncing { contact[i % 2] = 1 }
            }
            lines.append("\(1_000_000_000 + Int64(t * 1e9)),\(contact[0]),\(contact[1])")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
