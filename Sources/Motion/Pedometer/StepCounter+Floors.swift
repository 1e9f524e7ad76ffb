/// Which floors count: Core Motion counts "the approximate number of floors ascended by walking"
/// (`CMPedometerData.floorsAscended`), so a lift or a drive up a hill must add none, though the
/// pressure changes just as much.
extension StepCounter {
    /// Whether `floor` was climbed or descended on foot: steps at a walking cadence (each within the
    /// detector's `maximumStepInterval` of the next) cover at least `walkedFloorShare` of its span.
    ///
    /// Why over half of the span: the span is the time the floor's height took
    /// (`FloorCounter.lastChangeStart`), a few seconds in a lift, ten or more on the stairs. A climber
    /// steps through nearly all of it, missing only its ends (the altitude's smoothing, a pause on a
    /// landing); a rider steps through none of it: walking in and out falls outside it, and a shuffle
    /// in the car is no walk (the detector counts nothing short of `minimumWalkSteps`). On the
    /// change-floor-detection recordings 0.8 lost 5 of the 26 floors walked down and 1 of 30 up; 0.5 none.
    func isWalked(_ floor: FloorChange) -> Bool {
        // No change shows in less than the altitude's smoothing time, so no span is shorter.
        let start = min(floor.start, floor.time - max(floors.settings.smoothing, 0.1))
        return walkingTime(from: start, to: floor.time) >= walkedFloorShare * (floor.time - start)
    }

    /// Seconds of [`t0`, `t1`] that lie between two counted steps no more than `maximumStepInterval`
    /// apart. Steps are counted a little after they happen, so a floor completed just now may be
    /// found walked only once the detector has caught up (by the next step, or `finish`).
    func walkingTime(from t0: Double, to t1: Double) -> Double {
        let longest = detector.settings.maximumStepInterval
        var j = max(0, lowerBound(t0) - 1)
        var total = 0.0
        while j + 1 < stepTimes.count, stepTimes[j] < t1 {
            let a = stepTimes[j], b = stepTimes[j + 1]
            if b - a <= longest { total += max(0, min(b, t1) - max(a, t0)) }
            j += 1
        }
        return total
    }
}
