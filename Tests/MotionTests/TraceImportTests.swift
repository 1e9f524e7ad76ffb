import Foundation
import Testing
@testable import Motion

/// Every importer on real recordings (the bundled copies in Assets/traces) and, for the two apps
/// without a real file in the project's data, on hand-made fixtures in the documented layout
/// (Fixtures/README.md) holding the first 40 real samples of mpower/balance_data.csv.
@Suite struct TraceImportTests {
    @Test func detectsEachFormatFromItsContents() throws {
        func detected(_ url: URL) throws -> TraceFormat { try TraceFormat.detect(at: url, name: url.lastPathComponent) }
        #expect(try detected(TraceTestFiles.xio) == .columns)
        #expect(try detected(TraceTestFiles.xioOriginal) == .xioFusion)
        #expect(try detected(TraceTestFiles.fixtures.appendingPathComponent("SensorLogger-iOS")) == .sensorLogger)
        #expect(try detected(TraceTestFiles.fixtures.appendingPathComponent("sensorlog.csv")) == .sensorLog)
        let folder = try TraceTestFiles.scratchFolder()
        let own = folder.appendingPathComponent("own.csv")
        try TraceTestFiles.loaded(TraceTestFiles.mpowerBalance).write(to: own)
        #expect(try detected(own) == .tiltkit)
    }

    @Test func xioLayoutFileHasAllThreeSensorsAndStartsStillFaceUp() throws {
        let trace = try Trace.load(contentsOf: TraceTestFiles.xio)
        #expect(trace.samples.count == 13514)
        #expect(trace.sensors == [.accelerometer, .gyroscope, .magnetometer])
        #expect(trace.columns.isDisjoint(with: .reference))
        #expect(abs(trace.duration - 135.326642) < 1e-9)
        // Still and face up for the first 10 s: about (0, 0, −1) g in Core Motion's sign.
        let still = trace.samples.prefix(900)
        let mean = still.reduce(Vector3.zero) { $0 + $1.acceleration } / Double(still.count)
        #expect(mean.angle(to: Vector3(0, 0, -1)) < 0.05)
        #expect(abs(mean.length - 1) < 0.02)
    }

    @Test func xioFusionOriginalMatchesTheConvertedRecording() throws {
        // The shared data converted x-io's file by negating the accelerometer and turning deg/s
        // into rad/s; the importer must give the same samples.
        let original = try Trace.load(contentsOf: TraceTestFiles.xioOriginal)
        let converted = try TraceTestFiles.loaded(TraceTestFiles.xio)
        #expect(original.metadata.importedFrom == .xioFusion)
        try #require(original.samples.count == converted.samples.count)
        for (a, b) in zip(original.samples, converted.samples) {
            #expect(abs(a.timestamp - b.timestamp) < 1e-6)
            #expect((a.acceleration - b.acceleration).length < 1e-9)
            let rate = try #require(a.rotationRate), expected = try #require(b.rotationRate)
            #expect((rate - expected).length < 1e-8 * max(1, expected.length))
            #expect(a.magneticField == b.magneticField)
        }
    }

