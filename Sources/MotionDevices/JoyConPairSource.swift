import Foundation
import Motion

/// A left and a right Joy-Con read as one pad, as joycond pairs them for games and JoyShockMapper
/// treats them: motion from one side (the right by default, the hand that aims), both halves held
/// open, one source for one DSU slot or one mapper input. Unplugging either half and its return
/// follow `JoyConPairRelay`.
///
///     let pair = try JoyConPairSource(paths: ["/dev/hidraw4", "/dev/hidraw5"], motionSide: .right)
///     try pair.start { event in … }     // the right Joy-Con's samples, in Core Motion's frame
///
/// Each half is the source its path names (hidraw, or hid-nintendo's "… Joy-Con IMU" evdev node),
/// so its own calibration, frame and replug handling are the single pad's: both halves' samples
/// come out in one device frame (hid-nintendo and `GamepadReportDecoder` undo the right
/// Joy-Con's mirrored IMU).
public final class JoyConPairSource: DiagnosableMotionSource, @unchecked Sendable {
    public let left: any MotionSource
    public let right: any MotionSource
    public let info: MotionSourceInfo
    /// The other side's comings and goings, for the person (the caller prints them).
    private let onNotice: @Sendable (String) -> Void
    /// Held while one event goes through the relay to the consumer.
    private let deliveryLock = NSLock()
    private var relay: JoyConPairRelay
    /// `relay.otherSideSamples` for `diagnostics`, which a consumer may ask for while it is delivered to.
    private let countLock = NSLock()
    private var otherSideSamples = 0

    public let motionSide: JoyConSide

    public init(left: any MotionSource, right: any MotionSource, motionSide: JoyConSide = .right,
                onNotice: @escaping @Sendable (String) -> Void = { _ in }) {
        self.left = left
        self.right = right
        self.onNotice = onNotice
        self.motionSide = motionSide
        relay = JoyConPairRelay(motionSide: motionSide)
        let motion = motionSide == .left ? left : right
        info = MotionSourceInfo(name: "Joy-Con pair, motion from the \(motionSide.rawValue): \(left.info.name) + \(right.info.name)",
                                kind: "joycon-pair", sensors: motion.info.sensors, nominalRate: motion.info.nominalRate)
    }

    /// Opens both halves from their paths, in either order; each path is a hidraw node (or a
    /// recording of one, given the side's `device`) or a "… Joy-Con IMU" evdev node.
    public convenience init(paths: [String], motionSide: JoyConSide = .right, exclusive: Bool = false,
                            onNotice: @escaping @Sendable (String) -> Void = { _ in }) throws(DeviceError) {
        guard paths.count == 2 else {
            throw .unsupported(path: paths.joined(separator: "+"), reason: "a Joy-Con pair is two paths, the left's and the right's, joined by '+'")
        }
        var halves: [JoyConSide: any MotionSource] = [:]
        for path in paths {
            let (source, side) = try Self.openHalf(path, exclusive: exclusive)
            if halves[side] != nil {
                throw .unsupported(path: paths.joined(separator: "+"), reason: "both paths are a \(side.displayName); a pair needs a left and a right")
            }
            halves[side] = source
        }
        self.init(left: halves[.left]!, right: halves[.right]!, motionSide: motionSide, onNotice: onNotice)
    }

    private static func openHalf(_ path: String, exclusive: Bool) throws(DeviceError) -> (any MotionSource, JoyConSide) {
        if path.contains("/input/event") {
            let source = try EvdevMotionSource(path: path, options: .init(driver: .nintendo, exclusive: exclusive))
            guard let side = JoyConSide(evdevNodeName: source.nodeName) else {
                throw .unsupported(path: path, reason: "'\(source.nodeName)' is not a Joy-Con's IMU node")
            }
            return (source, side)
        }
        let source = try HIDRawSource(path: path)
        guard let side = source.device.flatMap({ JoyConSide(model: $0.model) }) else {
            throw .unsupported(path: path, reason: "\(source.device.map(\.description) ?? "an unidentified pad") is not a Joy-Con")
        }
        return (source, side)
    }

    /// The halves' node paths, left first (hidraw or evdev; nil for a half of another kind).
    public var paths: [String?] {
        [left, right].map { half in (half as? HIDRawSource)?.path ?? (half as? EvdevMotionSource)?.path }
    }

    public var diagnostics: String {
        func line(_ source: any MotionSource) -> String { (source as? DiagnosableMotionSource)?.diagnostics ?? "" }
        countLock.lock(); let skipped = otherSideSamples; countLock.unlock()
        return "left: \(line(left)); right: \(line(right)); \(skipped) samples of the \(motionSide.other.rawValue) side not used for motion"
    }

    public func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        for (side, source) in [(JoyConSide.left, left), (.right, right)] {
            do {
                try source.start { [self] event in
                    // Both halves deliver on threads of their own: one at a time to the consumer.
                    deliveryLock.lock(); defer { deliveryLock.unlock() }
                    let outputs = relay.handle(event, from: side)
                    countLock.lock(); otherSideSamples = relay.otherSideSamples; countLock.unlock()
                    for output in outputs {
                        switch output {
                        case .event(let e): deliver(e)
                        case .notice(let text): onNotice(text)
                        }
                    }
                }
            } catch {
                stop()
                throw error
            }
        }
    }

    public func stop() {
        left.stop()
        right.stop()
    }
}
