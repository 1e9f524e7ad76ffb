import Foundation
import Testing
import TestSupport
@testable import Motion

/// The activity classifier on real recordings: MotionSense (iPhone 6s in a front trouser pocket,
/// 50 Hz; MIT), labelled by its file names, and the bundled x-io board recording. Shares are per
/// second of data, as `tiltkit bench activity` counts them.
@Suite struct ActivityClassifierTests {
    static func motionSense(_ name: String) throws -> Trace { try Recordings.sharedMotionSense(name) }

    static func segments(_ samples: [MotionSample]) -> [MotionActivitySegment] {
        var classifier = MotionActivityClassifier()
        for sample in samples { classifier.push(sample) }
        return classifier.allSegments
    }

    /// The call at the middle of each whole second from `first`.
    static func perSecond(_ segments: [MotionActivitySegment], first: Double, seconds: Int) -> [MotionActivityKind] {
        (0..<seconds).map { s in
            let t = first + Double(s) + 0.5
            return segments.first { $0.start <= t && t < $0.end }?.kind ?? .unknown
        }
    }

    static func share(of kind: MotionActivityKind, in trace: Trace) -> Double {
        let calls = perSecond(segments(trace.samples), first: trace.samples[0].timestamp, seconds: Int(trace.duration))
        return Double(calls.filter { $0 == kind }.count) / Double(calls.count)
    }

    // Measured with the default settings: every second of all twelve files agrees (378 s still,
    // 236 s walking and stairs, 60 s jogging), because a file's first call is backdated to its
    // start. The bounds leave a few seconds per file for a slower first call, no more.
    @Test(.needsSharedData(Recordings.motionSenseFolder), arguments: [("sit_13_sub_1", 0.98), ("sit_13_sub_2", 0.98), ("std_14_sub_1", 0.98), ("std_14_sub_2", 0.98)])
    func sittingAndStandingAreStationary(_ name: String, _ least: Double) throws {
        let trace = try Self.motionSense(name)
        #expect(Self.share(of: .stationary, in: trace) >= least)
    }

    @Test(.needsSharedData(Recordings.motionSenseFolder), arguments: [("wlk_15_sub_1", 0.9), ("wlk_15_sub_2", 0.95), ("ups_12_sub_1", 0.9), ("ups_12_sub_2", 0.9),
                      ("dws_11_sub_1", 0.9), ("dws_11_sub_2", 0.9)])
    func walkingAndStairsAreWalking(_ name: String, _ least: Double) throws {
        let trace = try Self.motionSense(name)
        #expect(Self.share(of: .walking, in: trace) >= least)
    }

    @Test(.needsSharedData(Recordings.motionSenseFolder), arguments: ["jog_16_sub_1", "jog_16_sub_2"])
    func joggingIsRunning(_ name: String) throws {
        let trace = try Self.motionSense(name)
        #expect(Self.share(of: .running, in: trace) >= 0.9)
    }

    /// Sitting, then walking: the call changes a few seconds after the walk starts (3 of 4 windows
    /// at a 1 s hop), and its start is backdated to near the splice, as Core Motion's startDate.
    @Test(.needsSharedData(Recordings.motionSenseFolder)) func aChangeIsCalledAFewSecondsLateAndBackdated() throws {
        let sit = try Self.motionSense("sit_13_sub_1")
        let walk = try Self.motionSense("wlk_15_sub_1")
        let splice = 30.0
        let samples = Self.splice(sit.samples, walk.samples, at: splice)
        var classifier = MotionActivityClassifier()
        var calledAt: Double?
        for sample in samples {
            if classifier.push(sample), classifier.current.walking, calledAt == nil { calledAt = sample.timestamp }
        }
        let delay = try #require(calledAt) - splice
        #expect((2.0...6.0).contains(delay), "walking called \(delay) s after it began")
        let walking = try #require(classifier.allSegments.first { $0.kind == .walking })
        #expect(abs(walking.start - splice) <= 2.0, "walking backdated to \(walking.start)")
        #expect(classifier.allSegments.first?.kind == .stationary)
    }