    @Test func mpowerKeepsCoreMotionsReference() throws {
        let trace = try Trace.load(contentsOf: TraceTestFiles.mpowerBalance)
        #expect(trace.samples.count == 3001)
        #expect(trace.columns == [.rotationRate, .referenceAttitude, .referenceGravity, .referenceUserAcceleration])
        #expect(trace.metadata.nominalRate == 100)
        for sample in trace.samples {
            let reference = try #require(sample.reference)
            let attitude = Attitude(quaternion: try #require(reference.attitude))
            let gravity = try #require(reference.gravity)
            // Core Motion's own quaternion and gravity agree (q rotates device → reference).
            #expect(attitude.gravity.angle(to: gravity) < 0.01)
            // Device-motion-only data: acceleration = gravity + user acceleration.
            #expect((sample.acceleration - gravity - reference.userAcceleration!).length < 1e-6)
        }
    }

    @Test func motionSenseBuildsTheAttitudeFromRollPitchYaw() throws {
        for url in [TraceTestFiles.motionSenseJog, TraceTestFiles.motionSenseStairs] {
            let trace = try Trace.load(contentsOf: url)
            #expect(trace.metadata.nominalRate == 50)
            #expect(trace.columns.contains(.referenceAttitude))
            for sample in trace.samples {
                let reference = try #require(sample.reference)
                let attitude = Attitude(quaternion: try #require(reference.attitude))
                #expect(attitude.gravity.angle(to: try #require(reference.gravity)) < 0.01)
            }
        }
    }

    @Test func sensorLoggerIOSExportGivesBackTheRecordedSamples() throws {
        let trace = try Trace.load(contentsOf: TraceTestFiles.fixtures.appendingPathComponent("SensorLogger-iOS"))
        let truth = Array(try TraceTestFiles.loaded(TraceTestFiles.mpowerBalance).samples.prefix(40))
        #expect(trace.metadata.importedFrom == .sensorLogger)
        // 41 gyroscope rows, one a repeat: dropped, not an error.
        try #require(trace.samples.count == truth.count)
        for (s, t) in zip(trace.samples, truth) {
            #expect(abs(s.timestamp - t.timestamp) < 1e-9)
            #expect(s.acceleration == t.acceleration)
            #expect(s.rotationRate == t.rotationRate)
            #expect(s.magneticField == nil)
            let r = try #require(s.reference), e = try #require(t.reference)
            #expect(r.attitude == e.attitude)
            #expect((r.gravity! - e.gravity!).length < 1e-12)
            #expect((r.userAcceleration! - e.userAcceleration!).length < 1e-12)
        }
    }

    @Test func sensorLoggerFileNamesAreMatchedIgnoringCase() throws {
        // Sensor Logger's own documentation names the file `metadata.csv`; exports have `Metadata.csv`.
        let folder = try TraceTestFiles.scratchFolder()
        let fixture = TraceTestFiles.fixtures.appendingPathComponent("SensorLogger-iOS")
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.path) {
            try FileManager.default.copyItem(at: fixture.appendingPathComponent(name),
                                             to: folder.appendingPathComponent(name.lowercased()))
        }
        let lowercase = try Trace.load(contentsOf: folder)
        #expect(lowercase.samples == (try Trace.load(contentsOf: fixture)).samples)
    }

    @Test func standardisedSensorLoggerExportFlipsSignsAndConvertsUnits() throws {
        let trace = try Trace.load(contentsOf: TraceTestFiles.fixtures.appendingPathComponent("SensorLogger-standardised"),
                                   format: .sensorLogger)
        let truth = Array(try TraceTestFiles.loaded(TraceTestFiles.mpowerBalance).samples.prefix(40))
        try #require(trace.samples.count == truth.count)
        for (s, t) in zip(trace.samples, truth) {
            // Acceleration = Accelerometer (user) + Gravity, back in g with Apple's sign.
            #expect((s.acceleration - t.acceleration).length < 1e-6)
            #expect(s.reference?.attitude == nil)  // Android's orientation frame is not Core Motion's
            #expect((s.reference!.gravity! - t.reference!.gravity!).length < 1e-12)
        }
    }

    @Test func sensorLogWideRowsGiveBackTheRecordedSamples() throws {
        let trace = try Trace.load(contentsOf: TraceTestFiles.fixtures.appendingPathComponent("sensorlog.csv"))
        let truth = Array(try TraceTestFiles.loaded(TraceTestFiles.mpowerBalance).samples.prefix(40))
        #expect(trace.metadata.importedFrom == .sensorLog)
        try #require(trace.samples.count == truth.count)
        for (s, t) in zip(trace.samples, truth) {
            #expect(abs(s.timestamp - t.timestamp) < 1e-9)  // time since reboot, from the first sample
            #expect(s.acceleration == t.acceleration)
            #expect(s.rotationRate == t.rotationRate)
            #expect(s.reference == t.reference)
        }
    }

    @Test func anExplicitFormatOverridesDetectionAndSaysWhatIsMissing() throws {
        let error = try #require(throws: TraceError.self) {
            try Trace.load(contentsOf: TraceTestFiles.xioOriginal, format: .columns)
        }
        #expect(error.line == 1)
        guard case .missingColumns(let names) = error.problem else { Issue.record("got \(error)"); return }
        #expect(names.contains("t") && names.contains("ax"))
    }
}
