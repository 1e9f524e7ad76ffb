import Foundation
@testable import Motion
import MotionEvaluation
import TestSupport
import Testing

/// The magnetometer's calibration learned in use, on real recordings: the bundled x-io trace
/// (MIT) and BROAD's trial with a magnet beside the sensor (shared data, CC BY 4.0).
@Suite struct MagnetometerCalibrationTests {
    /// Runs `samples` through a manager in the magnetic-north frame; returns what was pulled at each sample.
    static func run(_ samples: [MotionSample]) -> (motions: [DeviceMotion], manager: MotionManager) {
        let trace = Trace(samples: samples, metadata: TraceMetadata(source: "test"))
        let source = SteppedReplaySource(trace: trace)
        let manager = MotionManager(source: source, clock: source.clock)
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        var motions: [DeviceMotion] = []
        let t0 = samples[0].timestamp
        for sample in samples {
            source.advance(to: sample.timestamp - t0)
            if let m = manager.deviceMotion { motions.append(m) }
        }
        return (motions, manager)
    }

    @Test func onTheXIOTraceTheHardIronFitEarnsHighAndTheHeadingHoldsStillAtTheEnd() throws {
        let trace = try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv"))
        let (motions, manager) = Self.run(trace.samples)
        let calibration = try #require(manager.magnetometerCalibration)
        let t0 = trace.samples[0].timestamp
        func at(_ s: Double) -> DeviceMotion? { motions.first { $0.timestamp - t0 >= s } }
        // The fit earns high once the yaw spins have shown it enough directions, and stays high at rest.
        #expect(at(40)?.magneticField.accuracy == .medium)
        #expect(at(75)?.magneticField.accuracy == .high)
        #expect(manager.magnetometerCalibrationAccuracy == .high && calibration.residual < 0.03 && calibration.coverage >= 0.3)
        // 101–116 s the field turns by 25° with no turn of the gyro (a magnet beside the still IMU):
        // low, and fusion's heading coasts on the gyro instead of following it.
        #expect(at(108)?.magneticField.accuracy == .low)
        let before = try #require(at(100)).heading, during = try #require(at(115)).heading
        #expect(abs(during - before) < 5, "\(before)° → \(during)°")
        // The still end after it: the heading holds to a few degrees, settling on the calibrated
        // field's own heading (288°) from where the gyro carried it through the disturbance.
        let headings = motions.filter { $0.timestamp - t0 > 117 }.map(\.heading)
        let spread = headings.max()! - headings.min()!
        let last10 = motions.filter { $0.timestamp - t0 > 125 }.map(\.heading)
        print("x-io: heading at 100 s \(before)°, 115 s \(during)°; 117 s to the end \(headings.first!)° → \(headings.last!)°,"
              + " spread \(spread)°, last 10 s \(last10.max()! - last10.min()!)°; \(calibration)")
        #expect(spread < 6, "\(spread)°")
        #expect(motions.last?.magneticField.accuracy == .high)
    }

    @Test(.needsSharedData("broad")) func aMagnetBesideTheSensorDropsTheAccuracyToLow() throws {
        let broad = try TestData.requireSharedData("broad")
        let url = try #require(try BroadTrial.files(in: broad).first { $0.lastPathComponent.hasPrefix("28_") })
        let trial = try BroadTrial.load(contentsOf: url)
        let (motions, _) = Self.run(trial.samples)
        func accuracies(_ range: ClosedRange<Double>) -> Set<MagneticFieldCalibrationAccuracy> {
            Set(motions.filter { range.contains($0.timestamp) }.map(\.magneticField.accuracy))
        }
        // At rest for its first 26 s; the fit earns medium or high once turned, then the magnet
        // (30–70 s) drops it to low.
        let earned = try #require(motions.first { $0.magneticField.accuracy >= .medium })
        let dropped = motions.first { $0.timestamp > earned.timestamp && $0.magneticField.accuracy == .low }
        #expect(dropped != nil && dropped!.timestamp < 70, "earned at \(earned.timestamp) s, low at \(dropped?.timestamp ?? -1) s")
        let after = accuracies(90...130)
        #expect(after.contains(.high) || after.contains(.medium), "\(after)")
        // The same room without the magnet (trial 01, slow rotation): low stays rare once earned.
        let quiet = try #require(try BroadTrial.files(in: broad).first { $0.lastPathComponent.hasPrefix("01_") })
        let calm = Self.run(try BroadTrial.load(contentsOf: quiet).samples).motions
        let calmEarned = try #require(calm.first { $0.magneticField.accuracy >= .medium })
        let afterwards = calm.filter { $0.timestamp > calmEarned.timestamp }
        let lowShare = Double(afterwards.filter { $0.magneticField.accuracy == .low }.count) / Double(afterwards.count)
        let magnetShare = Double(motions.filter { (30...70).contains($0.timestamp) && $0.magneticField.accuracy == .low }.count)
            / Double(motions.filter { (30...70).contains($0.timestamp) }.count)
        print("BROAD low share: trial 01 (no magnet) \(lowShare), trial 28 at 30–70 s \(magnetShare)")
        #expect(lowShare < 0.1 && magnetShare > 2 * lowShare)
        print("BROAD 28: medium or better at \(earned.timestamp) s, low at \(dropped?.timestamp ?? -1) s, at 90–130 s \(after)")
    }

