@testable import Benchmarks
import Testing

@Suite("Report intervals, drops and duplicates")
struct ReportIntervalsTests {
    /// `count` timestamps at `hz`, leaving out every `dropEvery`-th (0: none).
    static func stream(hz: Double, count: Int, dropEvery: Int = 0, start: Double = 100) -> [Double] {
        (0..<count).filter { dropEvery == 0 || $0 % dropEvery != dropEvery - 1 }.map { start + Double($0) / hz }
    }

    @Test("an even 250 Hz stream: 4 ms intervals, no drops, no duplicates")
    func even() {
        let r = ReportIntervals(timestamps: Self.stream(hz: 250, count: 1000), clock: "the pad's counter", fromDeviceClock: true)
        #expect(r.samples == 1000 && r.intervals.count == 999)
        #expect(abs(r.period - 4e6) < 1 && abs(r.intervals.mean - 4e6) < 1 && abs(r.intervals.p999 - 4e6) < 1)
        #expect(r.drops == 0 && r.duplicates == 0 && r.restarts == 0)
        #expect(abs(r.rate - 250) < 1e-6)
    }

    @Test("a report lost every 10th: each gap of two periods is one drop")
    func dropEveryTenth() {
        let r = ReportIntervals(timestamps: Self.stream(hz: 1000, count: 1000, dropEvery: 10), clock: "trace time", fromDeviceClock: true)
        #expect(r.samples == 900)
        #expect(r.drops == 99)   // 100 dropped; the last one is past the end of the stream
        #expect(abs(r.period - 1e6) < 1)
        #expect(abs(r.intervals.max - 2e6) < 1)
    }

    @Test("a gap of five periods is four drops; a repeated stamp is a duplicate; a restart is neither")
    func gapsRepeatsRestarts() {
        var t = Self.stream(hz: 100, count: 50)
        t.insert(t[20], at: 21)                  // repeated report
        t += Self.stream(hz: 100, count: 10, start: t.last! + 0.05)  // 5 periods later
        t += Self.stream(hz: 100, count: 10, start: 3)               // the source restarted
        let r = ReportIntervals(timestamps: t, clock: "trace time", fromDeviceClock: true, knownDuplicates: 2)
        #expect(r.drops == 4)
        #expect(r.duplicates == 3)
        #expect(r.restarts == 1)
    }

    @Test("jitter of ±25 % of the period is not a drop")
    func jitter() {
        var t: [Double] = []
        var now = 0.0
        // 40 cycles of 51 spreads from −25 % to +25 %: mean 4 ms (the first, left out as t[0], was −25 %).
        for i in 0..<2040 {
            now += 0.004 * (1 + Double((i * 37) % 51 - 25) / 100)
            t.append(now)
        }
        let r = ReportIntervals(timestamps: t, clock: "the pad's counter", fromDeviceClock: true)
        #expect(r.drops == 0 && r.duplicates == 0)
        #expect(abs(r.intervals.mean - (t.last! - t.first!) / Double(t.count - 1) * 1e9) < 1)
        #expect(abs(r.intervals.mean - 4e6) < 1000)
        #expect(r.intervals.max > 4.9e6 && r.intervals.min < 3.1e6)
    }

    @Test("on arrival times drops and duplicates are not counted (bursts are not repeats)")
    func arrivalClock() {
        var t: [Double] = []
        for burst in 0..<100 { for i in 0..<4 { t.append(Double(burst) * 0.004 + Double(i) * 1e-6) } }
        let r = ReportIntervals(timestamps: t, clock: "arrival time", fromDeviceClock: false)
        #expect(r.drops == nil && r.duplicates == nil)
        #expect(r.intervals.p99 > 3e6)
    }

    @Test("ideal age: half the interval when even; Σd²/2Σd, longer, when bunched")
    func idealAge() {
        let even = IdealAge(arrivalIntervals: Array(repeating: 4e6, count: 100), processing: 1000)
        #expect(abs(even.evenSpacing - 2.001e6) < 1e-3 && abs(even.measuredSpacing - 2.001e6) < 1e-3)
        // Bluetooth-like: pairs of reports 0.1 ms apart every 8 ms (same mean interval, 4.05 ms).
        let bunched = IdealAge(arrivalIntervals: (0..<100).map { $0 % 2 == 0 ? 0.1e6 : 7.9e6 }, processing: 0)
        #expect(abs(bunched.evenSpacing - 2e6) < 1)
        #expect(abs(bunched.measuredSpacing - (0.1e6 * 0.1e6 + 7.9e6 * 7.9e6) / (2 * 8e6)) < 1)
        #expect(bunched.measuredSpacing > 3.9e6)
    }
}
