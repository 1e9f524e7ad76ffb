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

    @Test("a step's second peak is not counted even when the budget has saved a step; no two counts closer than half a step")
    func secondPeakOfAStep() {
        // A slow walk, 0.76 s steps; every fifth step's heel strike is lost, and each step after a
        // lost one shows its push-off 0.32 s after its heel strike (the budget then holds 1.5).
        var lock = CadenceLock(longestStep: 0.9, stridePeaks: 2)
        var detections: [Double] = []
        for step in 0..<60 {
            let t = Double(step) * 0.76
            if step % 5 == 4 { continue }
            detections.append(t)
            if step % 5 == 0 && step > 0 { detections.append(t + 0.32) }
        }
        let counted = detections.filter { lock.admits($0, period: 0.76) }
        let closest = zip(counted.dropFirst(9), counted.dropFirst(10)).map { $1 - $0 }.min() ?? 0
        #expect(closest >= 0.38, "two counted \(closest) s apart: half of 0.76 s")
        #expect(counted.count == 48 + 1, "the 48 heel strikes, and the first push-off before the lock knew the rhythm")
    }
}