    /// A short burst does not flip the call: 1.5 s of walking spliced into sitting touches five
    /// overlapping windows, but each has a still quarter (no gait) and unknown needs 8 of 10.
    @Test(.needsSharedData(Recordings.motionSenseFolder)) func oneOddWindowDoesNotFlipTheCall() throws {
        let sit = try Self.motionSense("sit_13_sub_1")
        let walk = try Self.motionSense("wlk_15_sub_1")
        let burst = walk.samples.prefix { $0.timestamp - walk.samples[0].timestamp < 1.5 }
        let samples = Self.splice(Self.splice(Array(sit.samples.prefix(1500)), Array(burst), at: 20),
                                  Array(sit.samples.dropFirst(1500).prefix(1000)), at: 21.5)
        let kinds = Set(Self.segments(samples).map(\.kind))
        #expect(kinds == [.stationary], "\(kinds)")
    }

    /// The x-io board: still for its first 10 s and from 110 s, waved about in between; never a gait
    /// for long (its 63–70 s wobble at 3–4 Hz is a running cadence without running's impact).
    @Test func theBoardWavedInAHandIsNotAWalk() throws {
        let trace = try Recordings.xio()
        let segments = Self.segments(trace.samples)
        let first = trace.samples[0].timestamp
        let calls = Self.perSecond(segments, first: first, seconds: Int(trace.duration))
        #expect(calls[1..<10].allSatisfy { $0 == .stationary })
        #expect(calls[112..<134].allSatisfy { $0 == .stationary })
        #expect(!calls.contains(.running) && !calls.contains(.walking) && !calls.contains(.cycling))
    }

    // MARK: Robustness

    /// The same jog at 200 Hz (interpolated) and with ±4 ms of timestamp jitter reads the same.
    @Test(.needsSharedData(Recordings.motionSenseFolder)) func rateAndJitterDoNotChangeTheCall() throws {
        let jog = try Self.motionSense("jog_16_sub_1")
        var fast: [MotionSample] = []
        for (a, b) in zip(jog.samples, jog.samples.dropFirst()) {
            for k in 0..<4 {
                let f = Double(k) / 4
                fast.append(MotionSample(timestamp: a.timestamp + (b.timestamp - a.timestamp) * f,
                                         acceleration: a.acceleration + (b.acceleration - a.acceleration) * f))
            }
        }
        var random = SplitMix64(seed: 17)
        let jittered = jog.samples.map { s -> MotionSample in
            var s = s
            s.timestamp += (random.nextUnit() - 0.5) * 0.008
            return s
        }
        let seconds = Int(jog.duration)
        let first = jog.samples[0].timestamp
        for variant in [fast, jittered] {
            let calls = Self.perSecond(Self.segments(variant), first: first, seconds: seconds)
            #expect(Double(calls.filter { $0 == .running }.count) / Double(seconds) >= 0.9)
        }
    }

