import CGL
import Demo
import Engine
import Motion

/// Times one frame of a wrapped scene, from the start of its update (where the scene pulls the
/// latest motion) to the moment the GPU has finished its drawing (`glFinish` before the next
/// frame starts), and notes which sample the frame's pull returned.
public struct FrameTiming: Sendable, Hashable {
    /// CLOCK_MONOTONIC ns at the start of the frame's update.
    public var start: UInt64
    /// When the frame pulled the motion, ns.
    public var pulled: UInt64
    /// When the pulled sample arrived at the motion manager, ns; nil if nothing was pulled yet.
    public var arrival: UInt64?
    /// When the frame's drawing had completed, ns.
    public var end: UInt64

    public var frameTime: UInt64 { end &- start }
}

/// A `DemoScene` wrapper that records a `FrameTiming` per frame and forwards everything else.
/// It pulls through the same `pull` the scene uses, immediately before the scene's own update,
/// so the sample it notes is the one the frame shows.
public final class TimedScene: DemoScene {
    public let inner: DemoScene
    private let pull: () -> Received<DeviceMotion>?
    public private(set) var timings: [FrameTiming] = []
    private var open: FrameTiming?

    public init(_ inner: DemoScene, pull: @escaping () -> Received<DeviceMotion>?) {
        self.inner = inner
        self.pull = pull
        timings.reserveCapacity(4096)
    }

    public func handle(_ event: WindowEvent, controls: DemoControls) -> Bool { inner.handle(event, controls: controls) }

    public func update(_ frame: DemoFrame) {
        finishOpenFrame()
        let start = Nanoclock.now()
        let received = pull()
        let pulled = Nanoclock.now()
        inner.update(frame)
        open = FrameTiming(start: start, pulled: pulled, arrival: received.map { Nanoclock.nanoseconds($0.arrivalTime) },
                           end: 0)
    }

    public func draw(_ frame: DemoFrame, graphics: Graphics) { inner.draw(frame, graphics: graphics) }

    /// Closes the last frame; call after the loop returns.
    public func finishOpenFrame() {
        guard var frame = open else { return }
        // Headless rendering queues GL work; the frame is shown only when the GPU is done with it.
        glFinish()
        frame.end = Nanoclock.now()
        timings.append(frame)
        open = nil
    }
}
