import Dispatch
import Foundation
import Testing
import TestSupport
@testable import Motion

@Suite("Pedometer, live: a real recording replayed through the source and the manager")
struct PedometerLiveTests {
    @Test("pushed updates grow to the count of the pure step counter; the query after stop equals it")
    func replayThroughManager() throws {
        let trace = try OxfordTraces.trace("user2_hand")
        let expected = OxfordTraces.count(trace.samples).data()
        let replay = SteppedReplaySource(trace: trace, loop: false)
        let manager = MotionManager(source: replay, clock: replay.clock)
        let pedometer = Pedometer(manager: manager)
        #expect(pedometer.isStepCountingAvailable)
        let pushed = Collector<PedometerData>()
        pedometer.startUpdates(from: 0, to: DispatchQueue(label: "steps")) { pushed.append($0, $1) }
        var t = 0.0
        while t < trace.duration + 1 {  // 60 frames a second, as the headless replays
            t += 1.0 / 60
            replay.advance(to: t)
        }
        // The last step may wait in the detector until stop flushes it.
        let deadline = Date().addingTimeInterval(20)
        while (pushed.all.last?.numberOfSteps ?? 0) < expected.numberOfSteps - 1, Date() < deadline { usleep(1000) }
        pedometer.stopUpdates()
        let updates = pushed.all
        #expect(pushed.errorMessages.isEmpty)
        #expect(updates.count > 10)
        #expect(zip(updates, updates.dropFirst()).allSatisfy { $0.numberOfSteps < $1.numberOfSteps && $0.end <= $1.end })
        #expect((updates.last?.numberOfSteps ?? 0) >= expected.numberOfSteps - 1)
        let queried = pedometer.queryPedometerData()
        #expect(queried.numberOfSteps == expected.numberOfSteps)
        #expect(queried.distance == expected.distance)
        let firstHalf = pedometer.queryPedometerData(from: 0, to: trace.duration / 2)
        #expect(firstHalf.numberOfSteps > 0 && firstHalf.numberOfSteps < queried.numberOfSteps)
    }

    @Test("floors walked up the stairs are pushed and queried; the lift ridden after them adds none")
    func stairsThenLift() throws {
        let samples = try FloorProfiles.stairsThenLift()
        let trace = Trace(samples: samples, metadata: TraceMetadata(source: "stairs, then a lift"))
        let expected = OxfordTraces.count(samples).data()
        #expect(expected.floorsAscended == 2 && expected.floorsDescended == 0)
        let replay = SteppedReplaySource(trace: trace, loop: false)
        let pedometer = Pedometer(manager: MotionManager(source: replay, clock: replay.clock))
        let pushed = Collector<PedometerData>()
        pedometer.startUpdates(from: 0, to: DispatchQueue(label: "floors")) { pushed.append($0, $1) }
        var t = 0.0
        while t < trace.duration + 1 {
            t += 1.0 / 60
            replay.advance(to: t)
        }
        let deadline = Date().addingTimeInterval(20)
        while (pushed.all.last?.floorsAscended ?? 0) < 2, Date() < deadline { usleep(1000) }
        pedometer.stopUpdates()
        #expect(pushed.errorMessages.isEmpty)
        #expect(pushed.all.last?.floorsAscended == 2, "the stairs' floors are pushed, the lift's are not")
        #expect(pushed.all.allSatisfy { ($0.floorsAscended ?? 0) <= 2 && $0.floorsDescended == 0 })
        let queried = pedometer.queryPedometerData()
        #expect(queried.floorsAscended == 2 && queried.numberOfSteps == expected.numberOfSteps)
        #expect(pedometer.queryPedometerData(from: 40, to: trace.duration).floorsAscended == 0)
    }

    @Test("a source without an accelerometer is reported to the handler")
    func unavailable() {
        let source = SteppedTestSource(sensors: [.gyroscope])
        let pedometer = Pedometer(source: source)
        let got = Collector<PedometerData>()
        pedometer.startUpdates(from: 0, to: DispatchQueue(label: "x")) { got.append($0, $1) }
        let deadline = Date().addingTimeInterval(5)
        while got.errorMessages.isEmpty, Date() < deadline { usleep(1000) }
        #expect(got.errorMessages.first?.contains("accelerometer") == true)
        #expect(!pedometer.isStepCountingAvailable)
    }
}
