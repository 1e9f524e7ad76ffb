import Engine
import Motion

/// The teapot demo as a `DemoScene`: keys become commands, the motion is pulled once per frame
/// just before drawing, the state updates, then the renderer and the HUD draw it.
public final class TeapotScene: DemoScene {
    public private(set) var state: TeapotState
    public let input: SceneMotionInput
    public let renderer: TeapotRenderer
    public var showsHUD = true

    public init(state: TeapotState, input: SceneMotionInput, renderer: TeapotRenderer) {
        self.state = state
        self.input = input
        self.renderer = renderer
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
        return true
    }

    public func update(_ frame: DemoFrame) {
        if !state.paused { input.advance(toFrameTime: frame.time) }
        state.update(received: input.pull(), now: input.now(), dt: frame.deltaTime)
    }

    public func draw(_ frame: DemoFrame, graphics: Graphics) {
        renderer.drawScene(state, size: frame.size)
        guard showsHUD else { return }
        let facts = TeapotHUD.Facts(sourceName: input.sourceInfo.name, sampleRate: input.sourceInfo.nominalRate,
                                    measuredRate: input.manager.measuredSampleRate,
                                    diagnostics: input.diagnostics, gyroCalibration: input.gyroCalibration,
                                    connection: input.connectionState, frameTime: frame.timer.averageFrameTime,
                                    vsync: frame.vsync)
        TeapotHUD.draw(state, facts, overlay: renderer.overlay, size: frame.size)
        renderer.overlay.draw(size: frame.size)
    }
}

extension TeapotState {
    /// Brings `manager` in line with the state (cheap when nothing changed): the mode's estimator
    /// and the gravity cut-off in Hz. Call it before starting motion, and after each command.
    public func configure(_ manager: MotionManager) {
        let kind: DeviceMotionEstimatorKind = mode.usesAccelerometerOnly ? .accelerometer : .fusion
        if manager.deviceMotionEstimation != kind { manager.deviceMotionEstimation = kind }
        if manager.gravityFilterCutoff != gravityCutoff { manager.gravityFilterCutoff = gravityCutoff }
    }
}
