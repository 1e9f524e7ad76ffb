import Dispatch
import Foundation
import Motion
@testable import MotionDevices
import Testing
import TestSupport

@Suite("IIO hardware step counter (in_steps_input, in_steps_en)")
struct IIOStepCounterTests {
    @Test("the scan finds the devices with a step counter")
    func scan() throws {
        let (fake, directory) = try Self.bma400()
        let plain = try FakeIIODevice(name: "iio:device1")
        #expect(IIOStepCounter.scan(in: fake.root.path) == [directory])
        #expect(IIOStepCounter.scan(in: plain.root.path).isEmpty)
        #expect(IIOStepCounter.scan(in: "/nonexistent").isEmpty)
        withExtendedLifetime((fake, plain)) {}
    }

    /// A bma400 as its driver lays it out: accelerometer channels plus the step channel
    /// (IIO_STEPS, processed and enable: in_steps_input, in_steps_en).
    static func bma400() throws -> (FakeIIODevice, String) {
        let fake = try FakeIIODevice()
        try fake.write("name", "bma400")
        try fake.write("in_steps_input", "1200")
        try fake.write("in_steps_en", "0")
        return (fake, fake.directory)
    }

    /// Rewrites an attribute in place, as sysfs does: the counter keeps its file open and re-reads it
    /// (`FakeIIODevice.write` replaces the file, which an open descriptor would not see). Written
    /// over the old text before cutting it to length, so a poll in between never reads it empty.
    static func overwrite(_ directory: String, _ file: String, _ value: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: directory + "/" + file))
        defer { try? handle.close() }
        let bytes = Data((value + "\n").utf8)
        try handle.write(contentsOf: bytes)
        try handle.truncate(atOffset: UInt64(bytes.count))
    }

    @Test("reads the count, switches the counter on through in_steps_en, and a device without one is refused")
    func readAndEnable() throws {
        let (fake, directory) = try Self.bma400()
        #expect(IIOStepCounter.isAvailable(directory: directory))
        let counter = try IIOStepCounter(directory: directory)
        #expect(counter.name == "bma400")
        #expect(try counter.read() == 1200)
        #expect(counter.isEnabled == false)
        try counter.setEnabled(true)
        #expect(counter.isEnabled == true)
        try Self.overwrite(directory, "in_steps_input", "1234")
        #expect(try counter.read() == 1234)

        let plain = try FakeIIODevice()
        #expect(!IIOStepCounter.isAvailable(directory: plain.directory))
        #expect(throws: DeviceError.self) { try IIOStepCounter(directory: plain.directory) }
        try Self.overwrite(directory, "in_steps_input", "many")
        #expect(throws: DeviceError.self) { try counter.read() }
        withExtendedLifetime((fake, plain)) {}
    }

    @Test("the tally counts from the first reading and survives a reset of the device's counter")
    func tally() {
        var tally = DeviceStepTally()
        var changed: [Bool] = []
        var steps: [Int] = []
        for reading in [500, 500, 510, 4, 6] {  // the device's counter reset to 0 after 510, then 4 steps
            changed.append(tally.add(reading))
            steps.append(tally.steps)
        }
        #expect(changed == [true, false, true, true, true])
        #expect(steps == [0, 0, 10, 14, 16])
    }

    @Test("polling pushes the steps since the start as the sysfs count grows")
    func polling() throws {
        let (fake, directory) = try Self.bma400()
        let counter = try IIOStepCounter(directory: directory)
        let pushed = Collector<PedometerData>()
        counter.startUpdates(from: 0, every: 0.01, to: DispatchQueue(label: "steps")) { pushed.append($0, $1) }
        #expect(pushed.wait(for: 1, seconds: 5))
        try Self.overwrite(directory, "in_steps_input", "1207")
        #expect(pushed.wait(for: 2, seconds: 5))
        counter.stopUpdates()
        #expect(pushed.all.map(\.numberOfSteps) == [0, 7])
        #expect(pushed.errorMessages.isEmpty)
        withExtendedLifetime(fake) {}
    }

    @Test("a pedometer given the device's counter counts by it while it answers, and by the accelerometer before it does")
    func pedometerMergesTheDeviceCount() throws {
        let (fake, directory) = try Self.bma400()
        let trace = try OxfordTraces.trace("user2_hand")
        let replay = SteppedReplaySource(trace: trace, loop: false)
        let manager = MotionManager(source: replay, clock: replay.clock)
        let pedometer = Pedometer(manager: manager, deviceCounter: try IIOStepCounter(directory: directory))
        let pushed = Collector<PedometerData>()
        pedometer.startUpdates(from: 0, to: DispatchQueue(label: "steps")) { pushed.append($0, $1) }
        let t0 = trace.samples[0].timestamp
        // The device answers from 60 s (it reads garbage before): the accelerometer counts the first minute.
        // (Counting runs on the pedometer's queue: a query waits for it before the file changes.)
        try Self.overwrite(directory, "in_steps_input", "many")
        replay.advance(to: 60)
        _ = pedometer.queryPedometerData()
        try Self.overwrite(directory, "in_steps_input", "1200")
        replay.advance(to: 61)
        let firstMinute = pedometer.queryPedometerData(from: t0, to: t0 + 60).numberOfSteps
        #expect(firstMinute > 80, "\(firstMinute) steps from the accelerometer in the first minute of a walk")
        #expect(pedometer.deviceReadFailures >= 100)
        // Then the device counts 40 steps in 20 s, whatever the accelerometer makes of them.
        for second in 1...20 {
            _ = pedometer.queryPedometerData()
            try Self.overwrite(directory, "in_steps_input", String(1200 + 2 * second))
            replay.advance(to: 61 + Double(second))
        }
        let deviceStretch = pedometer.queryPedometerData(from: t0 + 61, to: t0 + 81).numberOfSteps
        #expect(abs(deviceStretch - 40) <= 2, "\(deviceStretch) steps where the device counted 40")
        pedometer.stopUpdates()
        let all = pedometer.queryPedometerData(from: t0, to: t0 + 81)
        #expect(abs(all.numberOfSteps - firstMinute - 40) <= 4, "\(all.numberOfSteps): the accelerometer's minute, then the device's 40")
        #expect((all.distance ?? 0) > 0)
        #expect(pushed.wait(for: 1, seconds: 5) && pushed.errorMessages.isEmpty)
        #expect(pushed.all.last.map { abs($0.numberOfSteps - all.numberOfSteps) <= 4 } == true)
        withExtendedLifetime(fake) {}
    }
}
