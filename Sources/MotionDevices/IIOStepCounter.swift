#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import Motion

/// A step counter in an IIO device's hardware or firmware (the kernel's bma400 driver exports one),
/// a step source beside `StepDetector`'s: it counts with the device asleep in a pocket, at no CPU.
/// `Pedometer(manager:deviceCounter:)` merges its count with the accelerometer's; `tiltkit
/// devices` lists the devices that have one (`scan`).
///
///     let counter = try IIOStepCounter(directory: "/sys/bus/iio/devices/iio:device0")
///     try counter.setEnabled(true)
///     counter.startUpdates(from: 0, to: DispatchQueue.main) { data, error in print(data?.numberOfSteps ?? 0) }
///
/// The kernel ABI (Documentation/ABI/testing/sysfs-bus-iio, KernelVersion 3.19):
/// `in_steps_en` "activates a device feature that runs in firmware/hardware … for steps: the
/// pedometer saves power while not used; when activated, it will count the steps taken by the user
/// in firmware and export them through in_steps_input"; `in_steps_input` is "the number of steps
/// taken by the user since the last reboot while activated". Steps need no scale.
public final class IIOStepCounter: @unchecked Sendable {
    public let directory: String
    /// The device's `name`, e.g. "bma400".
    public let name: String
    private let input: SysfsAttribute
    private let enablePath: String
    private let lock = NSLock()
    private var timer: DispatchSourceTimer?
    private let polling = DispatchQueue(label: "tiltkit.iio-steps")

    /// Throws `.notFound` when the device has no `in_steps_input`.
    public init(directory: String, calls: SystemCalls = .live) throws(DeviceError) {
        self.directory = directory
        name = try SysfsAttribute.text(at: directory + "/name") ?? (directory as NSString).lastPathComponent
        input = try SysfsAttribute(path: directory + "/in_steps_input", calls: calls)
        enablePath = directory + "/in_steps_en"
    }

    /// Whether `directory` is a device with a step counter.
    public static func isAvailable(directory: String) -> Bool {
        FileManager.default.fileExists(atPath: directory + "/in_steps_input")
    }

    /// The devices in `devices` (a folder of `iio:deviceN`) that have a step counter, sorted.
    public static func scan(in devices: String = "/sys/bus/iio/devices") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: devices)) ?? []
        return names.filter { $0.hasPrefix("iio:device") }.sorted().map { devices + "/" + $0 }.filter { isAvailable(directory: $0) }
    }

    /// `in_steps_en`; nil when the device has no switch (it always counts).
    public var isEnabled: Bool? {
        ((try? SysfsAttribute.text(at: enablePath)) ?? nil).map { $0 == "1" }
    }

    /// Writes `in_steps_en` (needs write access to sysfs: root, or a udev rule).
    public func setEnabled(_ on: Bool) throws(DeviceError) {
        guard FileManager.default.fileExists(atPath: enablePath) else {
            throw .unsupported(path: enablePath, reason: "this device has no in_steps_en; its counter cannot be switched")
        }
        try SysfsAttribute.write(on ? "1\n" : "0\n", to: enablePath)
    }

    /// The counter now: steps since the device began counting.
    public func read() throws(DeviceError) -> Int {
        let value = try input.read()
        guard value.isFinite, value >= 0, value < Double(Int.max) else {
            throw .unsupported(path: input.path, reason: "not a step count: \(value)")
        }
        return Int(value)
    }

    /// Polls the counter every `interval` s on its own queue and pushes the steps since `start`
    /// (s, the clock's time) to `handler` on `queue` whenever they change; a read that fails is
    /// pushed as the error, and polling goes on (a device that comes back resumes).
    public func startUpdates(from start: Double, every interval: Double = 0.5, clock: any MotionClock = MonotonicClock(),
                             to queue: some MotionHandlerQueue, withHandler handler: @escaping Pedometer.Handler) {
        stopUpdates()
        var tally = DeviceStepTally()
        let timer = DispatchSource.makeTimerSource(queue: polling)
        timer.schedule(deadline: .now(), repeating: max(0.01, interval.isFinite ? interval : 0.5))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            do {
                let reading = try self.read()
                if tally.add(reading) {
                    let data = PedometerData(start: start, end: clock.now(), numberOfSteps: tally.steps)
                    queue.enqueue { handler(data, nil) }
                }
            } catch {
                queue.enqueue { handler(nil, error) }
            }
        }
        lock.withLock { self.timer = timer }
        timer.resume()
    }

    /// Stops polling; a handler may still run for a reading taken before.
    public func stopUpdates() {
        let old = lock.withLock { () -> DispatchSourceTimer? in
            defer { timer = nil }
            return timer
        }
        old?.cancel()
        polling.sync {}
    }

    deinit { timer?.cancel() }
}

extension IIOStepCounter: DeviceStepCounter {}
