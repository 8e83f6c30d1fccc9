#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Geodesics (shortest paths) on an ellipsoid of revolution: the inverse problem (distance and azimuths
/// between two points) and the direct problem (the point reached from a start, an azimuth and a distance).
///
/// Implemented from the equations of C. F. F. Karney (2013), "Algorithms for geodesics", Journal of
/// Geodesy 87:43–55 (series to order 6 in the third flattening), not from any library's code:
/// - the geodesic is mapped onto an auxiliary sphere, where the distance and longitude integrals are
///   evaluated by Fourier series (see `GeodesicSeries`);
/// - the inverse problem is solved by Newton's method on the azimuth at the first point, started from the
///   spherical solution (with the mean `w̄` scaling of the longitude for short lines) or, for nearly
///   antipodal points, from the solution of the astroid equation; Newton steps are safeguarded by a
///   bracket on the azimuth and fall back to bisection, so it converges for every pair of points.
///
/// Accuracy (WGS-84, measured by `GeodesicTests` on 200 pairs against Karney's own GeographicLib 2.1):
/// distances agree to 3.7 nm at worst and azimuths to 2.3e−11° (lines over 10 m; for shorter lines the
/// azimuth is as precise as the coordinates allow), at every distance, including coincident points,
/// poles, the equator, meridians and nearly antipodal points; the direct problem lands within 8 nm.
///
/// Angles are in degrees; azimuths clockwise from true north in `0..<360`; lengths in metres. Latitudes
/// are clamped to ±90°; any longitude is accepted (it is reduced modulo 360°). Non-finite input gives NaN
/// results, never a trap.
public struct Geodesic: Sendable {
    /// The ellipsoid the geodesics lie on.
    public let ellipsoid: Ellipsoid

    @usableFromInline let a: Double
    @usableFromInline let b: Double
    @usableFromInline let f: Double
    /// `1 − f`.
    @usableFromInline let f1: Double
    @usableFromInline let e2: Double
    @usableFromInline let ep2: Double
    @usableFromInline let n: Double
    @usableFromInline let longitudeSeries: LongitudeSeries

    /// Prepares the geodesic computations for an ellipsoid (about 30 floating-point operations).
    ///
    /// - Parameter ellipsoid: the ellipsoid; the series are accurate to round-off for `|f| ≤ 0.01`.
    public init(ellipsoid: Ellipsoid) {
        self.ellipsoid = ellipsoid
        a = ellipsoid.semiMajorAxisMetres
        b = ellipsoid.semiMinorAxisMetres
        f = ellipsoid.flattening
        f1 = 1 - ellipsoid.flattening
        e2 = ellipsoid.eccentricitySquared
        ep2 = ellipsoid.secondEccentricitySquared
        n = ellipsoid.thirdFlattening
        longitudeSeries = LongitudeSeries(thirdFlattening: ellipsoid.thirdFlattening)
    }

    /// Geodesics on the WGS-84 ellipsoid, the datum of GNSS fixes.
    public static let wgs84 = Geodesic(ellipsoid: .wgs84)

    // MARK: - Tolerances

    /// Machine epsilon, 2⁻⁵².
    private static let epsilon = Double.ulpOfOne
    /// Stands in for zero where a zero would divide: `cos β` at the poles (so that the azimuth there
    /// follows the given longitude, as the limit approaching the pole along that meridian), `sin α₁` at the
    /// ends of the initial bracket. `√(least normal)` ≈ 1.5e−154: its square is still a normal number.
    private static let tiny = Double.leastNormalMagnitude.squareRoot()
    /// Newton iterations allowed before every step is a bisection of the bracket.
    private static let newtonIterations = 20
    /// Total iterations (Newton then bisection): 20 + 53 halvings of the bracket + margin.
    private static let maximumIterations = 83
    /// Below this arc (radians on the auxiliary sphere) the scaled great circle is the solution to
    /// round-off: its relative error O(f σ²) is then under 1 % of an ulp. 3.6e−8 rad (0.23 m) for WGS-84.
    private var shortLineArc: Double { 0.1 * (2 * Geodesic.epsilon / Swift.max(0.001, Swift.abs(f))).squareRoot() }

    // MARK: - Inverse problem

