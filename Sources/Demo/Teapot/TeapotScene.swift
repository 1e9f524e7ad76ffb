import Engine
import Motion

/// The teapot demo as a `DemoScene`: keys become commands, the motion is pulled once per frame
/// just before drawing, the state updates, then the renderer and the HUD draw it.
public final class TeapotScene: DemoScene {
    public private(set) var state: TeapotState
    public let input: SceneMotionInput
    public let renderer: TeapotRenderer
    /// Fusion and accelerometer-only on every raw sample, for the compare view (started with the input).
    public let comparisonFeed: ComparisonFeed
    public var showsHUD = true
    /// Per-frame frame time and sample age (`--log FILE`).
    public var frameLog: FrameLog?

    /// `comparisonFeed` must be the one given to `input.start(observe:)` (see `TeapotState.startInput`);
    /// without one the compare view stays empty.
    public init(state: TeapotState, input: SceneMotionInput, renderer: TeapotRenderer,
                comparisonFeed: ComparisonFeed = ComparisonFeed()) {
        self.state = state
        self.input = input
        self.renderer = renderer
        self.comparisonFeed = comparisonFeed
    }

    public func handle(_ event: WindowEvent, controls: DemoControls) -> Bool {
        guard case .keyDown(let key) = event, let command = TeapotCommand.command(for: key) else { return false }
        switch command {
        case .quit: controls.quit()
        case .toggleFullscreen: controls.toggleFullscreen()
        case .toggleVSync: controls.toggleVSync()
        case .resetReferenceAttitude: input.manager.resetReferenceAttitude()
        case .calibrateGyro: input.calibrateGyro()
        default: break
        }
        state.apply(command)
        state.configure(input.manager)
        if comparisonFeed.cutoffFrequency != state.gravityCutoff { comparisonFeed.cutoffFrequency = state.gravityCutoff }
        return true
    }

    public func update(_ frame: DemoFrame) {
        if !state.paused { input.advance(toFrameTime: frame.time) }
        state.update(received: input.pull(), comparing: comparisonFeed.latest, now: input.now(), dt: frame.deltaTime)
        frameLog?.record(frame, sampleAge: state.sampleAge)
    }

    public func draw(_ frame: DemoFrame, graphics: Graphics) {
        renderer.drawScene(state, size: frame.size)
        guard showsHUD else { return }
        let facts = TeapotHUD.Facts(sourceName: input.sourceInfo.name, sampleRate: input.sourceInfo.nominalRate,
                                    measuredRate: input.manager.measuredSampleRate,
                                    diagnostics: input.diagnostics, gyroCalibration: input.gyroCalibration,
                                    connection: input.connectionState, frameTime: frame.timer.averageFrameTime,
                                    vsync: frame.vsync, compass: CompassHUD.Facts(input, motion: state.motion))
        TeapotHUD.draw(state, facts, overlay: renderer.overlay, size: frame.size)
        renderer.overlay.draw(size: frame.size)
    }
}

extension TeapotState {
    /// Configures the manager, then starts `input` with `feed` observing every raw sample (so the
    /// compare view can be switched on at any time with converged estimates).
    public func startInput(_ input: SceneMotionInput, feed: ComparisonFeed) throws {
        configure(input.manager)
        feed.cutoffFrequency = gravityCutoff
        if fusionAvailable {
            try input.start(observe: { sample in feed.add(sample) })
        } else {
            try input.start()
        }
    }

    /// Brings `manager` in line with the state (cheap when nothing changed): the mode's estimator
    /// and the gravity cut-off in Hz. Call it before starting motion, and after each command.
    public func configure(_ manager: MotionManager) {
        let kind: DeviceMotionEstimatorKind = usesAccelerometerOnly && !compare ? .accelerometer : .fusion
        if manager.deviceMotionEstimation != kind { manager.deviceMotionEstimation = kind }
        if manager.gravityFilterCutoff != gravityCutoff { manager.gravityFilterCutoff = gravityCutoff }
    }
}
