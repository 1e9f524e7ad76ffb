import Motion

/// What a Joy-Con pair passes on from its two halves, as one pad: the motion side's events, and a
/// notice when the other side leaves or returns. Pure; `JoyConPairSource` drives it.
///
///     var relay = JoyConPairRelay(motionSide: .right)
///     relay.handle(.samples(s), from: .right)     // [.event(.samples(s))]
///     relay.handle(.samples(s), from: .left)      // []: the left's motion is not the pair's
///     relay.handle(.disconnected(reason: r), from: .left)   // [.notice("Joy-Con (L) went away …")]
///
/// A player aims with the hand that holds the motion side. When that half goes, motion pauses
/// (`disconnected`) rather than jump to the other hand's Joy-Con, which points elsewhere; when the
/// other half goes, motion goes on and only its buttons are missing. Either half coming back
/// rejoins the pair (JoyShockMapper and joycond keep a pair's halves apart the same way).
public struct JoyConPairRelay: Sendable {
    public enum Output: Hashable, Sendable {
        /// For the consumer, as from any source.
        case event(MotionSourceEvent)
        /// For the person: the other side's comings and goings.
        case notice(String)
    }

    public let motionSide: JoyConSide
    /// Whether each side is connected now.
    public private(set) var connected: [JoyConSide: Bool] = [.left: true, .right: true]
    /// Samples of the other side, read and not passed on.
    public private(set) var otherSideSamples = 0

    public init(motionSide: JoyConSide) { self.motionSide = motionSide }

    public mutating func handle(_ event: MotionSourceEvent, from side: JoyConSide) -> [Output] {
        let isMotionSide = side == motionSide
        switch event {
        case .samples(let samples):
            if isMotionSide { return [.event(event)] }
            otherSideSamples += samples.count
            return []
        case .disconnected(let reason):
            connected[side] = false
            if isMotionSide {
                return [.event(.disconnected(reason: "\(side.displayName), the pair's motion side, went away (\(reason)): "
                    + "motion pauses until it is back"))]
            }
            return [.notice("\(side.displayName) went away (\(reason)): motion goes on from \(motionSide.displayName); "
                + "the pair is whole again when it is back")]
        case .reconnected:
            connected[side] = true
            return isMotionSide ? [.event(.reconnected)] : [.notice("\(side.displayName) is back: the pair is whole again")]
        case .ended:
            // Recordings: the pair ends with its motion side.
            return isMotionSide ? [.event(.ended)] : []
        }
    }
}
