import Dispatch
import Foundation
import Testing
import TestSupport
@testable import Motion

@Suite("Altimeter: pressure in traces and sources, relative altitude")
struct AltimeterTests {
    @Test("the ICAO standard atmosphere's own table: 1000 m at 89.876 kPa, 3000 m at 70.121 kPa")
    func standardAtmosphere() throws {
        // ICAO Doc 7488 (Manual of the ICAO Standard Atmosphere), pressure by geopotential altitude.
        #expect(abs(try #require(BarometricAltitude.altitude(pressure: 89.876)) - 1000) < 1)
        #expect(abs(try #require(BarometricAltitude.altitude(pressure: 70.121)) - 3000) < 2)
        #expect(BarometricAltitude.altitude(pressure: 101.325) == 0)
        for h in [-50.0, 3, 120, 2500] {
            let p = BarometricAltitude.pressure(altitude: h, reference: 98.2)
            #expect(abs(BarometricAltitude.altitude(pressure: p, reference: 98.2)! - h) < 1e-6)
        }
        #expect(BarometricAltitude.altitude(pressure: .nan) == nil)
        #expect(BarometricAltitude.altitude(pressure: 0) == nil)
    }

    @Test("relative to the first reading; repeats give nothing; impossible readings are counted, not used")
    func relativeAltimeter() throws {
        var altimeter = RelativeAltimeter()
        let first = altimeter.update(timestamp: 0, pressure: 100.0)
        #expect(first?.relativeAltitude == 0)
        #expect(altimeter.update(timestamp: 0.01, pressure: 100.0) == nil, "the same reading on the next IMU sample")
        let floorUp = BarometricAltitude.pressure(altitude: 3, reference: 100.0)
        let up = try #require(altimeter.update(timestamp: 1, pressure: floorUp) as AltitudeData?)
        #expect(abs(up.relativeAltitude - 3) < 1e-6)
        #expect(up.pressure == floorUp)
        for bad in [Double.nan, .infinity, 0, -5, 300] { #expect(altimeter.update(timestamp: 2, pressure: bad) == nil) }
        #expect(altimeter.rejectedReadings == 5)
        #expect(altimeter.update(timestamp: 0.5, pressure: 99.0) == nil, "time going backwards")
        altimeter.reset()
        #expect(altimeter.update(timestamp: 3, pressure: 99.0)?.relativeAltitude == 0)
    }

    @Test("a trace with pressure writes a p (kPa) column and reads back exactly")
    func traceRoundTrip() throws {
        let xio = try TraceTestFiles.loaded(TraceTestFiles.xio)
        var samples = Array(xio.samples.prefix(300))
        // The x-io board has no barometer: a reading every 25th sample, held between, as a source delivers it.
        for i in samples.indices { samples[i].pressure = 100.2 - Double(i / 25) * 0.004 }
        let trace = Trace(samples: samples, metadata: TraceMetadata(source: "xio with pressure", nominalRate: 100))
        #expect(trace.sensors.contains(.barometer))
        let url = try TraceTestFiles.scratchFolder().appendingPathComponent("pressure.csv")
        try trace.write(to: url)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(",p (kPa)\n"))
        let back = try Trace.load(contentsOf: url)
        #expect(back.samples == samples)
        #expect(TraceSummary(back).ranges.contains { $0.column == "p" && $0.unit == "kPa" })
    }

    @Test("Sensor Logger's Barometer.csv (hPa) rides on the samples at or after each reading, in kPa")
    func sensorLoggerBarometer() throws {
        let folder = try TraceTestFiles.scratchFolder()
        let fixture = TraceTestFiles.fixtures.appendingPathComponent("SensorLogger-iOS")
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.path) {
            try FileManager.default.copyItem(at: fixture.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        // Layout per awesome-sensor-logger's UNITS.md: relativeAltitude in m, pressure in hPa.
        try """
        time,seconds_elapsed,relativeAltitude,pressure
        1700000000050000000,0.3,0,1002.5
        1700000000300000000,0.55,0.42,1002.45
        """.write(to: folder.appendingPathComponent("Barometer.csv"), atomically: true, encoding: .utf8)
        let trace = try Trace.load(contentsOf: folder)
        #expect(trace.sensors.contains(.barometer))
        // The raw accelerometer starts at 0.25 s (trace time 0): no reading yet until 0.3 s.
        for s in trace.samples {
            let expected: Double? = s.timestamp < 0.05 - 1e-9 ? nil : (s.timestamp < 0.3 - 1e-9 ? 100.25 : 100.245)
            if let expected { #expect(abs(s.pressure! - expected) < 1e-9, "at \(s.timestamp)") } else { #expect(s.pressure == nil) }
        }
    }

    @Test("SensorLog's altimeterPressure(kPa) column is held between readings")
    func sensorLogAltimeter() throws {
        let url = try TraceTestFiles.scratchFolder().appendingPathComponent("sensorlog.csv")
        try """
        accelerometerTimestamp_sinceReboot(s),accelerometerAccelerationX(G),accelerometerAccelerationY(G),accelerometerAccelerationZ(G),altimeterTimestamp_sinceReboot(s),altimeterReset(bool),altimeterRelativeAltitude(m),altimeterPressure(kPa)
        100.00,0,0,-1,,,,
        100.01,0,0,-1,100.01,0,0,99.871
        100.02,0,0,-1,,,,
        100.03,0,0,-1,100.03,0,0.1,99.870
        """.write(to: url, atomically: true, encoding: .utf8)
        let trace = try Trace.load(contentsOf: url)
        #expect(trace.samples.map(\.pressure) == [nil, 99.871, 99.871, 99.870])
    }

    @Test("the manager pushes and publishes relative altitude once per new reading; a source without a barometer says so")
    func managerAltitudeUpdates() throws {
        let source = SteppedTestSource(sensors: [.accelerometer, .barometer])
        let manager = MotionManager(source: source)
        let collector = Collector<AltitudeData>()
        manager.startRelativeAltitudeUpdates(to: DispatchQueue(label: "altitude")) { collector.append($0, $1) }
        #expect(manager.isRelativeAltitudeAvailable && manager.isRelativeAltitudeActive)
        let floor = BarometricAltitude.pressure(altitude: 3.2, reference: 100.5)
        let readings = [100.5, 100.5, 100.5, floor, floor, floor]
        for (i, p) in readings.enumerated() {
            source.emit(MotionSample(timestamp: Double(i) * 0.01, acceleration: Vector3(0, 0, -1), pressure: p))
        }
        source.emit(MotionSample(timestamp: 0.06, acceleration: Vector3(0, 0, -1)))  // a sample with no reading
        #expect(collector.wait(for: 2, seconds: 5))
        #expect(collector.all.map(\.timestamp) == [0, 0.03])
        #expect(abs(collector.all[1].relativeAltitude - 3.2) < 1e-6)
        #expect(abs(try #require(manager.altitudeData).relativeAltitude - 3.2) < 1e-6)
        manager.stopRelativeAltitudeUpdates()
        #expect(!source.isRunning)

        let noBarometer = MotionManager(source: SteppedTestSource(sensors: [.accelerometer]))
        let errors = Collector<AltitudeData>()
        noBarometer.startRelativeAltitudeUpdates(to: DispatchQueue(label: "none")) { errors.append($0, $1) }
        let deadline = Date().addingTimeInterval(5)
        while errors.errorMessages.isEmpty && Date() < deadline { usleep(1000) }
        #expect(errors.errorMessages.first?.contains("barometer") == true)
    }
}
