import Foundation
import Motion
@testable import MotionDevices
import Testing

/// Update intervals reach the device where it has a rate setting, and the manager says what it did.
@Suite("Update intervals set the device's rate")
struct UpdateIntervalRateTests {
    @Test("a running IIO hub is set to the nearest listed rate at or above the interval's, and the manager says so")
    func iioRateSet() throws {
        let hub = try FakeSensorHub()
        try "12.5 26 52 104 208\n".write(toFile: hub.directory(0) + "/in_accel_sampling_frequency_available", atomically: true, encoding: .utf8)
        let source = try IIOPollingSource(directories: [hub.directory(0), hub.directory(1)])
        let manager = MotionManager(source: source)
        #expect(manager.sampleRateControl == .everySample(deviceRate: nil))
        manager.accelerometerUpdateInterval = 1.0 / 60
        manager.startAccelerometerUpdates()
        defer { manager.stopAccelerometerUpdates() }
        #expect(Self.set(manager.sampleRateControl) == [60, 104])
        #expect(try String(contentsOfFile: hub.directory(0) + "/in_accel_sampling_frequency", encoding: .utf8) == "104")
        // No list on the gyro's device: it takes the rate as asked.
        #expect(try String(contentsOfFile: hub.directory(1) + "/in_anglvel_sampling_frequency", encoding: .utf8) == "60")

        // Changed while running: set again at once.
        manager.accelerometerUpdateInterval = 1.0 / 200
        #expect(Self.set(manager.sampleRateControl) == [200, 208])
        #expect(try String(contentsOfFile: hub.directory(0) + "/in_accel_sampling_frequency", encoding: .utf8) == "208")
        #expect(manager.sampleRateControl.description == "device set to 208 Hz for 200 Hz asked")

        // An interval of 0 takes every sample: the device is left as it is.
        manager.accelerometerUpdateInterval = 0
        #expect(manager.sampleRateControl == .everySample(deviceRate: 100))
    }

    /// (requested, applied) rounded to 1e-6 Hz, or [] when the device was not set.
    static func set(_ control: SampleRateControl) -> [Double] {
        guard case let .setOnDevice(requested, applied) = control else { return [] }
        return [requested, applied].map { ($0 * 1e6).rounded() / 1e6 }
    }

    @Test("a pad has no rate setting: the manager reports its own rate and decimates")
    func padDecimated() throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-rate-\(UUID().uuidString)")
        try Data().write(to: reports)
        defer { try? FileManager.default.removeItem(at: reports) }
        let pad = try HIDRawSource(path: reports.path, options: .init(device: GamepadDevice(hint: "ds4-usb")))
        let manager = MotionManager(source: GyroCalibratedSource(wrapping: pad))
        manager.gyroUpdateInterval = 0.01
        manager.startGyroUpdates()
        defer { manager.stopGyroUpdates() }
        guard case let .decimated(requested, deviceRate) = manager.sampleRateControl else {
            Issue.record("expected decimation, got \(manager.sampleRateControl)")
            return
        }
        #expect(abs(requested - 100) < 1e-9 && deviceRate == pad.info.nominalRate && deviceRate != nil)
        #expect(manager.sampleRateControl.description.contains("no rate setting"))
    }
}
