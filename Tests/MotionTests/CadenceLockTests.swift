import Testing
@testable import Motion

@Suite("CadenceLock: a walk's count held to the cadence its period gives")
struct CadenceLockTests {
    /// How many of `peaksPerStride` evenly spaced detections per 1.1 s stride are admitted over 30
    /// strides, with the autocorrelation reporting `period`.
    private func admitted(peaksPerStride: Int, period: Double) -> Int {
        var lock = CadenceLock(longestStep: 0.9, stridePeaks: 2)
        let spacing = 1.1 / Double(peaksPerStride)
        return (0..<(30 * peaksPerStride)).filter { lock.admits(Double($0) * spacing, period: period) }.count
    }

    @Test("three or four peaks a stride count as two steps; one or two peaks a period all count")
    func holdsOnlyWhenPeaksOutnumberSteps() {
        // the first eight detections count before the lock has eight intervals to judge by
        #expect(abs(admitted(peaksPerStride: 4, period: 1.1) - 60) <= 6)
        #expect(abs(admitted(peaksPerStride: 3, period: 1.1) - 60) <= 6)
        #expect(admitted(peaksPerStride: 2, period: 1.1) == 60, "a stride's two steps each peaking: all count")
        #expect(admitted(peaksPerStride: 2, period: 0.55) == 60, "one peak a step: all count")
    }

    @Test("a period longer than the longest step is a stride even when its peaks come three to a stride")
    func longPeriodIsAStride() {
        var lock = CadenceLock(longestStep: 0.9, stridePeaks: 2)
        for i in 0..<9 { _ = lock.admits(Double(i) * 0.5, period: 1.0) }
        #expect(lock.stepPeriod(1.0) == 0.5, "1 s is a stride: two steps")
        #expect(lock.stepPeriod(0.5) == 0.5, "0.5 s, one detection each: a step")
        #expect(lock.peaksPerStep(0.5) == 1)
    }

    @Test("detections once a stride read as one peak in two steps")
    func oncePerStride() {
        var lock = CadenceLock(longestStep: 0.9, stridePeaks: 2)
        for i in 0..<9 { _ = lock.admits(Double(i) * 0.74, period: 0.37) }
        let perStep = lock.peaksPerStep(0.37) ?? .infinity
        #expect(perStep <= CadenceLock.oncePerStride, "\(perStep) detections a step")
    }

    @Test("without a period (not periodic) nothing is held back")
    func noPeriodNoLock() {
        var lock = CadenceLock(longestStep: 0.9, stridePeaks: 2)
        #expect((0..<40).allSatisfy { lock.admits(Double($0) * 0.3, period: nil) })
        #expect(lock.stepPeriod(nil) == nil)
    }
}
