extension RandomAccessCollection where Index == Int {
    /// The first index whose element fails `belongsBefore`, for a collection partitioned by it
    /// (binary search): `times.partitionPoint { $0 < t }` is the first time at or after `t`.
    func partitionPoint(_ belongsBefore: (Element) -> Bool) -> Int {
        var lo = startIndex, hi = endIndex
        while lo < hi {
            let mid = (lo + hi) / 2
            if belongsBefore(self[mid]) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
