import ArgumentParser
import Demo
import Engine
import Foundation
import Motion
import MotionSources
import MotionDevices

struct Aim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aim",
        abstract: "Gyro aiming on a target range: the view turns as the pad turns (local, player or world space, or leaning in player-lean or world-lean).",
        discussion: """
        The turret of Core Motion's 2010 talk as a small target range: eight targets around you; \
        the view's yaw and pitch follow the gyro through GyroAim (GyroWiki's spaces, real-world \
        sensitivity, optional acceleration, soft tiered smoothing of the smallest motions). \
        A target under the crosshair is shot (auto-fire; A toggles it). Keys: space fires, hold R \
        for "gyro off" (re-centre the pad without turning), H hides the HUD. Pad: R1 fires, hold L1 for gyro off.

        Spaces: local (yaw about the pad's own z), player (yaw about gravity from yaw and roll \
        combined; the default), world (yaw about gravity, pitch about the horizontal).

        --headless --events replays a trace deterministically (60 Hz frames of trace time, every \
        sample through the aim): JSON lines of aim angles (2 Hz) and shots, then a summary. \
        --headless --frames N --screenshot PNG renders frame N offscreen.

        Exit codes: 3 no window system, 4 no OpenGL 3.3 core, 5 shader missing or broken, \
        6 motion source or trace unusable, 7 screenshot not written.

        Examples:
          tiltkit aim --source auto --space player
          tiltkit aim --headless --events
          tiltkit aim --headless --frames 3052 --screenshot aim-range.png
        """)

    @Option(help: "Motion source: \(SourceSpec.kinds.joined(separator: ", ")) or a trace file. Default auto: the first pad or IMU found, else the bundled x-io trace (headless: the trace).")
    var source: String = "auto"

    @Option(help: "player | world | local | player-lean | world-lean")
    var space: GyroSpace = .player

    @Option(help: "View turn per pad turn: 1 turns the view by the angle the pad turned.")
    var sensitivity: Double = 1

    @Option(help: "Acceleration: LOW,HIGH,SLOW,FAST: sensitivity LOW at SLOW deg/s and below, HIGH at FAST and above.")
    var acceleration: String?

    @Option(help: "Soft tiered smoothing below this aim speed, deg/s (fully smoothed under half of it); 0: off.")
    var smoothing: Double = TieredSmoothing.Settings.default.upperSpeed

    @OptionGroup var window: WindowOptions

    @OptionGroup var gyro: GyroCalibrationOptions

    @Flag(help: "Headless: print JSON lines of aim angles and shots, then a summary.")
    var events = false

    func validate() throws {
        if events && !window.headless { throw ValidationError("--events needs --headless") }
        if events && window.screenshot != nil { throw ValidationError("--events and --screenshot are separate runs") }
        if window.headless && !events && window.frames == nil { throw ValidationError("--headless needs --events, or --frames N to render") }
        guard sensitivity.isFinite, sensitivity >= 0 else { throw ValidationError("--sensitivity must be 0 or more") }
        guard smoothing.isFinite, smoothing >= 0 else { throw ValidationError("--smoothing must be a speed in deg/s, 0 or more") }
        _ = try parsedAcceleration()
    }

    private func parsedAcceleration() throws -> GyroAcceleration? {
        guard let acceleration else { return nil }
        let v = acceleration.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard v.count == 4, v.allSatisfy({ $0.isFinite && $0 >= 0 }), v[3] >= v[2] else {
            throw ValidationError("--acceleration wants LOW,HIGH,SLOW,FAST (e.g. 0.5,2,20,120), got '\(acceleration)'")
        }
        return GyroAcceleration(lowerSensitivity: v[0], upperSensitivity: v[1], lowerSpeed: v[2], upperSpeed: v[3])
    }

    private func settings() throws -> GyroAimSettings {
        var s = GyroAimSettings.default
        s.space = space
        s.sensitivity = sensitivity
        s.acceleration = try parsedAcceleration()
        s.smoothing = smoothing > 0 ? TieredSmoothing.Settings(lowerSpeed: smoothing / 2, upperSpeed: smoothing) : nil
        return s
    }

    func run() throws {
        do {
            if events {
                try printEvents()
                return
            }
            let input = try makeInput()
            let player = AimPlayer(motion: input, settings: try settings())
            try player.start()
            try play(player)
        } catch let error as EngineError {
            DemoExit.fail("aim", error.description, code: DemoExit.code(error))
        } catch let exit as ExitCode {
            throw exit
        } catch let error as ValidationError {
            throw error
        } catch {
            DemoExit.fail("aim", "motion source: \(error)", code: 6)
        }
    }

    private func printEvents() throws {
        let replay = try steppedReplay(try recordedTrace(try SourceSpec(parsing: source)), loop: false)
        var options = AimReplay.Options(settings: try settings())
        options.gyroCalibration = GyroCalibrationChoice.mode(given: gyro.choice, live: false)
        let result = try AimReplay.run(replay: replay, options: options) { print($0.json) }
        let r = result.range
        print("{\"final\":true,\"space\":\"\(space.rawValue)\",\"sensitivity\":\(sensitivity),\"frames\":\(result.frames),"
            + String(format: "\"yaw\":%.2f,\"pitch\":%.2f,", r.yaw, r.pitch)
            + "\"shots\":\(r.shots),\"hits\":\(r.hits),\"hits_by_target\":[\(r.targets.map { String($0.hits) }.joined(separator: ","))]}")
    }

    /// Headless runs step a trace by frame; windowed runs play the source live.
    private func makeInput() throws -> SceneMotionInput {
        let spec = try SourceSpec(parsing: source)
        if window.headless {
            return SceneMotionInput(steppedReplay: try steppedReplay(try recordedTrace(spec), loop: true),
                                    startTime: window.at,
                                    gyroCalibration: GyroCalibrationChoice.mode(given: gyro.choice, live: false))
        }
        if window.at > 0 { throw ValidationError("--at works with --headless and a trace source") }
        return SceneMotionInput(source: try spec.openSource(SourceSpec.Options(speed: 1, loop: true, gyroCalibration: gyro.choice)))
    }

    private func play(_ player: AimPlayer) throws(EngineError) {
        defer { player.stop() }
        let options = window.runOptions(title: "Tiltkit aim", clearColor: AimRenderer.background)
        let app = try DemoApp(options)
        defer { app.close() }
        app.feedControllerEvents(to: player.motion.manager.source)
        let renderer = try AimRenderer(graphics: app.graphics, shaders: app.shaders)
        let scene = AimScene(player: player, renderer: renderer, gamepad: window.headless ? nil : SDLGamepad())
        let drawn = try app.run(scene)
        if let screenshot = window.screenshot { print("wrote \(screenshot) (\(options.size), frame \(drawn))") }
        let r = scene.range
        print(String(format: "aim yaw %.1f pitch %.1f deg, hits %d / shots %d", r.yaw, r.pitch, r.hits, r.shots))
        print(player.motion.summary)
    }

    private func recordedTrace(_ spec: SourceSpec) throws -> URL {
        guard let url = try spec.recordedTraceURL() else {
            throw ValidationError("--headless replays a recording: give --source FILE (a trace), not a device")
        }
        return url
    }
}

extension GyroSpace: ExpressibleByArgument {}
