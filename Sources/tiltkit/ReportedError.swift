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
        // One line, whatever the error holds: its newlines are escaped with the rest.
        FileHandle.standardError.write(Data((printable("tiltkit: \(personText(error))") + "\n").utf8))
        throw ExitCode.failure
    }
}

/// An error as one line for a person: the project's own errors say themselves; Foundation's
/// (`Error Domain=NSCocoaErrorDomain Code=260 … UserInfo={…}`, "You don’t have permission") become
/// the path and the reason in `SystemWords`.
func personText(_ error: any Error) -> String {
    let ns = error as NSError
    guard ns.domain == NSCocoaErrorDomain || ns.domain == NSPOSIXErrorDomain else { return String(describing: error) }
    let path = (ns.userInfo[NSFilePathErrorKey] as? String) ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
    let underlying = (ns.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
    let posix = ns.domain == NSPOSIXErrorDomain ? ns.code : underlying?.domain == NSPOSIXErrorDomain ? underlying?.code : nil
    let reason = posix.map { SystemWords.reason(Int32($0)) } ?? SystemWords.cocoaReason(ns.code)
    return path.map { "\($0): \(reason)" } ?? reason
}

/// The one mapping from the system's error codes (errno, Foundation's CocoaError codes) to the
/// words every command prints.
enum SystemWords {
    /// errno in words: the C library's own ("No such file or directory").
    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// A CocoaError code (Foundation's file errors) in the same words as the errno behind it.
    static func cocoaReason(_ code: Int) -> String {
        switch CocoaError.Code(rawValue: code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return reason(ENOENT)
        case .fileReadNoPermission, .fileWriteNoPermission: return reason(EACCES)
        case .fileReadCorruptFile, .fileReadInapplicableStringEncoding: return "not UTF-8 text"
        case .fileReadTooLarge: return reason(EFBIG)
        case .fileWriteOutOfSpace: return reason(ENOSPC)
        case .fileWriteVolumeReadOnly: return reason(EROFS)
        case .fileWriteFileExists: return reason(EEXIST)
        case .fileReadUnsupportedScheme, .fileWriteUnsupportedScheme: return "not a local file"
        case .fileWriteInvalidFileName: return "not a valid file name"
        case .fileWriteUnknown: return "cannot write"
        default: return "cannot read"
        }
    }
}

/// Text from outside (a file's bytes, a path) made safe for a terminal: control characters,
/// invisible format characters and undecodable bytes escaped, and the whole cut to `limit`
/// characters, so a binary file or a megabyte line never reaches the terminal raw.
func printable(_ text: String, limit: Int = 400) -> String {
    var result = ""
    var shown = 0
    for scalar in text.unicodeScalars {
        guard shown < limit else {
            let rest = text.unicodeScalars.count - shown
            return result + "… (\(rest) more characters)"
        }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            result += scalar.value < 0x100 ? String(format: "\\x%02x", scalar.value) : String(format: "\\u{%04x}", scalar.value)
        default:
            result += scalar == "\u{FFFD}" ? "\\ufffd" : String(scalar)
        }
        shown += 1
    }
    return result
}

/// A line (or lines) on stderr, for what the user should hear while a command runs, each made
/// `printable`.
func printError(_ line: String) {
    let lines = line.split(separator: "\n", omittingEmptySubsequences: false).map { printable(String($0), limit: 1000) }
    FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
}
