import Engine
import Foundation
import Motion
import TestSupport
import Testing
@testable import Demo

/// The teapot's pure core, driven with the bundled real trace (x-io IMU, 100 Hz, MIT): no window.
@Suite struct TeapotMotionTests {
    static func bundledTrace() throws -> Trace {
        try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv"))
    }

    /// Device motion after stepping the bundled trace to `time` seconds in `mode`.
    static func motion(at time: Double, mode: TeapotMode, trace: Trace) throws -> Received<DeviceMotion>? {
        let input = SceneMotionInput(steppedReplay: SteppedReplaySource(trace: trace), startTime: time)
        TeapotState(mode: mode).configure(input.manager)
        try input.start()
        defer { input.stop() }
        return input.pull()
    }

    @Test func steppingTheReplayPinsTheTraceTimeAndRepeatsExactly() throws {
        let trace = try Self.bundledTrace()
        let first = try #require(try Self.motion(at: 20, mode: .fusion, trace: trace))
        let again = try #require(try Self.motion(at: 20, mode: .fusion, trace: trace))
        // The last sample delivered is the last one at or before 20 s...
        let expected = try #require(trace.samples.last { $0.timestamp - trace.samples[0].timestamp <= 20 })
        #expect(first.value.timestamp == expected.timestamp)
        // ... it arrived on the replay's clock when it was due, and a second run is identical.
        #expect(first.arrivalTime == expected.timestamp - trace.samples[0].timestamp)
        #expect(first.value == again.value)
    }

    @Test func theHUDShowsTheNominalAndTheMeasuredRateAndTheSourcesReports() throws {
        // the bundled x-io trace stepped to 20 s: its samples arrive at 100 Hz
        let input = SceneMotionInput(steppedReplay: SteppedReplaySource(trace: try Self.bundledTrace()), startTime: 20)
        TeapotState(mode: .fusion).configure(input.manager)
        try input.start()
        defer { input.stop() }
        let measured = try #require(input.manager.measuredSampleRate)
        #expect(abs(measured - 100) < 1, "\(measured) Hz")
        let facts = TeapotHUD.Facts(sourceName: "DualSense (hidraw3)", sampleRate: 250, measuredRate: 124.6,
                                    diagnostics: "10 reports decoded, 10 samples, 1 bad CRC", connection: .running,
                                    frameTime: 1.0 / 60, vsync: true)
        let lines = TeapotHUD.statusLines(TeapotState(), facts)
        #expect(lines.contains("source DualSense (hidraw3) @ 250 Hz, measured 124.6 Hz"))
        #expect(lines.contains("reports 10 reports decoded, 10 samples, 1 bad CRC"))
        #expect(TeapotHUD.rateNote(nominal: nil, measured: nil) == "")
    }

    @Test func accelerometerOnlyModeGivesRollAndPitchButNeverYaw() throws {
        let trace = try Self.bundledTrace()
        // 50 s: in the yaw spins (45–60 s), where fusion sees yaw and gravity alone cannot.
        let accel = try #require(try Self.motion(at: 50, mode: .accel, trace: trace)).value
        let fused = try #require(try Self.motion(at: 50, mode: .fusion, trace: trace)).value
        #expect(abs(accel.attitude.yaw) < 1e-9)
        #expect(abs(fused.attitude.yaw) > 0.05)
        // Roll and pitch agree within a few degrees when the device is not shaken hard.
        let still = try #require(try Self.motion(at: 8, mode: .accel, trace: trace)).value
        let stillFused = try #require(try Self.motion(at: 8, mode: .fusion, trace: trace)).value
        #expect(abs(still.attitude.pitch - stillFused.attitude.pitch) < 0.05)
        #expect(abs(still.attitude.roll - stillFused.attitude.roll) < 0.05)
    }

    @Test func theStateRecordsEachNewSampleOnceAndMeasuresItsAge() throws {
        let trace = try Self.bundledTrace()
        let replay = SteppedReplaySource(trace: trace)
        let input = SceneMotionInput(steppedReplay: replay, startTime: 10)
        TeapotState(mode: .fusion).configure(input.manager)
        try input.start()
        defer { input.stop() }
        var state = TeapotState()
        for frame in 0..<30 {
            input.advance(toFrameTime: Double(frame) / 60)
            state.update(received: input.pull(), now: input.now(), dt: 1.0 / 60)
            // Age = frame time − arrival of the newest sample: under one 100 Hz period.
            let age = try #require(state.sampleAge)
            #expect(age >= 0 && age < 0.0101)
        }
        #expect(state.history.count == 30)
        // Pulling twice in one frame adds nothing.
        state.update(received: input.pull(), now: input.now(), dt: 0)
        #expect(state.history.count == 30)
        let series = state.graphSeries
        #expect(series.raw.count == 30)
        // raw = gravity + user acceleration, as Core Motion defines them.
        for i in 0..<30 { #expect(abs(series.raw[i] - series.gravity[i] - series.user[i]) < 1e-6) }
    }

    @Test func pauseFreezesTheState() {
        var state = TeapotState()
        let a = DeviceMotion(timestamp: 1, attitude: Attitude(roll: 0.3, pitch: 0, yaw: 0), rotationRate: .zero,
                             gravity: Vector3(0, 0, -1), userAcceleration: .zero)
        state.update(received: Received(value: a, arrivalTime: 1), now: 1, dt: 0)
        state.apply(.togglePause)
        var b = a
        b.timestamp = 2
        b.attitude = Attitude(roll: -0.3, pitch: 0, yaw: 0)
        state.update(received: Received(value: b, arrivalTime: 2), now: 2, dt: 1)
        #expect(state.attitude == a.attitude)
        state.apply(.togglePause)
        state.update(received: Received(value: b, arrivalTime: 2), now: 2, dt: 1)
        #expect(state.attitude == b.attitude)
    }

    @Test func commandsChangeModePivotAndTheGravityCutOffWithinRange() {
        var state = TeapotState(mode: .fusion, pivot: .object, gravityCutoff: 2)
        state.apply(.togglePivot)
        #expect(state.pivot == .camera)
        state.apply(.setMode(.accel))
        #expect(state.mode == .accel)
        state.apply(.scaleGravityCutoff(1.25))
        #expect(abs(state.gravityCutoff - 2.5) < 1e-12)
        for _ in 0..<100 { state.apply(.scaleGravityCutoff(0.8)) }
        #expect(state.gravityCutoff == TeapotState.cutoffRange.lowerBound)
        for _ in 0..<100 { state.apply(.scaleGravityCutoff(1.25)) }
        #expect(state.gravityCutoff == TeapotState.cutoffRange.upperBound)
    }

    @Test func everyKeyHasOneCommand() {
        let keys = TeapotCommand.keyMap.flatMap(\.keys)
        #expect(Set(keys).count == keys.count)
        #expect(TeapotCommand.command(for: .character("r")) == .resetReferenceAttitude)
        #expect(TeapotCommand.command(for: .f1) == .toggleHelp)
        #expect(TeapotCommand.command(for: .character("z")) == nil)
    }
}

@Suite struct TeapotRigTests {
    static let attitudes = [
        Attitude.identity, Attitude(roll: 0.4, pitch: -0.3, yaw: 1.2), Attitude(roll: -1.1, pitch: 0.7, yaw: -2.5),
        Attitude(roll: 3.0, pitch: 1.4, yaw: 0.1),
    ]

