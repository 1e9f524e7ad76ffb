/// Small dense least squares by the normal equations: the magnetometer calibration's sphere and
/// ellipsoid fits (four and six unknowns), and `GyroErrorFit`'s twelve. Each reading's row is
/// written into one reused buffer and the normal matrix is one flat array: a refit (every 0.5 s, up
/// to 416 readings, two or three fits) allocated an array per row and per matrix row before, which
/// cost more per sample than the fusion itself.
public enum LeastSquares {
    /// The unknowns x minimising Σ (row·x − y)², where `makeRow` writes a reading's row of `n`
    /// coefficients and returns its y; nil with fewer readings than unknowns or a singular system.
    public static func solve<Reading>(_ readings: [Reading], unknowns n: Int,
                                      row makeRow: (Reading, inout [Double]) -> Double) -> [Double]? {
        guard n > 0, readings.count >= n else { return nil }
        let width = n + 1  // [A^T A | A^T y], row-major
        var m = [Double](repeating: 0, count: n * width)
        var row = [Double](repeating: 0, count: n)
        for reading in readings {
            let y = makeRow(reading, &row)
            for i in 0..<n {
                for j in 0..<n { m[i * width + j] += row[i] * row[j] }
                m[i * width + n] += row[i] * y
            }
        }
        let scale = (0..<n).map { m[$0 * width + $0] }.max() ?? 0
        for c in 0..<n {  // Gauss–Jordan with partial pivoting
            let p = (c..<n).max { abs(m[$0 * width + c]) < abs(m[$1 * width + c]) }!
            guard abs(m[p * width + c]) > 1e-12 * max(scale, 1e-300) else { return nil }
            if p != c { for k in 0...n { m.swapAt(c * width + k, p * width + k) } }
            for r in 0..<n where r != c {
                let f = m[r * width + c] / m[c * width + c]
                if f != 0 { for k in c...n { m[r * width + k] -= f * m[c * width + k] } }
            }
        }
        let s = (0..<n).map { m[$0 * width + n] / m[$0 * width + $0] }
        return s.allSatisfy(\.isFinite) ? s : nil
    }
}
