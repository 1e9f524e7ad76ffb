import Foundation
import Testing
@testable import Motion

/// Write → read gives back exactly the same trace: every Double bit for bit, absent values absent.
@Suite struct TraceRoundTripTests {
    @Test(arguments: ["xio/sensor_data.csv", "mpower/balance_data.csv", "motionsense/jog_16_sub_1.csv"])
    func realRecordingsRoundTripExactly(_ path: String) throws {
        let trace = try TraceTestFiles.loaded(TraceTestFiles.traces.appendingPathComponent(path))
        let url = try TraceTestFiles.scratchFolder().appendingPathComponent("roundtrip.csv")
        try trace.write(to: url)
        let back = try Trace.load(contentsOf: url)
        #expect(back.metadata == trace.metadata)
        #expect(back.samples.count == trace.samples.count)
        #expect(back.samples == trace.samples)
        #expect(back == trace)
    }

    @Test func awkwardNumbersAndAbsentValuesRoundTripExactly() throws {
        // Values whose shortest decimal form is long, tiny, huge or signed zero; sensors present on
        // some rows only; a reference with only some parts.
        let awkward: [Double] = [0.1 + 0.2, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1 / 3, -2.2250738585072014e-308, 123456789.123456789]
        var samples: [MotionSample] = []
        for (i, v) in awkward.enumerated() {
            samples.append(MotionSample(
                timestamp: Double(i) * 0.01 + 1e-9 * Double(i),
                acceleration: Vector3(v, -v, Double(i)),
                rotationRate: i % 2 == 0 ? Vector3(v, 0.7, -v) : nil,
                magneticField: i % 3 == 0 ? Vector3(41.5, v, -3) : nil,
                reference: i == 1 ? nil : ReferenceMotion(attitude: i % 2 == 0 ? Quaternion(w: v, x: 0.5, y: -0.5, z: 1 / 7) : nil,
                                                          gravity: Vector3(0, v, -1),
                                                          userAcceleration: i > 3 ? Vector3(v, v, v) : nil)))
        }
        let trace = Trace(samples: samples, metadata: TraceMetadata(source: "awkward, with: colons", nominalRate: 99.5,
                                                                    importedFrom: .sensorLog))
        let url = try TraceTestFiles.scratchFolder().appendingPathComponent("awkward.csv")
        try trace.write(to: url)
        let back = try Trace.load(contentsOf: url)
        #expect(back == trace)
        // −0.0 == 0.0 in Swift, so check the sign bit itself.
        #expect(back.samples[1].acceleration.x.sign == .minus)
    }

    @Test func theHeaderNamesItsUnitsAndVersion() throws {
        let trace = try TraceTestFiles.loaded(TraceTestFiles.xio)
        let url = try TraceTestFiles.scratchFolder().appendingPathComponent("xio.csv")
        try trace.write(to: url)
        let lines = try TraceTestFiles.lines(of: url, count: 5)
        #expect(lines[0] == "# tiltkit-trace v1")
        #expect(lines[1] == "# source: xio/sensor_data.csv")
        #expect(lines[2] == "# nominal-rate-hz: 99.2")
        #expect(lines[3] == "# imported-from: columns")
        #expect(lines[4] == "t (s),ax (g),ay (g),az (g),gx (rad/s),gy (rad/s),gz (rad/s),mx (uT),my (uT),mz (uT)")
    }
}