    /// Solves the inverse geodesic problem: the shortest distance between two points and the azimuths of
    /// the geodesic at both ends.
    ///
    /// - Parameters:
    ///   - start: the first point, latitude and longitude in degrees (WGS-84 for ``wgs84``).
    ///   - end: the second point, in degrees.
    /// - Returns: the distance in metres and the initial and final azimuths. For coincident points the
    ///   distance is 0 and the azimuths are those of the meridian through the points (north). When several
    ///   shortest geodesics exist (antipodal points, both poles), one of them is returned.
    public func inverse(
        from start: (latitude: Double, longitude: Double),
        to end: (latitude: Double, longitude: Double)
    ) -> GeodesicInverse {
        guard start.latitude.isFinite, start.longitude.isFinite, end.latitude.isFinite, end.longitude.isFinite
        else {
            return GeodesicInverse(distanceMetres: .nan, initialAzimuthDegrees: .nan, finalAzimuthDegrees: .nan)
        }
        // Reduce to the canonical configuration of the paper: φ₁ ≤ 0, φ₁ ≤ φ₂ ≤ −φ₁, 0 ≤ λ₁₂ ≤ 180°,
        // remembering the reflections and the swap to undo them on the azimuths.
        var lon12 = GeoAngle.difference(from: start.longitude, to: end.longitude)
        let lonSign: Double = lon12.sign == .minus ? -1 : 1
        lon12 = GeoAngle.rounded(degrees: lon12 * lonSign)
        var lat1 = GeoAngle.rounded(degrees: Swift.min(90, Swift.max(-90, start.latitude)))
        var lat2 = GeoAngle.rounded(degrees: Swift.min(90, Swift.max(-90, end.latitude)))
        let swapped = Swift.abs(lat1) < Swift.abs(lat2)
        if swapped { Swift.swap(&lat1, &lat2) }
        let latSign: Double = lat1 < 0 ? 1 : -1
        lat1 *= latSign
        lat2 *= latSign

        let lam12 = lon12 * GeoAngle.radiansPerDegree
        let (slam12, clam12) = GeoAngle.sinCos(degrees: lon12)

        let p1 = reducedLatitude(lat1)
        let p2 = reducedLatitude(lat2)
        let sbet1 = p1.sin, cbet1 = p1.cos
        let sbet2 = p2.sin, cbet2 = p2.cos
        // √(1 + e′² sin²β) = √(1 + k² sin²σ) at each point.
        let dn1 = (1 + ep2 * sbet1 * sbet1).squareRoot()
        let dn2 = (1 + ep2 * sbet2 * sbet2).squareRoot()

        var salp1 = 0.0, calp1 = 1.0, salp2 = 0.0, calp2 = 1.0
        var s12 = 0.0
        var solved = false

        // Meridional geodesics (and any line from the pole) are solved directly: α₁ = λ₁₂, α₂ = 0.
        if lat1 == -90 || slam12 == 0 {
            salp1 = slam12; calp1 = clam12
            salp2 = 0; calp2 = 1
            var ssig1 = sbet1, csig1 = calp1 * cbet1
            var ssig2 = sbet2, csig2 = calp2 * cbet2
            normalize(&ssig1, &csig1)
            normalize(&ssig2, &csig2)
            let sig12 = atan2(nonNegative(csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
            let l = lengths(
                eps: GeodesicSeries.epsilon(kSquared: ep2),  // cos α₀ = 1 on a meridian
                sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1, ssig2: ssig2, csig2: csig2, dn2: dn2)
            // Past the conjugate point (m₁₂ < 0) the meridian is no longer the shortest path (nearly
            // antipodal points close to the equator): leave those to Newton's method.
            if sig12 < 1 || l.m12b >= 0 {
                s12 = sig12 < 3 * Geodesic.tiny ? 0 : b * l.s12b
                solved = true
            }
        }

        // Equatorial geodesics: along the equator while it is the shortest path (λ₁₂ ≤ (1 − f)·180°);
        // beyond that the shortest path leaves the equator and the general case handles it.
        if !solved && sbet1 == 0 && (f <= 0 || 180 - lon12 >= f * 180) {
            salp1 = 1; calp1 = 0
            salp2 = 1; calp2 = 0
            s12 = a * lam12
            solved = true
        }

        var guess = StartingGuess(salp1: 1, calp1: 0)
        if !solved {
            guess = startingGuess(
                sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2, lam12: lam12, lon12: lon12,
                slam12: slam12, clam12: clam12)
            if let short = guess.shortLine {
                salp1 = guess.salp1; calp1 = guess.calp1
                salp2 = short.salp2; calp2 = short.calp2
                s12 = short.s12
                solved = true
            }
        }

        if !solved {
            salp1 = guess.salp1; calp1 = guess.calp1
            // Bracket [α_a, α_b] ⊂ (0°, 180°) on α₁, compared through cot α₁ (decreasing in α₁). Between two
            // points on the equator the solution heads south first (α₁ ≥ 90°): the northward half is the
            // mirror image, and there point 2 would be reached heading south, outside the canonical form.
            var salp1a = Geodesic.tiny, calp1a = 1.0
            if sbet1 == 0 { salp1a = 1; calp1a = 0 }
            var salp1b = Geodesic.tiny, calp1b = -1.0
            var finalPass = false
            var state = evaluate(
                sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12)
            for iteration in 0..<Geodesic.maximumIterations {
                let v = state.v
                if finalPass || Swift.abs(v) <= Geodesic.epsilon { break }
                // After |v| reaches a few ulps, one more Newton step squeezes out the last bits.
                if Swift.abs(v) <= 16 * Geodesic.epsilon { finalPass = true }
                // Shrink the bracket (λ₁₂ grows with α₁ on (0, π)) when α₁ lies inside it, as every Newton or
                // bisection step does; only the starting guess could lie on its edge.
                if v > 0 && calp1 / salp1 > calp1b / salp1b {
                    salp1b = salp1; calp1b = calp1
                } else if v < 0 && calp1 / salp1 < calp1a / salp1a {
                    salp1a = salp1; calp1a = calp1
                }
                var stepped = false
                if iteration < Geodesic.newtonIterations && state.dv > 0 {
                    let dalp1 = -v / state.dv
                    if Swift.abs(dalp1) < .pi {
                        let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                        var ns = salp1 * cdalp1 + calp1 * sdalp1
                        var nc = calp1 * cdalp1 - salp1 * sdalp1
                        normalize(&ns, &nc)
                        // Accept the Newton step only strictly inside the bracket.
                        if ns > 0 && nc / ns < calp1a / salp1a && nc / ns > calp1b / salp1b {
                            salp1 = ns; calp1 = nc
                            stepped = true
                        }
                    }
                }
                if !stepped {
                    // Bisection: the sum of two unit vectors points halfway between them.
                    var ns = (salp1a + salp1b) / 2, nc = (calp1a + calp1b) / 2
                    normalize(&ns, &nc)
                    if ns == salp1 && nc == calp1 { break }  // the bracket has collapsed
                    salp1 = ns; calp1 = nc
                    finalPass = false
                }
                state = evaluate(
                    sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                    salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12)
            }
            salp2 = state.salp2; calp2 = state.calp2
            let l = lengths(
                eps: state.eps, sig12: state.sig12, ssig1: state.ssig1, csig1: state.csig1, dn1: dn1,
                ssig2: state.ssig2, csig2: state.csig2, dn2: dn2)
            s12 = b * l.s12b
        }

        // Undo the swap (reverse the direction of travel) and the reflections.
        // Swapping the points reverses the direction of travel (negating sines and cosines) and the sign
        // of the longitude difference (negating the sines again).
        if swapped {
            Swift.swap(&salp1, &salp2)
            Swift.swap(&calp1, &calp2)
        }
        let swapSign: Double = swapped ? -1 : 1
        salp1 *= lonSign; calp1 *= swapSign * latSign
        salp2 *= lonSign; calp2 *= swapSign * latSign
        return GeodesicInverse(
            distanceMetres: s12 < 0 ? 0 : s12 + 0.0,  // −0 and round-off below zero become 0
            initialAzimuthDegrees: GeoAngle.azimuth(degrees: GeoAngle.atan2Degrees(salp1, calp1)),
            finalAzimuthDegrees: GeoAngle.azimuth(degrees: GeoAngle.atan2Degrees(salp2, calp2)))
    }

    /// The geodesic distance in metres between two points (see ``inverse(from:to:)``).
    ///
    /// - Parameters:
    ///   - start: the first point, latitude and longitude in degrees.
    ///   - end: the second point, in degrees.
    public func distance(
        from start: (latitude: Double, longitude: Double),
        to end: (latitude: Double, longitude: Double)
    ) -> Double {
        inverse(from: start, to: end).distanceMetres
    }

    /// The length of one step of a track, metres: by the ellipsoid's radii of curvature when the step is short
    /// (``Ellipsoid/isShortStep(from:to:)``: ``Ellipsoid/shortStepLengthMetres(from:to:)``, one `cos`, within
    /// 10⁻⁷ of the geodesic), else the geodesic itself (``distance(from:to:)``). What a track's length on the
    /// ellipsoid sums (the smoother's distance, a truth's length in `truetrack bench`).
    ///
    /// - Parameters:
    ///   - start: the first point, latitude and longitude in degrees.
    ///   - end: the second point, in degrees.
    @inlinable
    public func stepLengthMetres(
        from start: (latitude: Double, longitude: Double),
        to end: (latitude: Double, longitude: Double)
    ) -> Double {
        ellipsoid.isShortStep(from: start, to: end)
            ? ellipsoid.shortStepLengthMetres(from: start, to: end) : distance(from: start, to: end)
    }

    // MARK: - Direct problem

    /// Solves the direct geodesic problem: the point reached by following the geodesic that leaves
    /// `start` at `azimuthDegrees` for `distanceMetres`.
    ///
    /// - Parameters:
    ///   - start: the start point, latitude and longitude in degrees.
    ///   - azimuthDegrees: the initial azimuth, degrees clockwise from true north (any value).
    ///   - distanceMetres: the distance along the geodesic in metres; negative goes backwards. Accurate to
    ///     round-off (nanometres) up to half the circumference and beyond; a geodesic that wraps around the
    ///     Earth many times loses about one digit per decade of revolutions.
    /// - Returns: the end point (longitude in −180…180) and the azimuth of travel there.
    public func destination(
        from start: (latitude: Double, longitude: Double),
        azimuthDegrees: Double,
        distanceMetres: Double
    ) -> GeodesicDestination {
        guard start.latitude.isFinite, start.longitude.isFinite, azimuthDegrees.isFinite, distanceMetres.isFinite
        else { return GeodesicDestination(latitude: .nan, longitude: .nan, finalAzimuthDegrees: .nan) }
        let lat1 = GeoAngle.rounded(degrees: Swift.min(90, Swift.max(-90, start.latitude)))
        let azi1 = GeoAngle.rounded(degrees: GeoAngle.normalized(degrees: azimuthDegrees))
        let (salp1, calp1) = GeoAngle.sinCos(degrees: azi1)
        let p1 = reducedLatitude(lat1)
        let sbet1 = p1.sin, cbet1 = p1.cos
        // Clairaut: sin α₀ = sin α₁ cos β₁ is constant along the geodesic.
        let salp0 = salp1 * cbet1
        let calp0 = (calp1 * calp1 + (salp1 * sbet1) * (salp1 * sbet1)).squareRoot()
        // σ₁ and ω₁: tan σ₁ = tan β₁ / cos α₁, tan ω₁ = sin α₀ tan σ₁ (atan2 handles α₁ = ±90°).
        // σ₁ = 0 for a start on the equator heading due east or west (atan2(0, 0) is not an angle).
        var ssig1 = sbet1, csig1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        normalize(&ssig1, &csig1)
        let somg1 = salp0 * ssig1, comg1 = csig1

        let eps = GeodesicSeries.epsilon(kSquared: ep2 * calp0 * calp0)
        let a1 = 1 + GeodesicSeries.a1Minus1(eps)
        let c1 = GeodesicSeries.c1(eps)
        // τ₁₂ = s₁₂ / (b A₁); τ₂ = τ₁ + τ₁₂ with τ₁ = σ₁ + B₁(σ₁); then σ₂ from the inverse series.
        let b11 = GeodesicSeries.sineSeries(c1, sin: ssig1, cos: csig1)
        let tau12 = distanceMetres / (b * a1)
        let stau12 = sin(tau12), ctau12 = cos(tau12)
        // τ₁ as an angle: rotate σ₁ by B₁(σ₁).
        let sb11 = sin(b11), cb11 = cos(b11)
        let stau1 = ssig1 * cb11 + csig1 * sb11, ctau1 = csig1 * cb11 - ssig1 * sb11
        let stau2 = stau1 * ctau12 + ctau1 * stau12, ctau2 = ctau1 * ctau12 - stau1 * stau12
        let b12 = GeodesicSeries.sineSeries(GeodesicSeries.c1Inverse(eps), sin: stau2, cos: ctau2)
        // σ₂ = τ₂ + B′₁(τ₂) and τ₁ = σ₁ + B₁(σ₁), so σ₁₂ = σ₂ − σ₁ = τ₁₂ + B₁(σ₁) + B′₁(τ₂).
        let sig12 = tau12 + b11 + b12
        let ssig12 = sin(sig12), csig12 = cos(sig12)
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        let csig2 = csig1 * csig12 - ssig1 * ssig12

        // Point 2 on the auxiliary sphere.
        let sbet2 = calp0 * ssig2
        var cbet2 = (salp0 * salp0 + (calp0 * csig2) * (calp0 * csig2)).squareRoot()
        if cbet2 == 0 { cbet2 = Geodesic.tiny }  // at a pole
        let salp2 = salp0, calp2 = calp0 * csig2
        let somg2 = salp0 * ssig2, comg2 = csig2
        // ω₁₂ = ω₂ − ω₁, unrolled so that whole turns around the pole count.
        let turn: Double = salp0.sign == .minus ? -1 : 1
        let omg12 =
            turn
            * (sig12 - (atan2(ssig2, csig2) - atan2(ssig1, csig1))
                + (atan2(turn * somg2, comg2) - atan2(turn * somg1, comg1)))
        let c3 = longitudeSeries.c3(eps)
        let b31 = GeodesicSeries.sineSeries(c3, sin: ssig1, cos: csig1)
        let b32 = GeodesicSeries.sineSeries(c3, sin: ssig2, cos: csig2)
        let lam12 = omg12 - f * salp0 * longitudeSeries.a3(eps) * (sig12 + (b32 - b31))
        let lon12 = lam12 / GeoAngle.radiansPerDegree
        let lon2 = GeoAngle.normalized(
            degrees: GeoAngle.normalized(degrees: start.longitude) + GeoAngle.normalized(degrees: lon12))
        let lat2 = GeoAngle.atan2Degrees(sbet2, f1 * cbet2)
        return GeodesicDestination(
            latitude: lat2, longitude: lon2,
            finalAzimuthDegrees: GeoAngle.azimuth(degrees: GeoAngle.atan2Degrees(salp2, calp2)))
    }

    // MARK: - Building blocks

    /// `sin β`, `cos β` of the reduced latitude, `tan β = (1 − f) tan φ`, with `cos β ≥ tiny`.
    private func reducedLatitude(_ latitude: Double) -> (sin: Double, cos: Double) {
        var (s, c) = GeoAngle.sinCos(degrees: latitude)
        s *= f1
        normalize(&s, &c)
        return (s, Swift.max(Geodesic.tiny, c))
    }

    /// `x` when positive, else +0 (never −0, which would turn `atan2(−0, −1)` into −π).
    private func nonNegative(_ x: Double) -> Double {
        x > 0 ? x : 0
    }

    /// Scales `(s, c)` to unit length.
    private func normalize(_ s: inout Double, _ c: inout Double) {
        let h = (s * s + c * c).squareRoot()
        s /= h
        c /= h
    }

    /// Distance and reduced length over `σ₁…σ₂`, in units of `b`.
    ///
    /// `s₁₂ / b = I₁(σ₂) − I₁(σ₁)`; `m₁₂ / b = dn₂ cos σ₁ sin σ₂ − dn₁ sin σ₁ cos σ₂ − cos σ₁ cos σ₂ J₁₂`
    /// with `J = I₁ − I₂` and `dn = √(1 + k² sin²σ)`.
    private func lengths(
        eps: Double, sig12: Double,
        ssig1: Double, csig1: Double, dn1: Double,
        ssig2: Double, csig2: Double, dn2: Double
    ) -> (s12b: Double, m12b: Double) {
        let a1m1 = GeodesicSeries.a1Minus1(eps)
        let a2m1 = GeodesicSeries.a2Minus1(eps)
        let c1 = GeodesicSeries.c1(eps)
        let c2 = GeodesicSeries.c2(eps)
        let b1 =
            GeodesicSeries.sineSeries(c1, sin: ssig2, cos: csig2)
            - GeodesicSeries.sineSeries(c1, sin: ssig1, cos: csig1)
        let b2 =
            GeodesicSeries.sineSeries(c2, sin: ssig2, cos: csig2)
            - GeodesicSeries.sineSeries(c2, sin: ssig1, cos: csig1)
        let a1 = 1 + a1m1
        let s12b = a1 * (sig12 + b1)
        let j12 = (a1m1 - a2m1) * sig12 + (a1 * b1 - (1 + a2m1) * b2)
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (s12b, m12b)
    }

    /// The state of the geodesic leaving point 1 at azimuth α₁, evaluated at latitude β₂.
    private struct LineState {
        /// λ₁₂(α₁) − λ₁₂ (target), radians.
        var v: Double
        /// ∂λ₁₂ / ∂α₁.
        var dv: Double
        var salp2: Double, calp2: Double
        var ssig1: Double, csig1: Double
        var ssig2: Double, csig2: Double
        var sig12: Double
        var eps: Double
    }

    /// Follows the geodesic leaving β₁ at azimuth α₁ to latitude β₂ (on the northward-going part, which
    /// the canonical configuration guarantees) and returns the longitude mismatch and its derivative.
    private func evaluate(
        sbet1: Double, cbet1: Double, dn1: Double,
        sbet2: Double, cbet2: Double, dn2: Double,
        salp1: Double, calp1: Double,
        slam120: Double, clam120: Double
    ) -> LineState {
        let calp1 = (sbet1 == 0 && calp1 == 0) ? -Geodesic.tiny : calp1  // α₁ = 90° on the equator
        let salp0 = salp1 * cbet1
        let calp0 = (calp1 * calp1 + (salp1 * sbet1) * (salp1 * sbet1)).squareRoot()
        var ssig1 = sbet1, csig1 = calp1 * cbet1
        let somg1 = salp0 * sbet1, comg1 = calp1 * cbet1
        normalize(&ssig1, &csig1)

        // α₂ from Clairaut (sin α₂ = sin α₀ / cos β₂) and cos α₂ ≥ 0, computed without cancellation:
        // cos²α₂ cos²β₂ = cos²α₁ cos²β₁ + (cos²β₂ − cos²β₁).
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2: Double
        if cbet2 != cbet1 || Swift.abs(sbet2) != -sbet1 {
            let d = cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)
            calp2 = ((calp1 * cbet1) * (calp1 * cbet1) + d).squareRoot() / cbet2
        } else {
            calp2 = Swift.abs(calp1)
        }
        var ssig2 = sbet2, csig2 = calp2 * cbet2
        let somg2 = salp0 * sbet2, comg2 = calp2 * cbet2
        normalize(&ssig2, &csig2)

        let sig12 = atan2(nonNegative(csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
        // ω₁₂ − λ₁₂(target), as one small angle: no wrap-around near 180°.
        let somg12 = nonNegative(comg1 * somg2 - somg1 * comg2)
        let comg12 = comg1 * comg2 + somg1 * somg2
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)

        let eps = GeodesicSeries.epsilon(kSquared: ep2 * calp0 * calp0)
        let c3 = longitudeSeries.c3(eps)
        let b312 =
            GeodesicSeries.sineSeries(c3, sin: ssig2, cos: csig2)
            - GeodesicSeries.sineSeries(c3, sin: ssig1, cos: csig1)
        let domg12 = f * salp0 * longitudeSeries.a3(eps) * (sig12 + b312)
        let v = eta - domg12

        let dv: Double
        if calp2 == 0 {
            dv = -2 * f1 * dn1 / sbet1
        } else {
            let l = lengths(
                eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                ssig2: ssig2, csig2: csig2, dn2: dn2)
            dv = f1 * l.m12b / (calp2 * cbet2)
        }
        return LineState(
            v: v, dv: dv, salp2: salp2, calp2: calp2, ssig1: ssig1, csig1: csig1, ssig2: ssig2,
            csig2: csig2, sig12: sig12, eps: eps)
    }

    /// A starting azimuth for Newton's method, or for very short lines the final solution.
    private struct StartingGuess {
        var salp1: Double
        var calp1: Double
        /// The solution itself when the line is so short that the spherical approximation is exact to
        /// round-off.
        var shortLine: (salp2: Double, calp2: Double, s12: Double)?
    }

    /// The starting azimuth α₁ for Newton's method: the great-circle solution on the auxiliary sphere
    /// (longitudes scaled by `w̄ = √(1 − e² cos²β̄)` for short lines), or, for nearly antipodal points, the
    /// solution of the astroid equation.
    ///
    /// For very short lines (σ₁₂ below `shortLineArc`, about 0.2 m) the scaled great circle is itself the
    /// solution to round-off (its relative error is O(f σ₁₂²)), and it is returned as such: Newton's
    /// method could not do better there, because the longitude mismatch it drives to zero is computed as a
    /// difference of angles of order 1 and carries an absolute round-off of about 1e−16 rad, which for a
    /// centimetre-long line is a relative error of 1e−7 in the azimuth.
    private func startingGuess(
        sbet1: Double, cbet1: Double, sbet2: Double, cbet2: Double,
        lam12: Double, lon12: Double, slam12: Double, clam12: Double
    ) -> StartingGuess {
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1  // sin(β₂ − β₁)
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1  // sin(β₂ + β₁)
        let isShort = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12 = slam12, comg12 = clam12
        if isShort {
            // ω₁₂ = λ₁₂ / w̄ with w̄ = √(1 − e² cos²β̄), β̄ the mean reduced latitude.
            let s = sbet1 + sbet2, c = cbet1 + cbet2
            let cbetm2 = c * c / (s * s + c * c)
            let omg12 = lam12 / (1 - e2 * cbetm2).squareRoot()
            somg12 = sin(omg12); comg12 = cos(omg12)
        }
        // Great circle on the sphere from (β₁, 0) to (β₂, ω₁₂): z₁ = cos β₁ sin β₂ − sin β₁ cos β₂ cos ω₁₂
        // + i cos β₂ sin ω₁₂, rewritten around sin(β₂ ∓ β₁) to avoid cancellation.
        var salp1 = cbet2 * somg12
        var calp1 =
            comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = (salp1 * salp1 + calp1 * calp1).squareRoot()
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if isShort && ssig12 < shortLineArc {
            // z₂ = −sin β₁ cos β₂ + cos β₁ sin β₂ cos ω₁₂ + i cos β₁ sin ω₁₂, again around sin(β₂ − β₁).
            var salp2 = cbet1 * somg12
            var calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            normalize(&salp1, &calp1)
            normalize(&salp2, &calp2)
            let s = sbet1 + sbet2, c = cbet1 + cbet2
            let wbar = (1 - e2 * c * c / (s * s + c * c)).squareRoot()
            let s12 = a * wbar * atan2(ssig12, csig12)
            return StartingGuess(salp1: salp1, calp1: calp1, shortLine: (salp2, calp2, s12))
        }

        // Nearly antipodal: within a few astroid scales (f π cos²β₁, in radians of arc) of the antipode,
        // where the great-circle guess is useless.
        if csig12 < 0 && ssig12 < 6 * Swift.abs(n) * .pi * cbet1 * cbet1 && f > 0 {
            // Scaled coordinates of point 2 relative to the antipode of point 1. The longitude scale is the
            // longitude deficit of the geodesic through the vertex, f A₃ π cos β₁.
            let k2 = ep2 * sbet1 * sbet1
            let lamScale = f * cbet1 * longitudeSeries.a3(GeodesicSeries.epsilon(kSquared: k2)) * .pi
            let betScale = lamScale * cbet1
            let x = -(180 - lon12) * GeoAngle.radiansPerDegree / lamScale
            let y = sbet12a / betScale
            if y > -1e-12 {
                // On (or within round-off of) the line of symmetry β₂ = −β₁: the limit y → 0⁻ of the
                // astroid solution, sin α₁ = −x, cos α₁ = −√(1 − x²) (α₁ = 90° once x ≤ −1).
                salp1 = Swift.min(1, -x)
                calp1 = -(1 - salp1 * salp1).squareRoot()
            } else {
                let mu = astroidRoot(x: x, y: y)
                salp1 = -x / (1 + mu)
                calp1 = y / mu
            }
        }
        normalize(&salp1, &calp1)
        if !(salp1 > 0) || !salp1.isFinite || !calp1.isFinite {
            return StartingGuess(salp1: 1, calp1: 0)  // defensive: the bracket makes any α₁ converge
        }
        return StartingGuess(salp1: salp1, calp1: calp1)
    }

    /// The positive root μ of the astroid equation `x² / (1 + μ)² + y² / μ² = 1` (y ≠ 0).
    ///
    /// The left side, `g(μ)`, decreases and is convex on μ > 0, and `g > 1` at μ₀ = max(|y|, |x| − 1), so
    /// Newton's method started there climbs monotonically to the root without overshooting. Iterating in
    /// this form (rather than on the equivalent quartic) needs no case analysis.
    private func astroidRoot(x: Double, y: Double) -> Double {
        let x2 = x * x, y2 = y * y
        var mu = Swift.max(Swift.abs(y), Swift.abs(x) - 1)
        for _ in 0..<100 {
            let p = 1 + mu
            let g = x2 / (p * p) + y2 / (mu * mu) - 1
            let dg = -2 * x2 / (p * p * p) - 2 * y2 / (mu * mu * mu)
            let next = mu - g / dg
            if !(next > mu) { break }
            let done = next - mu <= 1e-12 * next
            mu = next
            if done { break }
        }
        return mu
    }
}

/// The solution of the inverse geodesic problem between two points.
public struct GeodesicInverse: Sendable, Hashable {
    /// The length of the shortest path on the ellipsoid, in metres (≥ 0).
    public var distanceMetres: Double
    /// The azimuth of the geodesic at the first point, degrees clockwise from true north, 0..<360.
    public var initialAzimuthDegrees: Double
    /// The azimuth of travel at the second point (the direction the geodesic is heading when it arrives),
    /// degrees clockwise from true north, 0..<360. On a sphere it equals the initial azimuth only along a
    /// meridian or the equator.
    public var finalAzimuthDegrees: Double

    /// Creates a solution (normally returned by ``Geodesic/inverse(from:to:)``).
    ///
    /// - Parameters:
    ///   - distanceMetres: the geodesic distance, metres.
    ///   - initialAzimuthDegrees: azimuth at the first point, degrees clockwise from north.
    ///   - finalAzimuthDegrees: azimuth of travel at the second point, degrees clockwise from north.
    public init(distanceMetres: Double, initialAzimuthDegrees: Double, finalAzimuthDegrees: Double) {
        self.distanceMetres = distanceMetres
        self.initialAzimuthDegrees = initialAzimuthDegrees
        self.finalAzimuthDegrees = finalAzimuthDegrees
    }

    /// The back azimuth: the azimuth at the second point of the geodesic leading back to the first,
    /// degrees clockwise from true north, 0..<360 (the final azimuth plus 180°).
    public var reverseAzimuthDegrees: Double {
        GeoAngle.azimuth(degrees: finalAzimuthDegrees + 180)
    }
}

/// The solution of the direct geodesic problem.
public struct GeodesicDestination: Sendable, Hashable {
    /// Latitude of the end point, degrees north.
    public var latitude: Double
    /// Longitude of the end point, degrees east, −180…180.
    public var longitude: Double
    /// The azimuth of travel at the end point, degrees clockwise from true north, 0..<360.
    public var finalAzimuthDegrees: Double

    /// Creates a solution (normally returned by ``Geodesic/destination(from:azimuthDegrees:distanceMetres:)``).
    ///
    /// - Parameters:
    ///   - latitude: degrees north.
    ///   - longitude: degrees east.
    ///   - finalAzimuthDegrees: azimuth of travel at the end point, degrees clockwise from north.
    public init(latitude: Double, longitude: Double, finalAzimuthDegrees: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.finalAzimuthDegrees = finalAzimuthDegrees
    }
}
