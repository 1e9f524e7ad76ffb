import Dispatch
import Foundation
import Motion
@testable import MotionDevices
import Testing
import TestSupport

@Suite("IIO hardware step counter (in_steps_input, in_steps_en)")
struct IIOStepCounterTests {
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
    /// (`FakeIIODevice.write` replaces the file, which an open descriptor would not see).
    static func overwrite(_ directory: String, _ file: String, _ value: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: directory + "/" + file))
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data((value + "\n").utf8))
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
}
