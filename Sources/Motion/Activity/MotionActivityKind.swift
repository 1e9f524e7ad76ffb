/// What the device's carrier is doing, in Core Motion's words (`CMMotionActivity`'s booleans, one at
/// a time here): stairs count as walking, as they do on an iPhone.
public enum MotionActivityKind: String, Hashable, Sendable, CaseIterable {
    case stationary
    case walking
    case running
    case automotive
    case cycling
    /// Not enough evidence yet (start, after a gap) or motion that fits none of the others.
    case unknown

    /// On foot: the cart game holds its gestures off while this is true.
    public var isOnFoot: Bool { self == .walking || self == .running }
}
