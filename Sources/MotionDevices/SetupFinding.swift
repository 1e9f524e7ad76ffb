/// One thing `tiltkit doctor` checked, and what to do about it.
///
///     SetupFinding(.problem, "/dev/hidraw3", "this user cannot open it",
///                  fix: "install Assets/udev/70-tiltkit.rules: …")
public struct SetupFinding: Hashable, Sendable, Codable {
    public enum Status: String, Hashable, Sendable, Codable, Comparable {
        /// Works as it is.
        case ok
        /// Works, or nothing to use yet, but something may surprise (no pad plugged in, a generic driver).
        case warning
        /// Stops tiltkit from reading a device that is there.
        case problem

        public static func < (a: Status, b: Status) -> Bool { a.rank < b.rank }
        private var rank: Int { self == .ok ? 0 : self == .warning ? 1 : 2 }
    }

    public var status: Status
    /// What was checked: a path, a device, a module.
    public var subject: String
    /// What was found, one line.
    public var detail: String
    /// One line of what to do; nil when nothing is needed.
    public var fix: String?

    public init(_ status: Status, _ subject: String, _ detail: String, fix: String? = nil) {
        self.status = status
        self.subject = subject
        self.detail = detail
        self.fix = fix
    }

    /// Every key always present (`fix` as null), so `--json` readers see one shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(status, forKey: .status)
        try c.encode(subject, forKey: .subject)
        try c.encode(detail, forKey: .detail)
        try c.encode(fix, forKey: .fix)
    }
}

/// A titled group of findings: devices, access, udev rules, drivers, SDL, uinput, groups.
public struct SetupSection: Hashable, Sendable, Codable {
    /// A stable key for `--json` ("devices", "access", "udev-rules", "drivers", "sdl", "uinput", "groups").
    public var name: String
    public var title: String
    public var findings: [SetupFinding]

    public init(name: String, title: String, findings: [SetupFinding]) {
        self.name = name
        self.title = title
        self.findings = findings
    }

    /// The worst status among the findings (ok when there are none).
    public var status: SetupFinding.Status { findings.map(\.status).max() ?? .ok }

    private enum CodingKeys: String, CodingKey { case name, title, status, findings }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try c.decode(String.self, forKey: .name), title: try c.decode(String.self, forKey: .title),
                  findings: try c.decode([SetupFinding].self, forKey: .findings))
    }

    /// With the section's worst status, so a reader need not work it out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(title, forKey: .title)
        try c.encode(status, forKey: .status)
        try c.encode(findings, forKey: .findings)
    }
}
