import ArgumentParser

@main
struct Tiltkit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiltkit",
        abstract: "Core Motion for Linux: motion from gamepads, IMUs and traces, fused, with a 3D demo.",
        subcommands: [Teapot.self, Cart.self, Aim.self, Replay.self, Convert.self, Record.self, Fuse.self,
                      Devices.self, Serve.self, MapCommand.self, Bench.self, Activity.self, PedometerCommand.self, History.self, Compare.self],
        defaultSubcommand: Teapot.self)
}
