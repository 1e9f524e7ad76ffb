/// One line of `tiltkit cart --headless --events`.
public enum CartReplayEvent: Hashable, Sendable {
    public enum Gesture: String, Hashable, Sendable { case jump, duck }

    /// A gesture the game saw at frame time `t` (trace seconds); `crossedAt` is the sample
    /// whose arrival made the buffer mean cross; `mean` in rad/s (jump) or g (duck).
    case gesture(t: Double, gesture: Gesture, crossedAt: Double, mean: Double)
    /// The lean the game saw at frame time `t`, at 10 Hz.
    case lean(t: Double, degrees: Double)
    /// The gestures were held off (`hold` says why: "running - gestures paused") or resumed (nil).
    case gestureHold(t: Double, hold: String?)
    /// The source stopped (`lost`) or came back, and the game paused or resumed.
    case device(t: Double, lost: Bool, message: String)

    /// One JSON object, keys in a fixed order so two runs compare byte for byte.
    public var json: String {
        switch self {
        case .gesture(let t, let gesture, let crossedAt, let mean):
            return "{\"t\":\(fixed(t, 3)),\"gesture\":\"\(gesture.rawValue)\",\"crossed_at\":\(fixed(crossedAt, 3)),"
                + "\"latency_ms\":\(fixed((t - crossedAt) * 1000, 1)),\"mean\":\(fixed(mean, 3))}"
        case .lean(let t, let degrees):
            return "{\"t\":\(fixed(t, 3)),\"lean_deg\":\(fixed(degrees, 1))}"
        case .gestureHold(let t, let hold):
            return "{\"t\":\(fixed(t, 3)),\"gestures\":\"\(hold == nil ? "on" : "held")\",\"why\":"
                + (hold.map { "\"\(escaped($0))\"" } ?? "null") + "}"
        case .device(let t, let lost, let message):
            return "{\"t\":\(fixed(t, 3)),\"device\":\"\(lost ? "lost" : "back")\",\"message\":\"\(escaped(message))\"}"
        }
    }
}

/// Fixed-point text without Foundation's locale: `fixed(1.23456, 3)` is "1.235".
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "null" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let frac = Int(scaled - Double(whole) * scale)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard digits > 0 else { return "\(sign)\(whole)" }
    let fracText = String(frac)
    return "\(sign)\(whole)." + String(repeating: "0", count: digits - fracText.count) + fracText
}

func escaped(_ text: String) -> String {
    var out = ""
    for ch in text.unicodeScalars {
        switch ch {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default: out.unicodeScalars.append(ch)
        }
    }
    return out
}
