import Motion
import Synchronization

/// Runs an `EstimatorComparison` on every raw sample the scene's source delivers (observed beside
/// device motion, on the input's queue), and hands the latest frame to the render loop.
public final class ComparisonFeed: Sendable {
    private let comparison: Mutex<EstimatorComparison>

    public init(cutoffFrequency: Double = 2) {
        comparison = Mutex(EstimatorComparison(cutoffFrequency: cutoffFrequency))
    }

    public func add(_ sample: MotionSample) { comparison.withLock { _ = $0.update(sample) } }

    /// The latest frame both estimators accepted.
    public var latest: ComparisonFrame? { comparison.withLock { $0.latest } }

    public var cutoffFrequency: Double {
        get { comparison.withLock { $0.cutoffFrequency } }
        set { comparison.withLock { $0.cutoffFrequency = newValue } }
    }
}
