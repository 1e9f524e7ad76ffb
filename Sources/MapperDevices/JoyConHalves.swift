import Foundation
import Mapper
import MotionDevices

/// A Joy-Con pair's two halves' latest controls, fed from each half's reader thread and delivered
/// as the pair's.
///
///     let halves = JoyConHalves()
///     halves.update(.right, controls) { pair in session.feed(controls: pair) }
///
/// Each half's reader combines on its own thread, so the combining and the delivery happen under one
/// lock: were they apart, two halves changing together (a button on each) could deliver in the
/// opposite order to the combining, and the older pair (one half's press missing) would be the one
/// left standing on the virtual pad while nothing more changes.
final class JoyConHalves: @unchecked Sendable {
    private let lock = NSLock()
    private var controls: [JoyConSide: PadControls] = [:]
    private var gone: Set<JoyConSide> = []

    func reset() { lock.withLock { controls = [:]; gone = [] } }

    /// A half's node went away: its controls read as released while the other half's go on.
    func lost(_ side: JoyConSide, _ deliver: (PadControls) -> Void) {
        lock.withLock {
            gone.insert(side)
            deliver(combineLocked(side, .idle))
        }
    }

    var anyGone: Bool { lock.withLock { !gone.isEmpty } }

    /// Records one half's controls and delivers the pair's, in order with the other half's.
    func update(_ side: JoyConSide, _ value: PadControls, _ deliver: (PadControls) -> Void) {
        lock.withLock { deliver(combineLocked(side, value)) }
    }

    private func combineLocked(_ side: JoyConSide, _ value: PadControls) -> PadControls {
        controls[side] = value
        return .joyConPair(left: controls[.left] ?? .idle, right: controls[.right] ?? .idle)
    }
}
