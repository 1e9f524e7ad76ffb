import Foundation

/// The World Magnetic Model: the Earth's main field as a degree-12 spherical-harmonic series with
/// linear secular variation, evaluated as in the WMM technical report (Chulliat et al., "The US/UK
/// World Magnetic Model for 2025-2030", NOAA NCEI, section 1.2, equations 7-19).
///
///     let field = WorldMagneticModel.wmm2025.field(latitude: 48.2, longitude: 16.4,
///                                                  altitude: 0.2, decimalYear: 2026.5)
///     field.declination   // degrees, east positive
public struct WorldMagneticModel: Sendable {
    /// One Gauss coefficient pair of degree `n`, order `m`: main field (nT) at the epoch and its
    /// secular variation (nT/year).
    public struct Coefficient: Sendable {
        public var n: Int, m: Int
        public var g: Double, h: Double
        public var gDot: Double, hDot: Double

        public init(_ n: Int, _ m: Int, _ g: Double, _ h: Double, _ gDot: Double, _ hDot: Double) {
            self.n = n; self.m = m; self.g = g; self.h = h; self.gDot = gDot; self.hDot = hDot
        }
    }

    public let name: String
    /// Decimal year the coefficients refer to.
    public let epoch: Double
    /// First decimal year the model no longer covers.
    public let validUntil: Double
    public let coefficients: [Coefficient]
    public let maximumDegree: Int

    public init(name: String, epoch: Double, validUntil: Double, coefficients: [Coefficient]) {
        self.name = name
        self.epoch = epoch
        self.validUntil = validUntil
        self.coefficients = coefficients
        self.maximumDegree = coefficients.map(\.n).max() ?? 0
    }

    /// True if `decimalYear` is inside the model's five-year span (outside it the field is extrapolated).
    public func covers(decimalYear: Double) -> Bool { decimalYear >= epoch && decimalYear < validUntil }

    // WGS-84 ellipsoid (WMM report, table 1) and the geomagnetic reference radius.
    private static let semiMajorAxis = 6378.137  // km
    private static let flattening = 1 / 298.257223563
    private static let referenceRadius = 6371.2  // km

    /// The field at a geodetic position: latitude and longitude in degrees, altitude in km above the
    /// WGS-84 ellipsoid. At the geographic poles (where declination is undefined) latitude is moved
    /// a millionth of a degree toward the equator so the result stays finite.
    public func field(latitude: Double, longitude: Double, altitude: Double, decimalYear: Double) -> GeomagneticField {
        let limit = 90 - 1e-6
        let phi = Swift.max(-limit, Swift.min(limit, latitude)) * .pi / 180
        let lambda = longitude * .pi / 180

        // Geodetic → geocentric spherical (report eq. 7-8).
        let e2 = Self.flattening * (2 - Self.flattening)
        let primeVertical = Self.semiMajorAxis / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        let p = (primeVertical + altitude) * cos(phi)
        let z = (primeVertical * (1 - e2) + altitude) * sin(phi)
        let r = (p * p + z * z).squareRoot()
        let phiPrime = asin(z / r)

        let legendre = SchmidtLegendre(degree: maximumDegree, colatitudeCosine: sin(phiPrime),
                                       colatitudeSine: cos(phiPrime))
        let dt = decimalYear - epoch
        let ratio = Self.referenceRadius / r
        var xPrime = 0.0, yPrime = 0.0, zPrime = 0.0
        for c in coefficients {
            let g = c.g + dt * c.gDot  // report eq. 9
            let h = c.h + dt * c.hDot
            let m = Double(c.m)
            let cosML = cos(m * lambda), sinML = sin(m * lambda)
            let scale = pow(ratio, Double(c.n + 2))
            let pnm = legendre.value(c.n, c.m)
            // Report eq. 10-12; d/dφ' = −d/dθ for the colatitude θ.
            xPrime += scale * (g * cosML + h * sinML) * legendre.colatitudeDerivative(c.n, c.m)
            yPrime += scale * m * (g * sinML - h * cosML) * pnm
            zPrime -= Double(c.n + 1) * scale * (g * cosML + h * sinML) * pnm
        }
        yPrime /= cos(phiPrime)

        // Rotate from the geocentric to the geodetic frame (report eq. 17).
        let tilt = phiPrime - phi
        let north = xPrime * cos(tilt) - zPrime * sin(tilt)
        let down = xPrime * sin(tilt) + zPrime * cos(tilt)
        return GeomagneticField(north: north, east: yPrime, down: down)
    }
}

/// Schmidt semi-normalised associated Legendre functions P̆ₙᵐ(cos θ) and their θ-derivatives,
/// by the standard three-term recursions (no Condon-Shortley phase, as the WMM uses).
struct SchmidtLegendre {
    private var p: [Double]
    private var dp: [Double]
    private let degree: Int

    private static func index(_ n: Int, _ m: Int) -> Int { n * (n + 1) / 2 + m }

    /// `colatitudeCosine` = sin φ' and `colatitudeSine` = cos φ' for the geocentric latitude φ'.
    init(degree: Int, colatitudeCosine x: Double, colatitudeSine s: Double) {
        self.degree = degree
        let count = Self.index(degree, degree) + 1
        p = Array(repeating: 0, count: count)
        dp = Array(repeating: 0, count: count)
        p[0] = 1
        guard degree >= 1 else { return }
        for n in 1...degree {
            // Sectoral: P̆ₙⁿ = √((2n−1)/2n) · sin θ · P̆ₙ₋₁ⁿ⁻¹ (P̆₁¹ = sin θ).
            let k = n == 1 ? 1 : ((2 * Double(n) - 1) / (2 * Double(n))).squareRoot()
            let previous = Self.index(n - 1, n - 1)
            p[Self.index(n, n)] = k * s * p[previous]
            dp[Self.index(n, n)] = k * (x * p[previous] + s * dp[previous])
            // P̆ₙᵐ = ((2n−1) cos θ P̆ₙ₋₁ᵐ − √((n−1)²−m²) P̆ₙ₋₂ᵐ) / √(n²−m²), for m < n.
            for m in 0..<n {
                let n1 = Self.index(n - 1, m)
                let a = 2 * Double(n) - 1
                let b = n - 2 >= m ? (Double((n - 1) * (n - 1) - m * m)).squareRoot() : 0
                let n2p = n - 2 >= m ? p[Self.index(n - 2, m)] : 0
                let n2dp = n - 2 >= m ? dp[Self.index(n - 2, m)] : 0
                let d = (Double(n * n - m * m)).squareRoot()
                p[Self.index(n, m)] = (a * x * p[n1] - b * n2p) / d
                dp[Self.index(n, m)] = (a * (x * dp[n1] - s * p[n1]) - b * n2dp) / d
            }
        }
    }

    func value(_ n: Int, _ m: Int) -> Double { p[Self.index(n, m)] }
    /// dP̆ₙᵐ/dθ.
    func colatitudeDerivative(_ n: Int, _ m: Int) -> Double { dp[Self.index(n, m)] }
}
