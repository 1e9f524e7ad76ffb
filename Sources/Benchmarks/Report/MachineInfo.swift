import Foundation

/// What the figures were measured on, printed above every table and stored in the JSON: the CPU,
/// the core count and the load average (other work on a shared machine moves the tails).
public struct MachineInfo: Codable, Hashable, Sendable {
    public var cpu: String
    public var cores: Int
    /// 1-minute load average when the bench started.
    public var loadAverage: Double?
    /// "release" or "debug": debug figures are not comparable with anything.
    public var build: String

    public static func current() -> MachineInfo {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").first.flatMap { Double($0) }
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        return MachineInfo(cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount, loadAverage: load, build: build)
    }

    public var summary: String {
        var s = "\(cpu), \(cores) cores, \(build) build"
        if let loadAverage { s += ", load \(Figure.fixed(loadAverage, 2))" }
        return s
    }
}

/// The document `--json` prints: which bench, on what, and its report.
public struct BenchDocument<Report: Encodable & Sendable>: Encodable, Sendable {
    public var bench: String
    public var quick: Bool
    public var machine: MachineInfo
    public var report: Report

    public init(bench: String, quick: Bool, machine: MachineInfo = .current(), report: Report) {
        self.bench = bench
        self.quick = quick
        self.machine = machine
        self.report = report
    }

    /// Pretty, key-sorted JSON; non-finite numbers become null-free strings ("nan").
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
