import ArgumentParser
import Demo
import Foundation
import Motion

/// `--frame` and `--location` for the demos: the reference frame device motion runs in, and where
/// the device is for true north (declination from the World Magnetic Model 2025).
struct FrameOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Reference frame: \(AttitudeReferenceFrame.allCases.map(\.rawValue).joined(separator: ", ")). "
                               + "North frames need a magnetometer and show the heading; true north also --location."))
    var frame: String = AttitudeReferenceFrame.xArbitraryZVertical.rawValue

    @Option(help: ArgumentHelp(locationHelp))
    var location: String?

    func validate() throws {
        _ = try parsed()
    }

    func parsed() throws -> (frame: AttitudeReferenceFrame, location: GeodeticLocation?) {
        guard let frame = AttitudeReferenceFrame(rawValue: frame) else {
            throw ValidationError("--frame must be one of \(AttitudeReferenceFrame.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return (frame, try location.map { try parseLocation($0) })
    }

    /// Applies the choice to `input` before it starts.
    func apply(to input: SceneMotionInput) throws {
        let (frame, location) = try parsed()
        try input.use(frame: frame, location: location)
    }
}

/// `--location`'s help, the same in every command that takes it (the demos, `fuse`).
let locationHelp = "Where the device is: LAT,LON[,ALTITUDE_M] in degrees (north and east positive) and metres, "
    + "for x-true-north-z-vertical (declination by the World Magnetic Model 2025, today)."

/// `--location LAT,LON[,ALTITUDE_M]` (degrees, metres above the WGS-84 ellipsoid), dated today.
func parseLocation(_ text: String) throws -> GeodeticLocation {
    let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard (2...3).contains(parts.count), parts.allSatisfy({ $0?.isFinite == true }),
          abs(parts[0]!) <= 90, abs(parts[1]!) <= 180 else {
        throw ValidationError("--location must be LAT,LON[,ALTITUDE_M] in degrees and metres, e.g. 51.48,-0.0015, not '\(text)'")
    }
    // GeodeticLocation takes kilometres.
    return GeodeticLocation(latitude: parts[0]!, longitude: parts[1]!, altitude: parts.count == 3 ? parts[2]! / 1000 : 0, date: Date())
}
