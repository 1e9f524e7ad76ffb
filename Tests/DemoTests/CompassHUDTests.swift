import Foundation
import Motion
import TestSupport
import Testing
@testable import Demo

/// The compass line and the figure-eight prompt, on the bundled x-io recording in the magnetic-north frame.
@Suite struct CompassHUDTests {
    static func facts(at time: Double, frame: AttitudeReferenceFrame) throws -> CompassHUD.Facts {
        let trace = try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv"))
        let input = SceneMotionInput(steppedReplay: SteppedReplaySource(trace: trace), startTime: time)
        try input.use(frame: frame)
        try input.start()
        defer { input.stop() }
        #expect(input.magnetometerCalibrationStore == nil, "a recording never reads or writes the stored calibration")
        return try #require(CompassHUD.Facts(input, motion: input.pull()?.value))
    }

    @Test func beforeTheSpinsThePromptShowsAfterThemTheHeading() throws {
        let early = try Self.facts(at: 16, frame: .xMagneticNorthZVertical)
        #expect(early.needsCalibration && early.accuracy == .uncalibrated)
        #expect(CompassHUD.line(early).hasPrefix("compass uncalibrated  heading "))
        let late = try Self.facts(at: 130, frame: .xMagneticNorthZVertical)
        #expect(!late.needsCalibration && late.accuracy == .high)
        let line = CompassHUD.line(late)
        #expect(line.hasPrefix("compass high (fit ") && line.contains("% of directions)  heading "), "\(line)")
        // The calibrated field's own heading over the still end is 288° (MagnetometerCalibrationTests);
        // the shown heading is within a few degrees of it, converging after the 101-116 s disturbance.
        let shown = try #require(line.split(separator: " ").dropLast().last.flatMap { Double($0) }, "\(line)")
        #expect(abs(shown - 288) < 5, "\(line)")
    }

    @Test func outsideNorthFramesNoHeadingAndNoPrompt() throws {
        let facts = try Self.facts(at: 16, frame: .xArbitraryZVertical)
        #expect(!facts.needsCalibration, "the arbitrary frame does not use the magnetometer")
        #expect(CompassHUD.line(facts).hasSuffix("(heading: --frame x-magnetic-north-z-vertical)"))
    }

    @Test func aFrameTheSourceCannotGiveIsRefusedWithWhatItLacks() throws {
        let trace = try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv"))
        let input = SceneMotionInput(steppedReplay: SteppedReplaySource(trace: trace))
        #expect(throws: FrameUnavailable.self) { try input.use(frame: .xTrueNorthZVertical) }
        do { try input.use(frame: .xTrueNorthZVertical) } catch { #expect("\(error)".contains("--location")) }
        try input.use(frame: .xTrueNorthZVertical, location: GeodeticLocation(latitude: 51.5, longitude: -0.1, decimalYear: 2026.9))
        #expect(input.referenceFrame == .xTrueNorthZVertical)
    }
}