    @Test func objectCentredKeepsTheTeapotCentreOnTheLineOfSight() {
        let rig = TeapotCameraRig()
        for a in Self.attitudes {
            let eye = rig.viewMatrix(attitude: a, pivot: .object).transformPoint(.zero)
            #expect(abs(eye.x) < 1e-4 && abs(eye.y) < 1e-4 && abs(eye.z + rig.distance) < 1e-4)
        }
    }

    @Test func cameraCentredKeepsTheEyeWhereItIsAndOnlyTurns() {
        let rig = TeapotCameraRig()
        for a in Self.attitudes {
            let view = rig.viewMatrix(attitude: a, pivot: .camera)
            let eye = view.rigidInverse.translation
            #expect((eye - rig.fixedEyePosition).length < 1e-4)
            // view = [R | −R·p]: the rotation is the attitude's (reference → device), tilted.
            let r = rig.eyeRotation(a)
            for row in 0..<3 { for col in 0..<3 { #expect(abs(view[row, col] - r[row, col]) < 1e-6) } }
        }
    }

    @Test func theScreenLooksOutOfTheBackOfTheDevice() {
        // With no tilt, a device lying face up (identity) looks straight down: world −z is ahead (eye −z).
        var rig = TeapotCameraRig()
        rig.screenTilt = 0
        let down = rig.eyeRotation(.identity).transformDirection(Vec3f(0, 0, -1))
        #expect(abs(down.z + 1) < 1e-6)
        // Pitched up 90° (top edge up, screen facing the user), it looks along world +y.
        let upright = rig.eyeRotation(Attitude(roll: 0, pitch: .pi / 2, yaw: 0)).transformDirection(Vec3f(0, 1, 0))
        #expect(abs(upright.z + 1) < 1e-5)
    }
}

@Suite struct TeapotSpringTests {
    static let level = Attitude.identity

    @Test func userAccelerationPullsTheTeapotTheOtherWayAndItSettlesBack() {
        var spring = TeapotSpring()
        var t = 0.0
        // Half a second of 0.5 g to the right (device x = world x when level), then rest.
        for _ in 0..<50 {
            t += 0.01
            spring.observe(userAcceleration: Vector3(0.5, 0, 0), attitude: Self.level, timestamp: t)
            spring.step(dt: 0.01)
        }
        #expect(spring.offset.x < -0.5)
        for _ in 0..<600 {
            t += 0.01
            spring.observe(userAcceleration: .zero, attitude: Self.level, timestamp: t)
            spring.step(dt: 0.01)
        }
        #expect(spring.offset.length < 0.01)
    }

    @Test func violentOrBrokenInputNeverThrowsTheTeapotAway() {
        var spring = TeapotSpring()
        var t = 0.0
        for i in 0..<300 {
            t += 0.01
            let a = i % 7 == 0 ? Vector3(.nan, 0, 0) : Vector3(50, -80, 30)
            spring.observe(userAcceleration: a, attitude: Self.level, timestamp: i % 11 == 0 ? .infinity : t)
            spring.step(dt: i % 13 == 0 ? 5 : 0.016)
            #expect(spring.offset.isFinite)
            #expect(spring.offset.length <= spring.maximumOffset + 1e-9)
        }
    }

    @Test func theLowPassFollowsApplesTimestampFilter() {
        // α = dt / (dt + 1/fc): at 100 Hz and fc = 10 Hz, α = 0.01 / 0.11.
        var spring = TeapotSpring()
        spring.observe(userAcceleration: .zero, attitude: Self.level, timestamp: 0)
        spring.observe(userAcceleration: Vector3(1, 0, 0), attitude: Self.level, timestamp: 0.01)
        #expect(abs(spring.filteredAcceleration.x - 0.01 / 0.11) < 1e-12)
    }
}
