import Engine
import Motion

/// Everything the teapot demo shows, updated without a window: tests and the headless path
/// drive it with recorded motion. The scene reads it to draw; nothing here touches GL.
public struct TeapotState: Sendable {
    public var mode: TeapotMode
    public var pivot: TeapotPivot
    /// False for a source without a gyro: fusion cannot run, so every mode runs on the
    /// accelerometer-only estimate and says so.
    public let fusionAvailable: Bool
    /// A one-line reason shown in the HUD when a command could not be followed.
    public private(set) var notice: String?
    /// Fusion (left) and accelerometer-only (right) side by side, from the same samples.
    public private(set) var compare = false
    public private(set) var comparison = TeapotComparison()
    public var paused = false
    public var showHelp = false
    /// Accelerometer-only gravity low-pass cut-off, Hz, within `cutoffRange`. Lower: steadier but
    /// lags; higher: follows fast turns but wobbles with every bump.
    public private(set) var gravityCutoff: Double
    /// The axis the acceleration graph plots: 0 = x, 1 = y (the default: it swings as the device
    /// pitches), 2 = z.
    public private(set) var graphAxis = 0
    public var rig = TeapotCameraRig()
    public private(set) var spring = TeapotSpring()

    /// The motion pulled for this frame and when it arrived (seconds on the manager's clock).
    public private(set) var motion: DeviceMotion?
    /// Seconds between the pulled sample's arrival and the pull, on the same clock.
    public private(set) var sampleAge: Double?
    /// The last `graphCapacity` distinct samples for the graph, oldest first.
    public private(set) var history: [DeviceMotion] = []
    public static let graphCapacity = 240
    public static let cutoffRange = 0.1...50.0

    public init(mode: TeapotMode = .fusion, pivot: TeapotPivot = .object, gravityCutoff: Double = 2, graphAxis: Int = 1,
                fusionAvailable: Bool = true, compare: Bool = false) {
        self.fusionAvailable = fusionAvailable
        self.compare = compare && fusionAvailable
        if compare && !fusionAvailable { notice = TeapotMode.compareNeedsGyro }
        self.mode = fusionAvailable || mode != .fusion ? mode : .accel
        self.pivot = pivot
        self.graphAxis = min(max(graphAxis, 0), 2)
        self.gravityCutoff = min(max(gravityCutoff, Self.cutoffRange.lowerBound), Self.cutoffRange.upperBound)
    }

    /// Applies a command that changes only the scene's own state (the scene forwards the rest:
    /// reference reset to the motion manager, fullscreen and vsync to the window).
    public mutating func apply(_ command: TeapotCommand) {
        switch command {
        case .setMode(.fusion) where !fusionAvailable:
            notice = TeapotMode.fusionNeedsGyro
        case .setMode(let m):
            if m != mode { spring.reset(); comparison.resetSprings() }
            mode = m
            notice = nil
        case .togglePivot: pivot = pivot.toggled
        case .togglePause: paused.toggle()
        case .scaleGravityCutoff(let factor):
            gravityCutoff = min(max(gravityCutoff * factor, Self.cutoffRange.lowerBound), Self.cutoffRange.upperBound)
        case .cycleGraphAxis: graphAxis = (graphAxis + 1) % 3
        case .toggleHelp: showHelp.toggle()
        case .toggleCompare where !fusionAvailable: notice = TeapotMode.compareNeedsGyro
        case .toggleCompare: compare.toggle()
        case .resetReferenceAttitude:
            spring.reset()
            comparison.resetReference()
        case .toggleFullscreen, .toggleVSync, .calibrateGyro, .quit: break
        }
    }

    /// One frame: the motion pulled just before drawing (`received` nil before the first sample),
    /// the latest fusion-against-accelerometer-only frame for the compare view, `now` on the
    /// manager's clock, `dt` seconds since the last frame. Paused: nothing moves.
    public mutating func update(received: Received<DeviceMotion>?, comparing frame: ComparisonFrame? = nil,
                                now: Double, dt: Double) {
        guard !paused else { return }
        comparison.update(frame, translation: mode == .translation, dt: dt)
        if let received {
            let m = received.value
            if m.timestamp != motion?.timestamp {
                history.append(m)
                if history.count > Self.graphCapacity { history.removeFirst(history.count - Self.graphCapacity) }
                if mode == .translation {
                    spring.observe(userAcceleration: m.userAcceleration, attitude: m.attitude, timestamp: m.timestamp)
                }
            }
            motion = m
            sampleAge = now - received.arrivalTime
        }
        if mode == .translation { spring.step(dt: dt) }
    }

    /// True when the accelerometer-only estimate runs: the accel mode, or any mode without a gyro.
    public var usesAccelerometerOnly: Bool { mode.usesAccelerometerOnly || !fusionAvailable }

    /// What runs, for the HUD: the mode's title, or its accelerometer-only form without a gyro.
    public var modeTitle: String { fusionAvailable ? mode.title : mode.accelerometerOnlyTitle }

    /// The attitude drawn this frame (identity until the first sample).
    public var attitude: Attitude { motion?.attitude ?? .identity }

    /// The teapot's model matrix (off centre only in translation mode).
    public var modelMatrix: Mat4 { rig.modelMatrix(offset: mode == .translation ? Vec3f(spring.offset) : .zero) }

    /// The camera's view matrix for the current pivot.
    public var viewMatrix: Mat4 { rig.viewMatrix(attitude: attitude, pivot: pivot) }

    /// The compare view's camera for one side: fusion (left) or accelerometer-only (right).
    public func comparisonViewMatrix(fusion: Bool) -> Mat4 {
        rig.viewMatrix(attitude: fusion ? comparison.fusionAttitude : comparison.accelerometerOnlyAttitude, pivot: pivot)
    }

    /// The compare view's teapot for one side, off centre by that side's spring in translation mode.
    public func comparisonModelMatrix(fusion: Bool) -> Mat4 {
        let spring = fusion ? comparison.fusionSpring : comparison.accelerometerOnlySpring
        return rig.modelMatrix(offset: mode == .translation ? Vec3f(spring.offset) : .zero)
    }

    /// The graph's three series on `graphAxis`: raw acceleration (gravity + user), gravity, user
    /// acceleration, in g.
    public var graphSeries: (raw: [Float], gravity: [Float], user: [Float]) {
        let axis = graphAxis
        let gravity = history.map { Float($0.gravity[axis]) }
        let user = history.map { Float($0.userAcceleration[axis]) }
        return (zip(gravity, user).map { $0 + $1 }, gravity, user)
    }
}
