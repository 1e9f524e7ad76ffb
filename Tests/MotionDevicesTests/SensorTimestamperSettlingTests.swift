import Motion
@testable import MotionDevices
import Testing

@Suite("sensor timestamps after an open: the first samples held until the pad's latency is known")
struct SensorTimestamperSettlingTests {
    static let window = SensorTimestamper.settlingWindow

    /// DualSense ticks (1/3 µs, u32) for a time in seconds.
    static func ticks(_ seconds: Double) -> UInt32 { UInt32(truncatingIfNeeded: Int((seconds * 3e6).rounded())) }

    /// A pad sending every 4 ms from host time 100, read one sample at a time: the first read 40 ms
    /// late, the samples queued behind it read just after it, then each 1 ms after it was sent (as
    /// evdev stamps them). Stamps of `stamper`, all handed over by the end.
    static func lateFirstRead(_ stamper: inout SensorTimestamper, late: Double = 0.040, count: Int = 100) -> [Double] {
        var times: [Double] = []
        for i in 0..<count {
            let sent = Double(i) * 0.004
            let arrival = 100 + max(sent + 0.001, late + Double(i) * 1e-5)
            times += stamper.timestamps(ticks: ticks(sent), hostTime: arrival)
        }
        return times + stamper.flush()
    }

    @Test("a late first read followed by timely ones: the steps are the pad's from the first sample",
          arguments: [0.040, 0.25])
    func lateFirstReadKeepsSpacing(late: Double) {
        var settling = SensorTimestamper(clock: .dualSense, settlingWindow: Self.window)
        let times = Self.lateFirstRead(&settling, late: late, count: 120)
        #expect(times.count == 120)
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(steps.allSatisfy { abs($0 - 0.004) < 1e-6 }, "steps \(steps.min()!)…\(steps.max()!)")
        // Anchored on the timely reads: the first sample at its send time plus the least latency.
        #expect(abs(times[0] - 100.001) < 1e-6)
        #expect(settling.statistics.resynchronised == 0 && settling.statistics.arrivalStamped == 0)
        // Without settling the stamps lean on the late first read and the steps after it shrink
        // until the anchor is back: the stretch loses the first read's delay.
        var unsettled = SensorTimestamper(clock: .dualSense)
        let leaning = Self.lateFirstRead(&unsettled)
        let lost = 99 * 0.004 - (leaning.last! - leaning.first!)
        #expect(lost > 0.03, "lost \(lost)")
    }

