import ArgumentParser

// Placeholder until its issue lands in this session; replaced by the real command.
struct Fuse: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "(in progress)")
    func run() throws { throw ValidationError("'Fuse' is not built yet") }
}
