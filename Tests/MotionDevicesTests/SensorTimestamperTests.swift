@testable import MotionDevices
import Testing

@Suite("sensor timestamps: the pad's clock where it runs, arrival time where it does not")
struct SensorTimestamperTests {
    /// DualShock 4 ticks (16/3 µs) for a time in seconds, wrapped to 16 bits.
    static func ds4Ticks(_ seconds: Double) -> UInt32 { UInt32(Int((seconds / (16e-6 / 3)).rounded()) & 0xFFFF) }

    @Test("a running clock gives the pad's spacing, not the host's jittery arrival")
    func runningClock() {
        var stamper = SensorTimestamper(clock: .dualShock4)
        var times: [Double] = []
        for i in 0..<500 {
            let device = Double(i) * 0.004
            // Arrival bunches: two reports together every 8 ms, 1–3 ms late.
            let host = 10 + Double(i / 2) * 0.008 + 0.004 + Double(i % 3) * 0.001
            times.append(stamper.stamp(ticks: Self.ds4Ticks(device), hostTime: host))
        }
        // The anchor settles on the earliest arrival (a sample cannot arrive before it was
        // measured) within the first few; from then on the spacing is the pad's, to a few µs.
        let steps = zip(times.dropFirst(7), times.dropFirst(6)).map { $0 - $1 }
        #expect(steps.allSatisfy { abs($0 - 0.004) < 2e-5 }, "steps \(steps.min()!)…\(steps.max()!)")
        #expect(stamper.statistics.arrivalStamped == 0 && stamper.statistics.resynchronised == 0)
    }

    @Test("a clock that stands still falls back to arrival time, counted and flagged")
    func stalledClock() {
        var stamper = SensorTimestamper(clock: .dualShock4)
        let times = (0..<100).map { stamper.stamp(ticks: 1234, hostTime: 5 + Double($0) * 0.004) }
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(steps.allSatisfy { abs($0 - 0.004) < 1e-9 }, "stamped \(steps.min()!)…\(steps.max()!) apart")
        #expect(stamper.statistics.arrivalStamped == 99)
        #expect(stamper.statistics.clockStalled)
        #expect(stamper.statistics.notes.first?.contains("stands still") == true)
        // It starts to run again: back on the pad's clock, no longer flagged.
        _ = stamper.stamp(ticks: 1234 + 750, hostTime: 5.404)
        let t = stamper.stamp(ticks: 1234 + 1500, hostTime: 5.4095)
        #expect(abs(t - 5.408) < 1e-4)
        #expect(!stamper.statistics.clockStalled)
    }

    @Test("an unseen wrap during a gap and a jump are caught against the host clock")
    func wrapAndJump() {
        var stamper = SensorTimestamper(clock: .dualShock4)
        var host = 1.0
        var device = 0.0
        for _ in 0..<50 { _ = stamper.stamp(ticks: Self.ds4Ticks(device), hostTime: host); host += 0.004; device += 0.004 }
        // A 1 s Bluetooth gap: the 16-bit counter wrapped almost three times unseen.
        host += 1; device += 1
        let afterGap = stamper.stamp(ticks: Self.ds4Ticks(device), hostTime: host)
        #expect(abs(afterGap - host) < 1e-9)
        #expect(stamper.statistics.resynchronised == 1)
        // The pad restarts: its counter jumps back to 0.
        host += 0.004
        let afterRestart = stamper.stamp(ticks: 0, hostTime: host)
        #expect(afterRestart > afterGap && abs(afterRestart - host) < 0.01)
        #expect(stamper.statistics.resynchronised == 2)
    }

    @Test("a reader held back 2 s keeps a DualSense's spacing through the backlog it then reads in a burst")
    func readerStall() {
        var stamper = SensorTimestamper(clock: .dualSense)
        func ticks(_ seconds: Double) -> UInt32 { UInt32(truncatingIfNeeded: Int((seconds * 3e6).rounded())) }
        var times: [Double] = []
        for i in 0..<100 { times.append(stamper.stamp(ticks: ticks(Double(i) * 0.004), hostTime: 50 + Double(i) * 0.004 + 0.001)) }
        // The reader sleeps 2 s; the 500 reports sent meanwhile are read 20 µs apart.
        for i in 100..<600 {
            times.append(stamper.stamp(ticks: ticks(Double(i) * 0.004), hostTime: 50 + 2.4 + Double(i - 100) * 2e-5))
        }
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(steps.allSatisfy { abs($0 - 0.004) < 1e-5 }, "steps \(steps.min()!)…\(steps.max()!)")
        #expect(stamper.statistics.resynchronised == 0)
    }