    /// NaN and infinite samples are dropped and counted, time going backwards too, and a 2 s gap
    /// restarts the analysis: a new segment begins where the samples resume. Nothing crashes.
    @Test(.needsSharedData(Recordings.motionSenseFolder)) func nanGapsAndReversedTimeAreSurvived() throws {
        let jog = try Self.motionSense("jog_16_sub_2")
        var samples: [MotionSample] = []
        for (i, s) in jog.samples.enumerated() {
            var s = s
            if s.timestamp - jog.samples[0].timestamp > 12 { s.timestamp += 2 }   // a 2 s gap at 12 s
            if i % 37 == 0 { s.acceleration.y = .nan }
            if i % 101 == 0 { s.timestamp = .infinity }
            samples.append(s)
            if i % 53 == 0 { samples.append(MotionSample(timestamp: s.timestamp - 1, acceleration: s.acceleration)) }
        }
        var classifier = MotionActivityClassifier()
        for s in samples { classifier.push(s) }
        #expect(classifier.rejectedSamples >= jog.samples.count / 37 + jog.samples.count / 53)
        #expect(classifier.gapRestarts == 1)
        let segments = classifier.allSegments
        let first = jog.samples[0].timestamp
        // Running before the gap, unknown from it, running again within 6 s of it.
        #expect(segments.contains { $0.kind == .running && $0.end <= first + 12.1 })
        let after = try #require(segments.first { $0.kind == .running && $0.start > first + 13 })
        #expect(after.start - (first + 14) < 6)
        // The first window after the gap dates its call from the restart.
        #expect(segments.contains { abs($0.start - (first + 14)) < 0.1 })
        // Only gaps, never overlaps, between consecutive segments.
        for (a, b) in zip(segments, segments.dropFirst()) { #expect(a.end <= b.start + 1e-9) }
    }

    /// One sample stamped far in the future (a clock glitch) would hold every later sample back:
    /// once the stream has stayed behind for longer than a gap, the classifier starts again on it.
    @Test func aFarFutureTimestampDoesNotStopTheAnalysis() throws {
        let trace = try Recordings.xio()
        var samples = Array(trace.samples.prefix(3000))
        samples.insert(MotionSample(timestamp: 1e6, acceleration: Vector3(0, 0, -1)), at: 1000)
        var classifier = MotionActivityClassifier()
        for s in samples { classifier.push(s) }
        #expect(classifier.gapRestarts == 2)                       // to the outlier, and back
        #expect(classifier.lastSampleTime == samples.last!.timestamp)
        // Windows are cut again up to the end.
        #expect(try #require(classifier.latestWindow).end > samples.last!.timestamp - 1.5)
        #expect(classifier.allSegments.last!.end == samples.last!.timestamp)
    }

    @Test func noSamplesAndAllNaNGiveNoSegmentsAndNoCrash() {
        var classifier = MotionActivityClassifier()
        #expect(classifier.allSegments.isEmpty)
        for i in 0..<500 { classifier.push(MotionSample(timestamp: Double(i) / 100, acceleration: Vector3(.nan, 0, 0))) }
        #expect(classifier.allSegments.isEmpty)
        #expect(classifier.rejectedSamples == 500)
        #expect(classifier.current.unknown)
    }

    /// `tiltkit activity --json`'s lines: exactly the keys start, end, activity and confidence.
    @Test func jsonLinesHaveExactlyTheFourKeys() throws {
        let trace = try Recordings.xio()
        let segments = Self.segments(trace.samples)
        #expect(segments.count >= 2)
        for segment in segments {
            let line = segment.jsonLine(origin: trace.samples[0].timestamp)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["start", "end", "activity", "confidence"])
            #expect(MotionActivityKind(rawValue: object["activity"] as? String ?? "") == segment.kind)
            #expect(["low", "medium", "high"].contains(object["confidence"] as? String ?? ""))
            #expect(abs((object["end"] as? Double ?? -1) - (segment.end - trace.samples[0].timestamp)) < 0.006)
        }
    }

    /// Steps every `period` s as |a| pulses peaking at `1 + impact` g, 8 s at 50 Hz: the last window's
    /// step rate and vote.
    static func pulsedWindow(period: Double, impact: Double) -> (rate: Double?, vote: MotionActivityKind?) {
        var classifier = MotionActivityClassifier()
        for i in 0..<400 {
            let t = Double(i) / 50
            let phase = t.truncatingRemainder(dividingBy: period) / 0.2   // a 0.2 s raised-cosine jolt
            let pulse = phase < 1 ? impact * 0.5 * (1 - cos(2 * .pi * phase)) : 0
            _ = classifier.push(MotionSample(timestamp: t, acceleration: Vector3(0, 0, -(0.95 + pulse))))
        }
        return (classifier.latestWindow?.stepRate, classifier.latestVote)
    }

    /// A repetition just over `strideSplitPeriod` is two steps where their impact is a run's, and one
    /// slow step where it is not (a waist-worn phone climbing stairs every 0.7 s read as a 2.9
    /// steps/s jog without a jog's impact, so as no gait, and the game's gestures ran on the stairs).
    @Test func aSlowStepIsNotTakenForAStrideWithoutARunsImpact() throws {
        let climbing = Self.pulsedWindow(period: 0.7, impact: 0.6)
        #expect(abs((climbing.rate ?? 0) - 1 / 0.7) < 0.1)
        #expect(climbing.vote == .walking)
        let running = Self.pulsedWindow(period: 0.7, impact: 1.6)
        #expect(abs((running.rate ?? 0) - 2 / 0.7) < 0.2)
        #expect(running.vote == .running)
        let strolling = Self.pulsedWindow(period: 1.1, impact: 0.8)   // a pocketed leg's stride: two steps
        #expect(abs((strolling.rate ?? 0) - 2 / 1.1) < 0.1)
        #expect(strolling.vote == .walking)
    }

    /// `b` appended after `a`, shifted so that it starts at `at` seconds after `a`'s first sample.
    static func splice(_ a: [MotionSample], _ b: [MotionSample], at: Double) -> [MotionSample] {
        guard let a0 = a.first?.timestamp, let b0 = b.first?.timestamp else { return a + b }
        let head = a.filter { $0.timestamp - a0 < at }
        return head + b.map { s in
            var s = s
            s.timestamp = s.timestamp - b0 + a0 + at
            return s
        }
    }
}
