import Foundation
import Motion
import Testing
@testable import Benchmarks

/// `bench latency|pull --source` on a replay whose intervals are known: a 250 Hz stream missing
/// every 10th report, replayed in real time. The stream's own figures (intervals by timestamp,
/// drops) are exact; those of the host (arrival, age) only have loose bounds, as the machine
/// running the tests may be busy.
@Suite("Live source bench on a replay", .serialized)
struct LiveSourceBenchmarkTests {
    static func replay(hz: Double, seconds: Double, dropEvery: Int) -> ReplaySource {
        let samples = (0..<Int(hz * seconds)).filter { $0 % dropEvery != dropEvery - 1 }.map { i in
            MotionSample(timestamp: Double(i) / hz, acceleration: Vector3(x: 0, y: 0, z: -1),
                         rotationRate: Vector3(x: 0.1, y: 0, z: 0))
        }
        return ReplaySource(trace: Trace(samples: samples, metadata: TraceMetadata(source: "test 250 Hz")),
                            pacing: .realTime(speed: 1), loop: true)
    }

    @Test("a 250 Hz replay missing every 10th report: 4 ms intervals, one drop per 9 samples, ages near their ideal")
    func knownStream() throws {
        var settings = LiveSourceBenchmark.Settings()
        settings.duration = 1.2
        settings.settleSeconds = 0.2
        settings.frameRates = [60, 144]
        settings.measurePullCost = true
        var phases: [String] = []
        let bench = LiveSourceBenchmark(settings: settings, clock: .init(name: "trace time", fromDevice: true))
        let (report, series) = try bench.run(Self.replay(hz: 250, seconds: 5, dropEvery: 10), path: "test", progress: { _, step in
            if phases.last != step { phases.append(step) }
        })
        let r = report.byTimestamp
        #expect(r.samples > 150, "\(r.samples) samples in \(report.seconds) s")
        #expect(abs(r.period - 4e6) < 1)
        let drops = try #require(r.drops)
        // Every 9 delivered samples one is missing, give or take the ends of the run.
        #expect(abs(drops * 9 - r.samples) <= 18, "\(drops) drops in \(r.samples) samples")
        #expect(r.duplicates == 0 && r.restarts == 0)
        #expect(report.byArrival.drops == nil)
        // The replay paces to the trace's times: arrival intervals centre on 4 ms.
        #expect(abs(report.byArrival.intervals.p50 - 4e6) < 1e6, "\(report.byArrival.intervals.p50)")
        #expect(report.arrivalToVisible.count > 0)
        #expect(report.frames.map(\.frameRate) == [60, 144])
        for frame in report.frames {
            #expect(frame.age.count > 0)
            // Ideal ≈ 2.4 ms for 4/8 ms intervals; a busy machine adds, but not tens of ms.
            #expect(frame.age.mean > 0.3 * report.idealAge.measuredSpacing && frame.age.mean < 3 * report.idealAge.measuredSpacing + 2e6,
                    "\(frame.frameRate) Hz: age \(frame.age.mean) ns, ideal \(report.idealAge.measuredSpacing) ns")
        }
        #expect(report.idealAge.measuredSpacing > report.idealAge.evenSpacing)
        #expect(report.fusion.count == UInt64(r.samples) && report.fusion.p50 > 0)
        #expect(report.processing.p50 > 0)
        #expect(report.pullCost.map { $0.count > 0 } == true)
        #expect(report.rateControl.contains("every sample"))
        #expect(phases.first == "settling" && phases.contains("arrival → visible to a pull") && phases.contains("pull cost"))
        #expect(series.ageOverTime.count == 2 && series.ageOverTime[1].count > series.ageOverTime[0].count)

        let text = LiveSourceComparison(reports: [report], skipped: []).text
        #expect(text.contains("dropped reports") && text.contains("\(drops)"))
        let charts = LiveSourceCharts.charts([(report, series)])
        #expect(charts.map(\.file) == ["source-intervals.svg", "source-age.svg"])
        #expect(charts[0].chart.svg().contains("by trace time"))
    }

    @Test("a source that delivers only while its owner pumps (as SDL's) is pumped by the game loops; no spinning phase")
    func pumpedSource() throws {
        let samples = (0..<2500).map { i in
            MotionSample(timestamp: Double(i) / 250, acceleration: Vector3(x: 0, y: 0, z: -1), rotationRate: Vector3(x: 0, y: 0.1, z: 0))
        }
        let replay = SteppedReplaySource(trace: Trace(samples: samples, metadata: TraceMetadata(source: "pumped 250 Hz")))
        let start = Nanoclock.now()
        var pumps = 0
        // The pump: wait up to 1 ms for "events", then deliver what is due, on this thread.
        let pump = { (timeout: Double) in
            Nanoclock.sleep(until: Nanoclock.now() + UInt64(Swift.min(timeout, 0.001) * 1e9))
            replay.advance(to: Nanoclock.seconds(Nanoclock.now() - start))
            pumps += 1
        }
        var settings = LiveSourceBenchmark.Settings()
        settings.duration = 1
        settings.settleSeconds = 0.1
        settings.frameRates = [60]
        let (report, _) = try LiveSourceBenchmark(settings: settings, clock: .init(name: "trace time", fromDevice: true))
            .run(replay, path: "pumped", pump: pump)
        #expect(pumps > 100)
        #expect(report.byTimestamp.samples > 150 && abs(report.byTimestamp.period - 4e6) < 1)
        #expect(report.byTimestamp.drops == 0)
        #expect(report.arrivalToVisible.count == 0 && report.caughtFraction == nil)
        #expect(report.frames[0].age.count > 30)
        #expect(LiveSourceComparison(reports: [report], skipped: []).text.contains("n/a"))
    }

    @Test("a recording that ends before the measurement is a clear error, not a table of zeros")
    func endedEarly() throws {
        let samples = (0..<50).map { i in
            MotionSample(timestamp: Double(i) / 250, acceleration: Vector3(x: 0, y: 0, z: -1), rotationRate: Vector3(x: 0, y: 0, z: 0))
        }
        let short = ReplaySource(trace: Trace(samples: samples, metadata: TraceMetadata(source: "0.2 s")), pacing: .realTime(speed: 1))
        var settings = LiveSourceBenchmark.Settings()
        settings.duration = 0.3
        settings.settleSeconds = 0.4
        settings.frameRates = [60]
        #expect {
            _ = try LiveSourceBenchmark(settings: settings, clock: .init(name: "trace time", fromDevice: true)).run(short, path: "short")
        } throws: { error in
            "\(error)".contains("none in the measured 0.3 s") && "\(error)".contains("ended")
        }
    }

    @Test("a source that sends nothing is a clear error, not a hang")
    func silentSource() throws {
        var settings = LiveSourceBenchmark.Settings()
        settings.firstSampleTimeout = 0.2
        let empty = ReplaySource(trace: Trace(samples: [], metadata: TraceMetadata(source: "empty")), pacing: .realTime(speed: 1))
        #expect(throws: LiveSourceError.self) {
            _ = try LiveSourceBenchmark(settings: settings, clock: .init(name: "trace time", fromDevice: true)).run(empty, path: "empty")
        }
    }
}
