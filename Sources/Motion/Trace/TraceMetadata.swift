/// What a trace says about itself, kept in its `# key: value` comment lines.
public struct TraceMetadata: Hashable, Sendable {
    /// Where the samples came from, e.g. "xio/sensor_data.csv" or "hidraw3 DualSense".
    public var source: String
    /// Nominal sample rate in Hz, where known.
    public var nominalRate: Double?
    /// The layout the samples were imported from, if not recorded as a tiltkit trace.
    public var importedFrom: TraceFormat?

    public init(source: String, nominalRate: Double? = nil, importedFrom: TraceFormat? = nil) {
        self.source = source
        self.nominalRate = nominalRate
        self.importedFrom = importedFrom
    }
}
