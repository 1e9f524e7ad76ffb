import Foundation

/// Trigonometry-free helpers for the per-sample path: the filter runs at up to 1 kHz on many
/// devices and libm's sin/cos/atan2 would cost more than the rest of a step.
enum FastMath {
    /// The quaternion of a rotation by `rate·dt` (rad/s × s): exp(rate·dt/2).
    /// Taylor series up to θ⁶ for half-angles below 0.2 rad (error < 1e-10), libm beyond. The series
    /// are summed by Estrin's scheme (pairs of terms in parallel, then θ⁴ times the higher pair), and
    /// dt²/4 is formed beside |ω|²: this starts every sample's chain of dependent steps, so its length
    /// is what each sample waits for.
    @inline(__always)
    static func rotation(rate w: Vector3, dt: Double) -> Quaternion {
        let rateSquared = w.lengthSquared
        let halfDt = 0.5 * dt
        let theta2 = rateSquared * (halfDt * halfDt)
        let c: Double, s: Double
        if theta2 < 0.04 {
            let theta4 = theta2 * theta2
            c = (1 - 0.5 * theta2) + theta4 * (1.0 / 24 - theta2 * (1.0 / 720))
            s = halfDt * ((1 - theta2 * (1.0 / 6)) + theta4 * (1.0 / 120 - theta2 * (1.0 / 5040)))
        } else {
            let rate = rateSquared.squareRoot()
            c = cos(rate * halfDt)
            s = sin(rate * halfDt) / rate
        }
        return Quaternion(w: c, x: s * w.x, y: s * w.y, z: s * w.z)
    }

    /// Hamilton product a ⊗ b, always inlined (the per-sample path multiplies several).
    @inline(__always)
    static func product(_ a: Quaternion, _ b: Quaternion) -> Quaternion {
        Quaternion(w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                   x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// r ⊗ q for a rotation r about the vertical (r.x = r.y = 0): the Hamilton product without its
    /// zero terms (the same values, half the arithmetic).
    @inline(__always)
    static func product(aboutVertical r: Quaternion, _ q: Quaternion) -> Quaternion {
        Quaternion(w: r.w * q.w - r.z * q.z, x: r.w * q.x - r.z * q.y,
                   y: r.w * q.y + r.z * q.x, z: r.w * q.z + r.z * q.w)
    }

    /// q ⊗ v ⊗ q* for a unit quaternion, always inlined: v + 2w(u × v) + 2u × (u × v).
    @inline(__always)
    static func rotate(_ q: Quaternion, _ v: Vector3) -> Vector3 {
        let tx = 2 * (q.y * v.z - q.z * v.y)
        let ty = 2 * (q.z * v.x - q.x * v.z)
        let tz = 2 * (q.x * v.y - q.y * v.x)
        return Vector3(v.x + q.w * tx + (q.y * tz - q.z * ty),
                       v.y + q.w * ty + (q.z * tx - q.x * tz),
                       v.z + q.w * tz + (q.x * ty - q.y * tx))
    }

    /// atan2(y, x) in radians, −π...π, within 1e-5 rad: an odd minimax polynomial for atan on
    /// [0, 1] (Abramowitz & Stegun 4.4.49 form, coefficients from Hastings, "Approximations for
    /// Digital Computers", 1955) with octant reduction.
    @inline(__always)
    static func atan2(_ y: Double, _ x: Double) -> Double {
        Double(signOf: y, magnitudeOf: atan2Magnitude(y, x))
    }

    /// |atan2(y, x)|, 0...π. Selects rather than branches (the per-sample heading turns through
    /// octant boundaries unpredictably).
    @inline(__always)
    static func atan2Magnitude(_ y: Double, _ x: Double) -> Double {
        let ax = abs(x), ay = abs(y)
        let r = atanOfRatio(min(ax, ay) / max(max(ax, ay), .leastNormalMagnitude))
        let firstQuadrant = ay > ax ? .pi / 2 - r : r
        return x < 0 ? .pi - firstQuadrant : firstQuadrant
    }

    /// atan(t) for t in 0...1, radians. Estrin's scheme: half the dependency chain of Horner's.
    @inline(__always)
    static func atanOfRatio(_ t: Double) -> Double {
        let t2 = t * t, t4 = t2 * t2
        let low = 0.99997726 + t2 * -0.33262347
        let middle = 0.19354346 + t2 * -0.11643287
        let high = 0.05265332 + t2 * -0.01172120
        return t * (low + t4 * (middle + t4 * high))
    }

    /// Renormalises a quaternion that is already within ~1e-3 of unit length, without a square
    /// root: one Newton step of 1/√n around 1 (error O((n−1)²)); a full division otherwise.
    @inline(__always)
    static func renormalized(_ q: Quaternion) -> Quaternion {
        let n = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z
        let scale = abs(n - 1) < 1e-3 ? 0.5 * (3 - n) : 1 / n.squareRoot()
        return Quaternion(w: q.w * scale, x: q.x * scale, y: q.y * scale, z: q.z * scale)
    }
}
