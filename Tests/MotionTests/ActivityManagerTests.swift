import Foundation
import Testing
import TestSupport
@testable import Motion

/// `MotionActivityManager` on a real recording replayed through the real source and manager:
/// a `SteppedReplaySource` feeds a `MotionManager`, whose pushed accelerometer samples the
/// activity manager classifies. No mocks.
@Suite struct ActivityManagerTests {
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [MotionActivity] = []
        func append(_ a: MotionActivity) { lock.withLock { list.append(a) } }
        var all: [MotionActivity] { lock.withLock { list } }
    }

    /// Plays the whole trace through the source, pushing to an inline queue so the test sees every call.
    static func play(_ trace: Trace) -> (MotionActivityManager, [MotionActivity]) {
        let replay = SteppedReplaySource(trace: trace, loop: false)
        let manager = MotionActivityManager(source: replay, clock: replay.clock)
        let calls = Calls()
        manager.startActivityUpdates(to: InlineHandlerQueue()) { calls.append($0) }
        replay.advance(to: trace.duration + 1)
        manager.stopActivityUpdates()
        return (manager, calls.all)
    }

    @Test func theXIOBoardIsCalledStationaryAtRestAndQueriesCoverWhatWasSeen() throws {
        let trace = try Recordings.xio()
        let (manager, calls) = Self.play(trace)
        #expect(manager.isActivityAvailable)
        let first = trace.samples[0].timestamp
        // The first call is stationary, backdated to the first sample, made a few seconds in.
        let firstCall = try #require(calls.first)
        #expect(firstCall.stationary && abs(firstCall.startDate - first) < 0.05)
        #expect(!calls.contains { $0.walking || $0.running })
        // The query over the still ending returns one stationary segment, clipped to the range.
        let end = manager.queryActivity(from: first + 115, to: first + 130)
        #expect(end.count == 1 && end[0].kind == .stationary)
        #expect(abs(end[0].start - (first + 115)) < 1e-9 && abs(end[0].end - (first + 130)) < 1e-9)
        let all = manager.queryActivity(from: first, to: first + trace.duration)
        #expect(abs(all.map(\.duration).reduce(0, +) - trace.duration) < 0.05)
        #expect(manager.queryActivity(from: first + 10, to: first + 5).isEmpty)
        #expect(!manager.motionManager.isAccelerometerActive)
    }

    @Test(.needsSharedData("traces/motionsense/jog_16_sub_1.csv")) func aJogThroughTheManagerIsRunning() throws {
        let url = try TestData.requireSharedData("traces/motionsense/jog_16_sub_1.csv")
        let trace = try Trace.load(contentsOf: url)
        let (manager, calls) = Self.play(trace)
        #expect(calls.contains { $0.running && $0.confidence == .high })
        #expect(manager.currentActivity.running)
        let running = manager.queryActivity(from: 0, to: .greatestFiniteMagnitude).filter { $0.kind == .running }
        #expect(running.map(\.duration).reduce(0, +) >= 0.9 * trace.duration)
    }

    /// As an app would use it: a `ReplaySource` on its own thread, calls pushed to a `DispatchQueue`.
    @Test func callsArriveInOrderOnTheCallersQueue() throws {
        let trace = try Recordings.xio()
        let manager = MotionActivityManager(source: ReplaySource(trace: trace, pacing: .asFastAsPossible, loop: false))
        let queue = DispatchQueue(label: "activity")
        let calls = Calls()
        manager.startActivityUpdates(to: queue) { activity in
            dispatchPrecondition(condition: .onQueue(queue))
            calls.append(activity)
        }
        let deadline = Date().addingTimeInterval(30)
        while manager.motionManager.connectionState != .ended && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(manager.motionManager.connectionState == .ended)
        // Every change was sent before the end; the queue hands over the last of them in time.
        while calls.all.last != manager.currentActivity && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        manager.stopActivityUpdates()
        let all = calls.all
        #expect(all.first?.stationary == true)
        #expect(all.last == manager.currentActivity)
        #expect(all.count >= 3)
        // Start dates never go backwards.
        for (a, b) in zip(all, all.dropFirst()) { #expect(a.startDate <= b.startDate) }
    }
}
