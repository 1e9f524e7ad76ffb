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
        FileHandle.standardError.write(Data("tiltkit: \(personText(error))\n".utf8))
        throw ExitCode.failure
    }
}

/// An error as one line for a person: the project's own errors say themselves; Foundation's
/// (`Error Domain=NSCocoaErrorDomain Code=4 … UserInfo={…}`) become the path and the system's reason.
func personText(_ error: any Error) -> String {
    let ns = error as NSError
    guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else { return String(describing: error) }
    let path = (ns.userInfo[NSFilePathErrorKey] as? String) ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
    let underlying = (ns.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
    let code = ns.domain == NSPOSIXErrorDomain ? ns.code : underlying?.domain == NSPOSIXErrorDomain ? underlying!.code : nil
    let reason = code.map { String(cString: strerror(Int32($0))) } ?? ns.localizedDescription
    return path.map { "\($0): \(reason)" } ?? reason
}

/// One line on stderr, for what the user should hear while a command runs.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
