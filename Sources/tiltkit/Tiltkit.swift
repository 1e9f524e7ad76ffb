import ArgumentParser
import Foundation
import Motion

@main
struct Tiltkit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiltkit",
        abstract: "Core Motion for Linux: motion from gamepads, IMUs and traces, fused, with a 3D demo.",
        version: TiltkitVersion.string,
        subcommands: [Teapot.self, Cart.self, Aim.self, Replay.self, Convert.self, Record.self, Fuse.self,
                      Devices.self, Doctor.self, Serve.self, MapCommand.self, Bench.self, Activity.self, PedometerCommand.self,
                      History.self, Compare.self],
        defaultSubcommand: Teapot.self)

    /// A mistyped command gets the nearest one named before the parser sees it: with teapot as the
    /// default, the parser would otherwise blame teapot for an "unexpected argument".
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let message = CommandSuggestion.unknownCommand(in: arguments, root: Tiltkit.self) {
            FileHandle.standardError.write(Data("tiltkit: \(message)\n".utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        // A file grown past `ulimit -f` fails its write with EFBIG, said like a full disk,
        // instead of SIGXFSZ killing the process mid-write.
        signal(SIGXFSZ, SIG_IGN)
        main(arguments)
    }
}