    @Test func aCalibrationSurvivesTheRoundTripAndABrokenFileIsIgnored() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-magnetometer-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = MagnetometerCalibrationStore(directory: directory)
        let calibration = MagnetometerCalibration(offset: Vector3(6.4, -0.9, -4.4), fieldStrength: 37.9, residual: 0.017,
                                                  coverage: 0.31)
        #expect(store.load(device: "DualSense (hidraw3)") == nil)
        try store.save(calibration, device: "DualSense (hidraw3)")
        #expect(store.url(device: "DualSense (hidraw3)").lastPathComponent == "DualSense__hidraw3_.json")
        #expect(store.load(device: "DualSense (hidraw3)") == calibration)
        try Data("{\"offset\": [1, 2]}".utf8).write(to: store.url(device: "broken"))
        #expect(store.load(device: "broken") == nil)

        // XDG_STATE_HOME first, else ~/.local/state.
        #expect(MagnetometerCalibrationStore(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]).directory.path
                == "/s/tiltkit/magnetometer")
        #expect(MagnetometerCalibrationStore(environment: ["HOME": "/h"]).directory.path == "/h/.local/state/tiltkit/magnetometer")

        // A manager restored from it reports the stored accuracy at once.
        let source = SteppedReplaySource(trace: try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv")))
        let manager = MotionManager(source: source, clock: source.clock)
        manager.restoreMagnetometerCalibration(try #require(store.load(device: "DualSense (hidraw3)")))
        #expect(manager.magnetometerCalibrationAccuracy == .high)
    }

    @Test("a reading is taken once the field has turned takeTurn from the last one taken, as the angle between them says")
    func theTurnTestAgreesWithTheAngle() {
        let turn = MagnetometerCalibrator.takeTurn
        let base = Vector3(30, -12, 41)
        // about an axis across the field, by a little less and a little more than the threshold, and by more
        let axis = base.cross(Vector3(0, 0, 1)) / base.cross(Vector3(0, 0, 1)).length
        for angle in [0.0, 0.5 * turn, 0.99 * turn, 1.01 * turn, 1.5, 2.5, .pi] {
            let turned = Quaternion(axis: axis, angle: angle).rotate(base) * 1.3  // the strength does not matter
            #expect(MagnetometerCalibrator.turned(from: base, to: turned) == (base.angle(to: turned) >= turn), "\(angle) rad")
        }
        // no direction: not a turn (the angle atan2(0, 0) is 0)
        #expect(!MagnetometerCalibrator.turned(from: .zero, to: base))
        #expect(!MagnetometerCalibrator.turned(from: base, to: .zero))
    }

    @Test func withoutEnoughDirectionsThereIsNoFitAndNonsenseIsIgnored() {
        var calibrator = MagnetometerCalibrator()
        for i in 0..<1000 { calibrator.add(Vector3(20, 5, -40), timestamp: Double(i) * 0.01) }
        #expect(calibrator.calibration == nil && calibrator.accuracy == .uncalibrated)
        calibrator.add(Vector3(.nan, 0, 0), timestamp: 11)
        calibrator.add(Vector3(1, 0, 0), timestamp: 5)  // time going backwards
        #expect(calibrator.calibration == nil)
    }
}

/// Soft iron where the readings support it: BROAD's fast rotations (trial 06) turn the sensor through
/// nearly every direction; a known hard- and soft-iron distortion added to its real readings is found.
@Suite struct MagnetometerSoftIronTests {
    @Test(.needsSharedData("broad")) func aKnownDistortionAddedToFastRotationsIsFound() throws {
        let broad = try TestData.requireSharedData("broad")
        let url = try #require(try BroadTrial.files(in: broad).first { $0.lastPathComponent.hasPrefix("06_") })
        let trial = try BroadTrial.load(contentsOf: url)
        let offset = Vector3(12, -7, 5), stretch = Vector3(1.12, 0.94, 1.0)
        var calibrator = MagnetometerCalibrator()
        var clean = MagnetometerCalibrator()
        for sample in trial.samples {
            guard let m = sample.magneticField else { continue }
            clean.add(m, timestamp: sample.timestamp)
            calibrator.add(Vector3(m.x * stretch.x, m.y * stretch.y, m.z * stretch.z) + offset, timestamp: sample.timestamp)
        }
        let found = try #require(calibrator.calibration)
        let reference = try #require(clean.calibration)
        print("BROAD 06 with soft iron added: \(found); undistorted: \(reference)")
        #expect(found.hasSoftIron && found.coverage >= MagnetometerCalibrator.softIronCoverage)
        // The matrix undoes the stretch up to a common factor, and the offset is the added one plus
        // the sensor's own (stretched).
        let undone = [Vector3(stretch.x, 0, 0), Vector3(0, stretch.y, 0), Vector3(0, 0, stretch.z)].map { found.softIron * $0 }
        let mean = (undone[0].x + undone[1].y + undone[2].z) / 3
        for (i, column) in undone.enumerated() {
            var identity = [0.0, 0, 0]; identity[i] = mean
            #expect((column - Vector3(identity[0], identity[1], identity[2])).length / mean < 0.03, "\(undone)")
        }
        let expected = offset + Vector3(reference.offset.x * stretch.x, reference.offset.y * stretch.y, reference.offset.z * stretch.z)
        #expect((found.offset - expected).length < 2, "\(found.offset) against \(expected)")
        #expect(found.earnedAccuracy >= .medium)
    }

