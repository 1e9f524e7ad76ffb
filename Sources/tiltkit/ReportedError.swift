import ArgumentParser
import Foundation
import Motion

/// Runs a command body and turns any failure into one line on stderr, `tiltkit: <file>:<line>: <what>`,
/// and a non-zero exit: never a Swift crash or a stack trace for bad input.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        FileHandle.standardError.write(Data("tiltkit: \(String(describing: error))\n".utf8))
        throw ExitCode.failure
    }
}

/// One line on stderr, for what the user should hear while a command runs.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
