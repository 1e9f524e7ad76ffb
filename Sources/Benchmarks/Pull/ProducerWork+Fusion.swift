import Motion

extension ProducerWork {
    /// Six-axis fusion (the motion manager's default estimator) of a real recording, one sample
    /// per publish, cycling through the recording. Sample times continue across passes at the
    /// recording's own period so the estimator never sees time go back.
    public static func fusion(of samples: [MotionSample], name: String) throws(BenchError) -> ProducerWork {
        guard samples.count >= 2 else { throw .missingData("\(name): too few samples to replay") }
        let period = (samples[samples.count - 1].timestamp - samples[0].timestamp) / Double(samples.count - 1)
        return ProducerWork(name: "6-axis fusion of \(name) (\(samples.count) samples, cycled), one sample per publish") {
            var estimator = DeviceMotionEstimatorKind.fusion.make(frame: .xArbitraryZVertical)
            var index = 0
            var pass = 0.0
            var last = SequencedMotion.empty.motion
            let passLength = period * Double(samples.count)
            return { _ in
                var sample = samples[index]
                sample.timestamp = (sample.timestamp - samples[0].timestamp) + pass * passLength
                index += 1
                if index == samples.count { index = 0; pass += 1 }
                if let motion = estimator.update(sample) { last = motion }
                return last
            }
        }
    }
}
