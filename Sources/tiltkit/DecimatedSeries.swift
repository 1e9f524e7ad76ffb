/// A plot's points from a run of any length in bounded memory: every point is kept until
/// `capacity` is reached, then every other one is dropped and only every second point after is
/// taken, and so on, so the points stay evenly spread over the whole run (at most `capacity`; a
/// chart has fewer pixels than that across).
///
///     var series = DecimatedSeries(capacity: 4096)
///     for (t, v) in run { series.append((t, v)) }
///     chart.series = [.init(name: "v", points: series.points)]
struct DecimatedSeries {
    let capacity: Int
    private(set) var points: [(Double, Double)] = []
    /// Points offered so far; those whose index is a multiple of `stride` are kept.
    private var offered = 0
    private var stride = 1

    init(capacity: Int = 4096) {
        precondition(capacity >= 2)
        self.capacity = capacity
    }

    mutating func append(_ point: (Double, Double)) {
        defer { offered += 1 }
        guard offered % stride == 0 else { return }
        points.append(point)
        if points.count == capacity {
            // The even positions are the offered indices that are multiples of the doubled stride.
            points = Swift.stride(from: 0, to: points.count, by: 2).map { points[$0] }
            stride *= 2
        }
    }
}
