import ArgumentParser
import Demo
import Engine
import Foundation
import Motion
import MotionSources
import MotionDevices

struct Teapot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The Core Motion teapot: a lit Utah teapot that turns with the motion source (the default command).",
        discussion: """
        Opens a window (SDL2 + OpenGL 3.3 core) and draws the teapot, a ground grid and RGB axes \
        (x red, y green, z blue) as the source moves. The latest device motion is pulled once per \
        frame just before drawing. Press H or F1 in the window for the keys.

        Pivots: camera (the camera stays put and the attitude turns it) or object (the camera \
        orbits the teapot, always facing it). Modes: fusion (device motion), accel (accelerometer \
        only: roll and pitch, no yaw; +/- change the gravity filter), translation (user \
        acceleration pulls the teapot off centre on a spring). --compare (key B) draws fusion and \
        accelerometer-only side by side from the same samples. A source without a gyro runs \
        accelerometer-only and says so; --mode fusion there is refused.

        --headless renders offscreen (SDL's offscreen driver when there is no display) and steps a \
        trace source by 1/60 s per frame, so --frames N shows the trace at --at + N/60 seconds.

        Exit codes: 3 no window system, 4 no OpenGL 3.3 core, 5 shader file missing or broken, \
        6 motion source or trace unusable, 7 screenshot not written.

        Example: tiltkit teapot --headless --frames 120 --at 20 --pivot camera --screenshot teapot.png
        Example: tiltkit teapot --compare --frame x-magnetic-north-z-vertical
        """)

    @Option(help: "Motion source: \(SourceSpec.kinds.joined(separator: ", ")) or a trace file. Default: the bundled x-io trace, looped.")
    var source: String = "auto"

    @Option(help: "camera | object")
    var pivot: TeapotPivot = .object

    @Option(help: "fusion | accel | translation. Default: fusion, or accel on a source without a gyro (fusion needs one).")
    var mode: TeapotMode?

    @OptionGroup var window: WindowOptions

    @OptionGroup var gyro: GyroCalibrationOptions

    @OptionGroup var reference: FrameOptions

    @Option(help: "Accelerometer-only gravity filter cut-off, Hz.")
    var cutoff: Double = 2

    @Option(help: "The acceleration graph's axis: x, y or z.")
    var graphAxis: String = "y"

    @Flag(help: "Fusion (left) and accelerometer-only (right) side by side from the same samples, with a strip of the angle between their gravities and, where the source carries a reference, each one's error (key B).")
    var compare = false

    @Flag(help: "Show the key help overlay from the start.")
    var showHelp = false

    @Option(help: ArgumentHelp("Write each frame's frame time and the pulled sample's age to this CSV.", valueName: "FILE"))
    var log: String?

    @Option(help: "Samples per pixel for smooth edges (4 is ten times slower on a software renderer).")
    var msaa: Int = 1

    func validate() throws {
        if window.headless && window.frames == nil { throw ValidationError("--headless needs --frames N") }
        if window.at > 0 && !window.headless { throw ValidationError("--at needs --headless (windowed runs replay in real time)") }
        guard ["x", "y", "z"].contains(graphAxis) else { throw ValidationError("--graph-axis must be x, y or z") }
        guard (1...16).contains(msaa) else { throw ValidationError("--msaa must be 1...16 samples") }
        guard cutoff > 0, cutoff.isFinite else { throw ValidationError("--cutoff must be a positive frequency in Hz") }
    }

    func run() throws {
        let frameLog = try FrameLog.open(log)
        let input: SceneMotionInput
        do {
            input = try makeInput()
            let hasGyro = input.manager.isGyroAvailable
            if !hasGyro, mode == .fusion {
                DemoExit.fail("teapot", "--mode fusion: \(TeapotMode.fusionNeedsGyro) (\(input.sourceInfo.name)); "
                              + "use --mode accel, the accelerometer-only estimate", code: 6)
            }
            let axis = ["x", "y", "z"].firstIndex(of: graphAxis) ?? 1
            var startState = TeapotState(mode: mode ?? (hasGyro ? .fusion : .accel), pivot: pivot, gravityCutoff: cutoff,
                                         graphAxis: axis, fusionAvailable: hasGyro, compare: compare)
            if compare && !hasGyro {
                DemoExit.fail("teapot", "--compare: \(TeapotMode.compareNeedsGyro) (\(input.sourceInfo.name))", code: 6)
            }
            startState.showHelp = showHelp
            try reference.apply(to: input)
            let feed = ComparisonFeed()
            try startState.startInput(input, feed: feed)
            try runWindow(input: input, state: startState, feed: feed, frameLog: frameLog)
        } catch let error as EngineError {
            DemoExit.fail("teapot", error.description, code: DemoExit.code(error))
        } catch let exit as ExitCode {
            throw exit
        } catch {
            DemoExit.fail("teapot", "motion source: \(error)", code: 6)
        }
    }

    private func runWindow(input: SceneMotionInput, state: TeapotState, feed: ComparisonFeed, frameLog: FrameLog?) throws(EngineError) {
        defer { input.stop() }
        let options = window.runOptions(title: "Tiltkit teapot", sampleCount: msaa)
        let app = try DemoApp(options)
        defer { app.close() }
        app.feedControllerEvents(to: input.manager.source)
        let renderer = try TeapotRenderer(graphics: app.graphics, shaders: app.shaders, rig: state.rig)
        let scene = TeapotScene(state: state, input: input, renderer: renderer, comparisonFeed: feed)
        scene.frameLog = frameLog
        let drawn = try app.run(scene)
        if let frameLog, let log {
            do { try frameLog.close(); print("wrote \(log) (\(drawn) frames)") } catch { DemoExit.fail("teapot", "--log: \(error)", code: 6) }
        }
        if let screenshot = window.screenshot { print("wrote \(screenshot) (\(options.size), frame \(drawn))") }
        print(input.summary)
    }

    /// Headless runs step trace sources by frame; windowed runs replay them on their own thread.
    private func makeInput() throws -> SceneMotionInput {
        let spec = try SourceSpec(parsing: source)
        if window.headless, let url = try spec.recordedTraceURL() {
            return SceneMotionInput(steppedReplay: try steppedReplay(url, loop: true),
                                    startTime: window.at,
                                    gyroCalibration: GyroCalibrationChoice.mode(given: gyro.choice, live: false))
        }
        if window.at > 0 { throw ValidationError("--at needs a trace source") }
        return SceneMotionInput(source: try spec.openSource(SourceSpec.Options(speed: 1, loop: true, gyroCalibration: gyro.choice)))
    }

}

extension TeapotPivot: ExpressibleByArgument {}
extension TeapotMode: ExpressibleByArgument {}
