import CartGame
import Engine
import Foundation
import Motion

/// The cart game as a `DemoScene`: input is gathered once per frame (keys, pad, the motion
/// frame), the rules tick at a fixed 60 Hz however fast frames come, and the draw blends the
/// last two states. Motion updates stop while the game is paused or over; a source that stops
/// sending pauses the game with a message until samples return.
public final class BadgerScene: DemoScene {
    public let rules: CartRules
    public let motion: BadgerMotionInput?
    private let renderer: BadgerRenderer
    private let gamepad: BadgerGamepad?
    private var previous: CartState
    private var current: CartState
    private var accumulator = 0.0
    private var keys = KeyState()
    private var buttons = ButtonInput()
    private var lastJumpAt: Double?
    private var lastDuckAt: Double?
    private var time = 0.0
    /// Start a game on the first tick (headless screenshots and `--autostart`).
    private var autostart: Bool
    /// Seconds without a new sample before the device counts as lost.
    public var staleAfter = 0.5
    /// Manager-clock time motion updates last (re)started: samples from before do not count.
    private var motionStartedAt: Double?

    private struct KeyState {
        var left = false, right = false, jump = false, duck = false, start = false, pause = false
    }

    public init(renderer: BadgerRenderer, motion: BadgerMotionInput?, gamepad: BadgerGamepad?, seed: UInt64,
                rules: CartRules = .standard, autostart: Bool = false) {
        self.renderer = renderer
        self.motion = motion
        self.gamepad = gamepad
        self.rules = rules
        self.autostart = autostart
        current = CartState(seed: seed, rules: rules)
        previous = current
        motionStartedAt = motion?.manager.clock.now()
    }

    public var state: CartState { current }

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
            if down { motion?.calibrate() }
        default: return false
        }
        return true
    }

    public func update(_ frame: DemoFrame) {
        time = frame.time
        motion?.advance(toFrameTime: frame.time)
        accumulator += min(0.25, max(0, frame.deltaTime))
        let dt = rules.tickInterval
        while accumulator >= dt {
            accumulator -= dt
            tick()
        }
    }

    /// One fixed tick: watch the source, build the command, step the rules.
    private func tick() {
        watchSource()
        var held = ButtonInput()
        held.leanAxis = (keys.right ? 1 : 0) - (keys.left ? 1 : 0)
        held.jumpHeld = keys.jump
        held.duckHeld = keys.duck
        held.startHeld = keys.start
        held.pauseHeld = keys.pause
        gamepad?.read(into: &held)
        buttons.leanAxis = held.leanAxis
        buttons.jumpHeld = held.jumpHeld
        buttons.duckHeld = held.duckHeld
        buttons.startHeld = held.startHeld
        buttons.pauseHeld = held.pauseHeld

        let motionFrame = current.phase == .playing || current.phase == .title ? motion?.frame() : nil
        if motionFrame?.jump != nil { lastJumpAt = time }
        if motionFrame?.duck != nil { lastDuckAt = time }
        var command = buttons.mix(with: motionFrame?.command ?? .idle)
        if autostart && (current.phase == .title) { command.start = true }
        if command.jump && motionFrame?.jump == nil { lastJumpAt = time }
        if command.duck && motionFrame?.duck == nil { lastDuckAt = time }

        previous = current
        current.step(command, rules: rules)
        if current.events.contains(.started) { motion?.redetectPose() }
        followPhaseWithMotionUpdates()
    }

    /// Paused by the player or over: motion updates stop (and the source is released); back
    /// to playing or the title: they start again.
    private func followPhaseWithMotionUpdates() {
        guard let motion else { return }
        switch current.phase {
        case .paused(.player), .gameOver:
            if motion.isRunning { motion.stop() }
        case .playing, .title:
            if !motion.isRunning {
                // A source that cannot restart leaves the buttons in charge; the HUD shows it.
                try? motion.start()
                motion.resetGestures()
                motionStartedAt = motion.manager.clock.now()
            }
        case .paused(.deviceLost):
            break  // keep listening for the device to come back
        }
    }

    private func watchSource() {
        guard let motion, motion.isRunning else { return }
        let lost: String?
        switch motion.connectionState {
        case .disconnected(let reason): lost = "the motion device went away: \(reason)"
        case .ended: lost = "the recording ended"
        case .failed(let reason): lost = reason
        case .running, .stopped:
            let now = motion.manager.clock.now()
            if let latest = motion.manager.latestDeviceMotion,
               now - max(latest.arrivalTime, motionStartedAt ?? -.infinity) > staleAfter {
                lost = String(format: "no motion for %.1f s", now - latest.arrivalTime)
            } else {
                lost = nil
            }
        }
        if let lost {
            current.deviceLost(lost)
        } else if case .paused(.deviceLost) = current.phase {
            current.deviceReturned()
            motion.resetGestures()
        }
    }

    public func draw(_ frame: DemoFrame, graphics: Graphics) {
        let view = BadgerView(previous: previous, current: current, alpha: accumulator / rules.tickInterval, rules: rules)
        renderer.drawScene(view, rules: rules, size: frame.size)
        let levels = motion?.gestureLevels ?? (jump: 0, duck: 0)
        var prompt: String?
        switch motion?.calibrationStep {
        case .holdStill?: prompt = "CALIBRATING: hold still"
        case .tipTowardYou?: prompt = "CALIBRATING: now tip the top toward you, sharply"
        default: prompt = nil
        }
        let facts = BadgerHUD.Facts(
            sinceJump: lastJumpAt.map { time - $0 }, sinceDuck: lastDuckAt.map { time - $0 },
            jumpLevel: levels.jump, duckLevel: levels.duck,
            settings: motion?.settings ?? .standard, pose: motion?.pose ?? .gamepad,
            sourceName: (motion?.sourceInfo.name ?? "keyboard")
                + (motion?.manager.measuredSampleRate.map { String(format: " @ %.0f Hz", $0) } ?? "")
                + (gamepad?.name.map { " + \($0)" } ?? ""),
            calibrationPrompt: prompt)
        BadgerHUD.draw(view, facts: facts, overlay: renderer.overlay, size: frame.size)
        renderer.overlay.draw(size: frame.size)
    }
}