    @Test("a backlog read at once keeps the pad's spacing and ends at the read, at open and after a stall",
          arguments: [DeviceClock.dualSense, .dualShock4])
    func backlogReadTogether(clock: DeviceClock) {
        var stamper = SensorTimestamper(clock: clock)
        func ticks(_ seconds: Double) -> UInt32 {
            UInt32(truncatingIfNeeded: Int((seconds / clock.secondsPerTick).rounded()) & Int(clock.wrapPeriod / clock.secondsPerTick - 1))
        }
        // The node was opened, then the pad's calibration read: 40 reports queued meanwhile.
        let opened = stamper.timestamps(ticks: (0..<40).map { ticks(Double($0) * 0.004) }, hostTime: 7.2)
        // Live for 50 reports, each read 1 ms after it was sent; then a 64-report queue, drained in one read.
        var live: [Double] = []
        for i in 40..<90 { live.append(stamper.stamp(ticks: ticks(Double(i) * 0.004), hostTime: 7.2 - 0.156 + Double(i) * 0.004 + 0.001)) }
        let stalled = stamper.timestamps(ticks: (90..<154).map { ticks(Double($0) * 0.004) }, hostTime: live.last! + 0.3)
        let times = opened + live + stalled
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }
        // Stamped one by one at the read, all but the newest of a backlog would come 1 µs apart; the
        // live reports, 1 ms late, let the anchor creep at the drift rate.
        let tick = clock.secondsPerTick
        #expect(steps.allSatisfy { abs($0 - 0.004) <= 2 * tick + SensorTimestamper.maximumDrift * 0.004 + 1e-9 }, "steps \(steps.min()!)…\(steps.max()!)")
        #expect(opened.last == 7.2 && stalled.last! <= live.last! + 0.3)
        #expect(stamper.statistics.resynchronised == 0 && stamper.statistics.arrivalStamped == 0)
    }

    @Test("samples read together (an IIO buffer's scans, a pad's queued reports) arrived at their own spacing, the newest on reading; without usable stamps all at once")
    func arrivalTimes() {
        let spaced = SensorTimestamper.arrivalTimes([1.00, 1.01, 1.02], readAt: 50)
        #expect(zip(spaced, [49.98, 49.99, 50]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(spaced)")
        #expect(SensorTimestamper.arrivalTimes([nil, nil], readAt: 50) == [50, 50])
        #expect(SensorTimestamper.arrivalTimes([3, 3], readAt: 50) == [50, 50])       // stuck clock
        #expect(SensorTimestamper.arrivalTimes([1, 5], readAt: 50) == [46, 50])       // a long backlog
    }

    @Test("the anchor follows a pad crystal 100 ppm fast or slow without steps", arguments: [-100e-6, 100e-6])
    func drift(ppm: Double) {
        var stamper = SensorTimestamper(clock: .dualSense)
        var worst = 0.0
        for i in 0..<250_000 {   // 1000 s at 250 Hz
            let device = Double(i) * 0.004
            let host = 100 + device * (1 + ppm) + 0.002
            let t = stamper.stamp(ticks: UInt32(truncatingIfNeeded: Int((device * 3e6).rounded())), hostTime: host)
            worst = max(worst, abs(t - host))
        }
        #expect(worst < 0.01, "stamps drifted \(worst) s from the host")
        #expect(stamper.statistics.resynchronised == 0)
    }

    @Test("samples that arrive together (Nintendo) are spread before arrival, always increasing")
    func arrivalSpread() {
        var stamper = SensorTimestamper(clock: nil)
        let first = stamper.arrivalTimestamps(count: 3, interval: 0.015, hostTime: 2)
        #expect(first == [1.99, 1.995, 2.0].map { $0 })
        let second = stamper.arrivalTimestamps(count: 3, interval: 0.015, hostTime: 2.001)
        #expect(second[0] > 2.0 && second[1] > second[0] && second[2] > second[1])
        #expect(abs((second[1] - second[0]) - 0.005) < 1e-12)
    }
}

extension SensorTimestamper {
    /// One sample's stamp from a stamper that does not settle (it stamps every sample as it comes).
    mutating func stamp(ticks: UInt32, hostTime: Double) -> Double {
        let stamps = timestamps(ticks: [ticks], hostTime: hostTime)
        precondition(stamps.count == 1, "a stamper without a settling window stamps each sample as it comes")
        return stamps[0]
    }
}
