import ArgumentParser
import CartGame
import Demo
import Engine
import Foundation
import Motion
import MotionSources
import MotionDevices

struct Cart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cart",
        abstract: "The Badger-style cart game: lean to grab gems, tip toward you to jump, push down to duck.",
        discussion: """
        Motion controls as in Core Motion's 2017 talk: the latest device motion is pulled every \
        frame for the lean (gravity split into its component along the device's lateral axis and \
        the rest; the cart leans at that angle, whatever the device's pitch); pushed samples fill \
        ring buffers of the rotation rate about the lateral axis (jump when its mean crosses a \
        threshold) and of the user acceleration along gravity (duck). Keys: arrows or A/D lean, \
        space/W/up jump, S/down duck, P pause, Enter start, C calibrate (hold still: the gyro bias \
        and the gesture rest level; then tip toward you). Gamepad: left stick lean, A jump, B/X duck, Start pause.

        Jump and duck are held off while the player walks or runs (motion activity from the same \
        pushed samples; a step jolts the device as a gesture does) and resume at the first still \
        4 s window; until a first still window after a start or a gap they wait too. The HUD says \
        why ("running - gestures paused"), and --events prints a {"gestures":"held"|"on"} line at each change.

        Poses (--pose): landscape-left or landscape-right (a phone in landscape, the talk's case) \
        or gamepad (a pad held normally, or anything flat or in portrait); detected from gravity \
        at each game start unless given.

        --headless --events replays a recording without a window, deterministically, through the \
        same motion manager and game session as the window: 60 Hz ticks on trace time; the samples \
        due by each tick are pushed to the gesture buffers and published for the lean's pull, then \
        the game ticks once. It prints one JSON line per gesture and a lean line at 10 Hz, then a \
        summary with the score and the gesture latency in trace time (tick time minus the arrival \
        of the sample that crossed the threshold). `tiltkit bench latency` measures it in wall time.

        --headless --screenshot PATH --frames N renders frame N offscreen (trace stepped by 1/60 s).

        Exit codes: 3 no window system, 4 no OpenGL 3.3 core, 5 shader missing or broken, \
        6 motion source or trace unusable, 7 screenshot not written.

        Examples:
          tiltkit cart
          tiltkit cart --source Assets/traces/xio/sensor_data.csv --headless --events
          tiltkit cart --headless --frames 90 --at 33 --screenshot cart.png
        """,
        aliases: ["badger"])

    @Option(help: "Motion source: \(SourceSpec.kinds.joined(separator: ", ")) or a trace file. Default: the bundled x-io trace.")
    var source: String = "auto"

    @Option(help: "Track seed (the same seed builds the same track). Default: 1 headless, random live.")
    var seed: UInt64?

    @Option(help: "landscape-left | landscape-right | gamepad (default: detected from gravity).")
    var pose: HoldingPose?

    @Option(help: "Device-motion update rate for the gesture buffers, Hz (the talk: 50; default 100).")
    var rate: Double?

    @OptionGroup var window: WindowOptions

    @OptionGroup var gyro: GyroCalibrationOptions

    @OptionGroup var reference: FrameOptions

    @Flag(help: "Headless: print JSON lines for gestures, leans (10 Hz) and the final score.")
    var events = false

    @Flag(help: "Replay a trace source in a loop (otherwise its end pauses the game).")
    var loop = false

    @Flag(help: "Calibrate first (as the C key): hold still (gyro bias, gesture rest level), then tip toward you.")
    var calibrate = false

    @Option(help: ArgumentHelp("Write each frame's frame time and the pulled sample's age to this CSV.", valueName: "FILE"))
    var log: String?

    func validate() throws {
        if events && !window.headless { throw ValidationError("--events needs --headless") }
        if events && window.screenshot != nil { throw ValidationError("--events and --screenshot are separate runs") }
        if events && log != nil { throw ValidationError("--log needs frames: not with --events") }
        if window.headless && !events && window.frames == nil { throw ValidationError("--headless needs --events, or --frames N to render") }
        if let rate, !(rate > 0 && rate <= 1000) { throw ValidationError("--rate must be in 0…1000 Hz, got \(rate)") }
    }

    private var controlSettings: MotionControlSettings {
        var settings = MotionControlSettings.standard
        if let rate { settings.updateInterval = 1 / rate }
        return settings
    }

    func run() throws {
        do {
            if events {
                try printEvents()
                return
            }
            let player = try makePlayer()
            // The same as the C key: both calibrations take the opening stillness.
            if calibrate { player.calibrate(); player.motion?.calibrateGyro() }
            let frameLog = try FrameLog.open(log)
            try player.start()
            try play(player, frameLog: frameLog)
        } catch let error as EngineError {
            DemoExit.fail("cart", error.description, code: DemoExit.code(error))
        } catch let exit as ExitCode {
            throw exit
        } catch let error as ValidationError {
            throw error
        } catch let error as FrameLogError {
            DemoExit.fail("cart", error.description, code: 6)
        } catch {
            DemoExit.fail("cart", "motion source: \(error)", code: 6)
        }
    }

    // MARK: - Headless events

    private func printEvents() throws {
        let url = try recordedTrace(try SourceSpec(parsing: source))
        let replay = try steppedReplay(url, loop: false)
        var options = CartReplay.Options(seed: seed ?? 1, pose: pose)
        options.controls = controlSettings
        options.gyroCalibration = GyroCalibrationChoice.mode(given: gyro.choice, live: false)
        let result = try CartReplay.run(replay: replay, options: options) { print($0.json) }
        print(Self.summary(result, samples: replay.sampleCount))
    }

    static func summary(_ result: CartReplay.Result, samples: Int) -> String {
        let latencies = result.latencies.map { $0 * 1000 }
        let mean = latencies.isEmpty ? 0 : latencies.reduce(0, +) / Double(latencies.count)
        let worst = latencies.max() ?? 0
        let frameMs = 1000 / CartRules.standard.tickRate
        return "{\"final\":true,\"score\":\(result.totalScore),\"last_game_score\":\(result.finalState.score),"
            + "\"games\":\(result.games),\"last_game_gems\":\(result.finalState.gemsCollected),\"jumps\":\(result.jumps),\"ducks\":\(result.ducks),"
            + "\"pose\":\"\(result.pose.rawValue)\",\"frames\":\(result.frames),\"samples\":\(samples),"
            + "\"rejected_samples\":\(result.rejectedSamples),"
            + String(format: "\"latency_ms\":{\"mean\":%.1f,\"max\":%.1f,\"frame\":%.1f,\"within_one_frame\":%@}}",
                     mean, worst, frameMs, worst <= frameMs + 1e-6 ? "true" : "false")
    }

    // MARK: - Window or headless render

    /// Headless runs step a trace by frame; windowed runs play the source live.
    private func makePlayer() throws -> CartPlayer {
        let spec = try SourceSpec(parsing: source)
        let input: SceneMotionInput
        if window.headless {
            input = SceneMotionInput(steppedReplay: try steppedReplay(try recordedTrace(spec), loop: loop), startTime: window.at,
                                     gyroCalibration: GyroCalibrationChoice.mode(given: gyro.choice, live: false))
        } else {
            if window.at > 0 { throw ValidationError("--at works with --headless and a trace source") }
            input = SceneMotionInput(source: try spec.openSource(SourceSpec.Options(speed: 1, loop: loop, gyroCalibration: gyro.choice)))
        }
        try reference.apply(to: input)
        let liveSeed = seed ?? (window.headless ? 1 : UInt64.random(in: 1...UInt64.max))
        return CartPlayer(motion: input, settings: controlSettings, pose: pose,
                          session: CartSession(seed: liveSeed, autostart: window.headless))
    }

    private func play(_ player: CartPlayer, frameLog: FrameLog?) throws(EngineError) {
        defer { player.stop() }
        let options = window.runOptions(title: "Tiltkit cart", clearColor: CartRenderer.background)
        let app = try DemoApp(options)
        defer { app.close() }
        if let source = player.motion?.manager.source { app.feedControllerEvents(to: source) }
        let renderer = try CartRenderer(graphics: app.graphics, shaders: app.shaders)
        let scene = CartScene(renderer: renderer, player: player, gamepad: window.headless ? nil : SDLGamepad())
        scene.frameLog = frameLog
        let drawn = try app.run(scene)
        if let frameLog, let log {
            do { try frameLog.close(); print("wrote \(log) (\(drawn) frames)") } catch { DemoExit.fail("cart", "--log: \(error)", code: 6) }
        }
        if let screenshot = window.screenshot { print("wrote \(screenshot) (\(options.size), frame \(drawn))") }
        print("score \(scene.state.score), gems \(scene.state.gemsCollected), crashes \(scene.state.crashes)")
        if let motion = player.motion { print(motion.summary) }
    }

    /// The trace file a spec names (the bundled default for `auto`); devices cannot be replayed.
    private func recordedTrace(_ spec: SourceSpec) throws -> URL {
        guard let url = try spec.recordedTraceURL() else {
            throw ValidationError("--headless replays a recording: give --source FILE (a trace), not a device")
        }
        return url
    }
}

extension HoldingPose: ExpressibleByArgument {}