    @Test("a backlog read at open keeps the pad's spacing and ends at its read; held until the window has passed",
          arguments: [DeviceClock.dualSense, .dualShock4])
    func backlogAtOpen(clock: DeviceClock) {
        var stamper = SensorTimestamper(clock: clock, settlingWindow: Self.window)
        func ticks(_ seconds: Double) -> UInt32 {
            UInt32(truncatingIfNeeded: Int((seconds / clock.secondsPerTick).rounded()) & Int(clock.wrapPeriod / clock.secondsPerTick - 1))
        }
        // 40 reports queued while the pad's calibration was read, drained at once: held.
        var times = stamper.timestamps(ticks: (0..<40).map { ticks(Double($0) * 0.004) }, hostTime: 7.2)
        #expect(times.isEmpty && stamper.heldCount == 40)
        // Then live, each read 1 ms after it was sent: released once the window has passed.
        var released: Int?
        for i in 40..<90 {
            times += stamper.timestamps(ticks: ticks(Double(i) * 0.004), hostTime: 7.2 - 0.156 + Double(i) * 0.004 + 0.001)
            if released == nil, !times.isEmpty { released = i }
        }
        #expect(times.count == 90 && stamper.heldCount == 0)
        // The first read after the window: 0.05 s after the backlog's read.
        #expect(released == 52)
        #expect(times[39] == 7.2)
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }
        let tick = clock.secondsPerTick
        #expect(steps.allSatisfy { abs($0 - 0.004) <= 2 * tick + SensorTimestamper.maximumDrift * 0.004 + 1e-9 }, "steps \(steps.min()!)…\(steps.max()!)")
    }

    @Test("a clock that stands still from the open: no wait beyond the second sample, stamped on arrival")
    func stalledDuringWindow() {
        var stamper = SensorTimestamper(clock: .dualShock4, settlingWindow: Self.window)
        #expect(stamper.timestamps(ticks: 1234, hostTime: 5).isEmpty)
        var times = stamper.timestamps(ticks: 1234, hostTime: 5.004)
        #expect(times == [5, 5.004])
        for i in 2..<100 { times += stamper.timestamps(ticks: 1234, hostTime: 5 + Double(i) * 0.004) }
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(times.count == 100 && steps.allSatisfy { abs($0 - 0.004) < 1e-9 }, "\(steps.min()!)…\(steps.max()!)")
        #expect(stamper.statistics.arrivalStamped == 99 && stamper.statistics.clockStalled)
    }

    @Test("a clock that stops inside the window: what it held is stamped on its spacing, the rest on arrival")
    func stopsDuringWindow() {
        var stamper = SensorTimestamper(clock: .dualSense, settlingWindow: Self.window)
        var times: [Double] = []
        for i in 0..<4 { times += stamper.timestamps(ticks: Self.ticks(Double(i) * 0.004), hostTime: 1 + Double(i) * 0.004 + 0.002) }
        #expect(times.isEmpty)
        for i in 4..<8 { times += stamper.timestamps(ticks: Self.ticks(0.012), hostTime: 1 + Double(i) * 0.004 + 0.002) }
        #expect(times.count == 8)
        #expect(zip(times.prefix(4), [1.002, 1.006, 1.010, 1.014]).allSatisfy { abs($0 - $1) < 1e-6 }, "\(times)")
        #expect(zip(times.dropFirst(4), [1.018, 1.022, 1.026, 1.030]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(times)")
        #expect(stamper.statistics.arrivalStamped == 4)
    }

    @Test("unplugged inside the window: flush hands over every held sample; after reset it settles again")
    func unplugBeforeWindowEnds() {
        var stamper = SensorTimestamper(clock: .dualSense, settlingWindow: Self.window)
        var times: [Double] = []
        for (i, late) in [0.020, 0.003, 0.001, 0.002, 0.004].enumerated() {
            times += stamper.timestamps(ticks: Self.ticks(Double(i) * 0.004), hostTime: 3 + Double(i) * 0.004 + late)
        }
        #expect(times.isEmpty && stamper.heldCount == 5)
        times = stamper.flush()
        #expect(times.count == 5 && stamper.heldCount == 0)
        // Anchored on the least latency (1 ms), every step the pad's.
        #expect(zip(times, [3.001, 3.005, 3.009, 3.013, 3.017]).allSatisfy { abs($0 - $1) < 1e-6 }, "\(times)")
        #expect(stamper.flush().isEmpty)
        // Replugged: the counter restarts, the first samples are held again.
        stamper.reset()
        #expect(stamper.timestamps(ticks: Self.ticks(0), hostTime: 9).isEmpty && stamper.heldCount == 1)
    }

    @Test("a flush before anything arrived (the pad quiet after opening) does not end the window")
    func quietBeforeFirstSample() {
        var stamper = SensorTimestamper(clock: .dualSense, settlingWindow: Self.window)
        #expect(stamper.flush().isEmpty)
        #expect(stamper.timestamps(ticks: Self.ticks(0), hostTime: 1).isEmpty)
    }

    @Test("an evdev node's decoder hands over each held frame once, in order, with its values")
    func evdevDecoderDeliversHeldFrames() {
        var decoder = EvdevMotionDecoder(driver: .playStation, settlingWindow: Self.window)
        var samples: [MotionSample] = []
        var afterFirstFeeds: Int?
        for i in 0..<40 {
            let sent = Double(i) * 0.004
            let time = 50 + max(sent + 0.001, 0.030 + Double(i) * 1e-5)
            for event in EvdevStream.frame(time: time, gyro: SIMD3(Int32(i) * 1024, 0, 0), timestamp: UInt32(i * 4000)) {
                samples += decoder.feed(event)
            }
            if i == 2 { afterFirstFeeds = samples.count }
        }
        samples += decoder.flush()
        #expect(afterFirstFeeds == 0)
        #expect(samples.count == 40)
        // Pad +x (1 deg/s per count of 1024) → Core Motion +x: frame i carries i deg/s.
        #expect(samples.enumerated().allSatisfy { i, s in abs(s.rotationRate!.x - Double(i) * .pi / 180) < 1e-9 })
        let steps = zip(samples.dropFirst(), samples).map { $0.timestamp - $1.timestamp }
        #expect(steps.allSatisfy { abs($0 - 0.004) < 1e-6 }, "steps \(steps.min()!)…\(steps.max()!)")
    }

    @Test("a pad's report decoder hands over each held report once, in order; without settling one sample per report")
    func gamepadDecoderDeliversHeldReports() throws {
        let fixture = try Fixtures.generated("dualsense-usb")
        let device = try #require(GamepadDevice(hint: "dualsense-usb"))
        var settling = GamepadReportDecoder(device: device, settlingWindow: Self.window)
        var immediate = GamepadReportDecoder(device: device)
        var samples: [MotionSample] = [], expected: [MotionSample] = []
        // The fixture's reports, each read 4 ms after the one before.
        for (i, report) in fixture.reports.enumerated() {
            samples += settling.decode(report.bytes, hostTime: 20 + Double(i) * 0.004)
            let one = immediate.decode(report.bytes, hostTime: 20 + Double(i) * 0.004)
            #expect(one.count == 1)
            expected += one
        }
        samples += settling.flush()
        #expect(samples.count == fixture.reports.count)
        #expect(samples.map(\.rotationRate) == expected.map(\.rotationRate))
        #expect(samples.map(\.acceleration) == expected.map(\.acceleration))
        #expect(zip(samples.dropFirst(), samples).allSatisfy { $0.timestamp > $1.timestamp })
    }
}
