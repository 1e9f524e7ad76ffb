/// Lays track items ahead of the cart from the game's seeded generator: one section at a
/// time, each a row of gems, an obstacle or a beam, so the same seed gives the same track.
public struct TrackGenerator: Hashable, Sendable {
    /// Distance, metres, where the next section starts.
    public private(set) var nextSection: Double
    public private(set) var nextID: Int = 0

    public init(runUp: Double) { nextSection = runUp }

    /// Appends items until the track is laid to `distance` metres.
    public mutating func extend(_ items: inout [TrackItem], to distance: Double, speed: Double,
                                rules: CartRules, random: inout SplitMix64) {
        while nextSection < distance {
            layOneSection(into: &items, random: &random)
            // Sections stretch with speed: the player always gets about the same time per section.
            nextSection += rules.sectionLength * max(1, speed / rules.startSpeed)
        }
    }

    private mutating func layOneSection(into items: inout [TrackItem], random: inout SplitMix64) {
        let roll = random.nextInt(below: 10)
        switch roll {
        case 0..<3:
            append(.obstacle, at: nextSection, to: &items)
        case 3..<6:
            append(.beam, at: nextSection, to: &items)
        default:
            // A short arc of gems in one lane, the lane chosen at random.
            let lane = Lane.allCases[random.nextInt(below: 3)]
            for i in 0..<3 { append(.gem(lane), at: nextSection + Double(i) * 1.5, to: &items) }
        }
    }

    private mutating func append(_ kind: TrackItem.Kind, at distance: Double, to items: inout [TrackItem]) {
        items.append(TrackItem(id: nextID, kind: kind, distance: distance))
        nextID += 1
    }
}
