import ArgumentParser
import Foundation
import MotionDevices
import MotionSDL

/// `tiltkit doctor`: why a pad "does nothing", one section per cause, each finding with what to do.
struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check this machine for motion devices, access to them, udev rules, drivers, SDL and uinput.",
        discussion: """
        Sections: devices (found, and by which path: hidraw, evdev motion nodes, IIO), access \
        (whether this user can open each node, and the exact udev rule that fixes it), udev-rules \
        (whether \(TiltkitUdevRules.padRulesFile) and \(TiltkitUdevRules.uinputRulesFile) are \
        installed in \(TiltkitUdevRules.directories.joined(separator: ", "))), drivers (the kernel \
        driver bound to each pad: hid-playstation, hid-sony, hid-nintendo or hid-generic, and \
        modules missing), sdl (the linked SDL and the controllers it sees with sensors; joystick and \
        game-controller subsystems only, no video), uinput (/dev/uinput and its module), groups \
        (this user's, 'input' among them).

        Each finding is ok, warning or problem, with one line of what to do. A machine with no pad \
        is a warning. Exit status: 0 when nothing is a problem, 1 when something is (a device is \
        there that this user cannot open).

        --json writes one document: {"schema": "tiltkit-doctor v1", "status": worst status, \
        "counts": {"ok", "warning", "problem"}, "sections": [{"name", "title", "status", \
        "findings": [{"status", "subject", "detail", "fix" (null when nothing to do)}]}]}; \
        section names: devices, access, udev-rules, drivers, sdl, uinput, groups.
        """)

    @Flag(help: "Write the findings as one JSON document (keys above) instead of text.")
    var json = false

    func run() throws {
        var sections = SetupInspection().sections()
        sections.insert(Self.sdlSection(SDLInventory.take()), at: 4)
        let report = DoctorReport(sections: sections)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text, terminator: "")
        }
        if report.status == .problem { throw ExitCode.failure }
    }

    static func sdlSection(_ sdl: SDLInventory) -> SetupSection {
        var findings = [SetupFinding(.ok, "SDL", "linked version \(sdl.linkedVersion)")]
        if let error = sdl.initError {
            findings.append(SetupFinding(.warning, "SDL", "the joystick subsystem would not start: \(error)",
                                         fix: "the hidraw and evdev paths above do not need SDL"))
        } else if sdl.controllers.isEmpty {
            findings.append(SetupFinding(.warning, "SDL controllers", "SDL sees no game controller",
                                         fix: "with a pad plugged in, see the access section: SDL opens the same hidraw nodes"))
        }
        for c in sdl.controllers {
            let subject = "sdl:\(c.index) \(c.name)"
            if c.hasGyro && c.hasAccelerometer {
                let rate = c.rate.map { String(format: ", %.0f Hz", $0) } ?? ""
                findings.append(SetupFinding(.ok, subject, "gyroscope and accelerometer\(rate)"))
            } else {
                findings.append(SetupFinding(.warning, subject, "no motion sensors reported (SDL reads them through its HIDAPI driver)",
                                             fix: "give this user the pad's hidraw node (access section), or use its hidraw: or evdev: source"))
            }
        }
        return SetupSection(name: "sdl", title: "SDL", findings: findings)
    }
}

/// The findings of `tiltkit doctor`, as text or as `--json`'s document.
struct DoctorReport: Encodable {
    let sections: [SetupSection]

    var status: SetupFinding.Status { sections.map(\.status).max() ?? .ok }

    private var findings: [SetupFinding] { sections.flatMap(\.findings) }

    func count(_ status: SetupFinding.Status) -> Int { findings.filter { $0.status == status }.count }

    var text: String {
        var out = ""
        for section in sections {
            out += "\(section.title): \(section.status.rawValue)\n"
            for finding in section.findings {
                out += "  \(finding.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(finding.subject): \(finding.detail)\n"
                if let fix = finding.fix { out += "           fix: \(fix)\n" }
            }
        }
        out += "\(count(.problem)) problems, \(count(.warning)) warnings\n"
        return out
    }

    private enum Keys: String, CodingKey { case schema, status, counts, sections }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode("tiltkit-doctor v1", forKey: .schema)
        try c.encode(status, forKey: .status)
        try c.encode(["ok": count(.ok), "warning": count(.warning), "problem": count(.problem)], forKey: .counts)
        try c.encode(sections, forKey: .sections)
    }
}
