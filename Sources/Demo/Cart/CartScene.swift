import CartGame
import Engine
import Foundation
import Motion

/// The cart game as a `DemoScene`: keys and pad are gathered per tick (left stick or d-pad
/// leans, A/Cross jumps, B/Circle or X/Square ducks, Start pauses or starts), a `CartPlayer` ticks
/// the session at a fixed 60 Hz however fast frames come (the same ticks the headless replay
/// makes), and the draw blends the last two states.
public final class CartScene: DemoScene {
    public let player: CartPlayer
    private let renderer: CartRenderer
    private let gamepad: SDLGamepad?
    private var accumulator = 0.0
    private var keys = KeyState()
    private var lastJumpAt: Double?
    private var lastDuckAt: Double?
    private var time = 0.0
    /// Per-frame frame time and sample age (`--log FILE`).
    public var frameLog: FrameLog?

    private struct KeyState {
        var left = false, right = false, jump = false, duck = false, start = false, pause = false
    }

    public init(renderer: CartRenderer, player: CartPlayer, gamepad: SDLGamepad?) {
        self.renderer = renderer
        self.player = player
        self.gamepad = gamepad
    }

    public var state: CartState { player.session.current }
    private var rules: CartRules { player.session.rules }

    public func handle(_ event: WindowEvent, controls: DemoControls) -> Bool {
        let down: Bool
        let key: Key
        switch event {
        case .keyDown(let k): down = true; key = k
        case .keyUp(let k): down = false; key = k
        default: return false
        }
        switch key {
        case .left, .character("a"): keys.left = down
        case .right, .character("d"): keys.right = down
        case .space, .character("w"), .up: keys.jump = down
        case .down, .character("s"): keys.duck = down
        case .enter: keys.start = down
        case .character("p"): keys.pause = down
        case .character("c"):
            // Both calibrations start with "hold still": the gesture thresholds' rest level and
            // the gyro bias (the next second's mean) are taken from the same stillness.
            if down { player.calibrate(); player.motion?.calibrateGyro() }
        default: return false
        }
        return true
    }

    public func update(_ frame: DemoFrame) {
        time = frame.time
        player.motion?.advance(toFrameTime: frame.time)
        accumulator += min(0.25, max(0, frame.deltaTime))
        let dt = rules.tickInterval
        while accumulator >= dt {
            accumulator -= dt
            tick()
        }
        if let frameLog {
            let age = player.motion.flatMap { input in input.pull().map { input.now() - $0.arrivalTime } }
            frameLog.record(frame, sampleAge: age)
        }
    }

    private func tick() {
        var held = ButtonInput()
        let pad = gamepad?.read() ?? GamepadState()
        held.leanAxis = max(-1, min(1, (keys.right ? 1 : 0) - (keys.left ? 1 : 0) + pad.leanAxis))
        held.jumpHeld = keys.jump || pad.south
        held.duckHeld = keys.duck || pad.eastOrWest
        held.startHeld = keys.start || pad.start
        held.pauseHeld = keys.pause || pad.start
        let step = player.tick(buttons: held)
        if step.tick.command.jump { lastJumpAt = time }
        if step.tick.command.duck { lastDuckAt = time }
    }

    public func draw(_ frame: DemoFrame, graphics: Graphics) {
        let session = player.session
        let view = CartView(previous: session.previous, current: session.current, alpha: accumulator / rules.tickInterval,
                            rules: rules)
        renderer.drawScene(view, rules: rules, size: frame.size)
        let motion = player.motion
        var prompt: String?
        switch player.calibrationStep {
        case .holdStill?: prompt = "CALIBRATING: hold still"
        case .tipTowardYou?: prompt = "CALIBRATING: now tip the top toward you, sharply"
        default: prompt = nil
        }
        let facts = CartHUD.Facts(
            sinceJump: lastJumpAt.map { time - $0 }, sinceDuck: lastDuckAt.map { time - $0 },
            jumpLevel: player.gestureLevels.jump, duckLevel: player.gestureLevels.duck,
            settings: player.settings, pose: player.pose ?? .gamepad,
            sourceName: (motion?.sourceInfo.name ?? "keyboard")
                + (motion?.manager.measuredSampleRate.map { String(format: " @ %.0f Hz", $0) } ?? "")
                + (gamepad?.name.map { " + \($0)" } ?? ""),
            calibrationPrompt: prompt, gyroCalibration: motion?.gyroCalibration,
            gestureHold: motion == nil ? nil : player.gestureHold?.message)
        CartHUD.draw(view, facts: facts, overlay: renderer.overlay, size: frame.size)
        renderer.overlay.draw(size: frame.size)
    }
}