    /// Soft iron with couplings between the axes (the accuracy bench's matrix): the fitted matrix
    /// undoes it, so the calibrated field has the undistorted field's direction in the device.
    @Test(.needsSharedData("broad")) func aCoupledSoftIronMatrixIsUndone() throws {
        let broad = try TestData.requireSharedData("broad")
        let url = try #require(try BroadTrial.files(in: broad).first { $0.lastPathComponent.hasPrefix("06_") })
        let trial = try BroadTrial.load(contentsOf: url)
        let rows = MagnetometerDistortion.softIronMatrix
        let distortion = SymmetricMatrix3(xx: rows[0][0], yy: rows[1][1], zz: rows[2][2], xy: rows[0][1], xz: rows[0][2], yz: rows[1][2])
        let offset = Vector3(12, -7, 5)
        var calibrator = MagnetometerCalibrator()
        var worst = 0.0
        for sample in trial.samples {
            guard let m = sample.magneticField else { continue }
            let raw = distortion * m + offset
            calibrator.add(raw, timestamp: sample.timestamp)
            if let fit = calibrator.calibration, fit.hasSoftIron, sample.timestamp > trial.samples.last!.timestamp - 10 {
                let f = fit.apply(raw)
                worst = max(worst, acos(min(1, f.dot(m) / (f.length * m.length))) * 180 / .pi)
            }
        }
        let found = try #require(calibrator.calibration)
        print("BROAD 06 with coupled soft iron: \(found); worst angle to the true field over the last 10 s \(worst)°")
        #expect(found.hasSoftIron && !found.softIron.isDiagonal)
        // BROAD's own field is calibrated to a few percent; the distortion turned it by up to 15°.
        #expect(worst < 3, "\(worst)°")
    }
}

@Suite struct SymmetricMatrix3Tests {
    @Test func eigenvectorsDiagonaliseAndComposeSquaresBack() {
        let m = SymmetricMatrix3(xx: 0.8, yy: 1.0, zz: 1.2, xy: 0.05, xz: -0.1, yz: 0.08)
        let (values, vectors) = m.eigen()
        #expect(values.x <= values.y && values.y <= values.z)
        for (value, vector) in zip([values.x, values.y, values.z], vectors) {
            #expect(abs(vector.length - 1) < 1e-12)
            #expect(((m * vector) - vector * value).length < 1e-12)
        }
        let root = SymmetricMatrix3.compose([values.x, values.y, values.z].map { $0.squareRoot() }, vectors)
        for e in [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)] {
            #expect(((root * (root * e)) - m * e).length < 1e-12)
        }
        #expect(SymmetricMatrix3(xx: 1, yy: -1, zz: 1).eigen().values.x == -1)
    }

    @Test func readingsWithinTheIntervalOfTheLastOneUsedAreLeftOut() {
        let fit = MagnetometerCalibration(offset: .zero, fieldStrength: 50, residual: 0.01, coverage: 0.4)
        var calibrator = MagnetometerCalibrator(restoring: fit)
        calibrator.add(Vector3(50, 0, 0), timestamp: 10)
        // twice the field's strength 5 ms later (a 200 Hz source): left out, the check does not move
        calibrator.add(Vector3(100, 0, 0), timestamp: 10.005)
        #expect(calibrator.strengthDeviation == 0)
        // 20 ms after the last one used: checked, and weighed by those 20 ms
        calibrator.add(Vector3(100, 0, 0), timestamp: 10 + MagnetometerCalibrator.minimumInterval)
        let weight = MagnetometerCalibrator.minimumInterval / (MagnetometerCalibrator.minimumInterval + MagnetometerCalibrator.disturbanceTimeConstant)
        #expect(abs(calibrator.strengthDeviation - weight) < 1e-9)
    }

    @Test func aCalibrationStoredAsAPerAxisScaleStillLoads() throws {
        let json = #"{"offset":[1,2,3],"scale":[1.1,0.9,1],"fieldStrength":48,"residual":0.01,"coverage":0.4}"#
        let c = try JSONDecoder().decode(MagnetometerCalibration.self, from: Data(json.utf8))
        #expect(c.softIron == .diagonal(Vector3(1.1, 0.9, 1)))
        let again = try JSONDecoder().decode(MagnetometerCalibration.self, from: JSONEncoder().encode(c))
        #expect(again == c)
        let bad = #"{"offset":[1,2,3],"softIron":[1,1,1,0,0],"fieldStrength":48,"residual":0.01,"coverage":0.4}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(MagnetometerCalibration.self, from: Data(bad.utf8)) }
    }
}
