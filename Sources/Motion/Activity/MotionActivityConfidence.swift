/// How sure the call is, as `CMMotionActivityConfidence`: from the share of recent windows that
/// agree with it (see `MotionActivitySettings.confirmation`).
public enum MotionActivityConfidence: Int, Hashable, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case low = 0
    case medium = 1
    case high = 2

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        }
    }
}
