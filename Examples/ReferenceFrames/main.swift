// Reference frames and true-north heading: the frames a source offers, and the same recording
// in magnetic-north and true-north frames (declination from the World Magnetic Model).
//   swift run ReferenceFrames [SOURCE [SECONDS]]
import Foundation
import Motion
import MotionSources

let arguments = CommandLine.arguments.dropFirst()
let seconds = arguments.dropFirst().first.flatMap { Double($0) } ?? 1
// Where the device is: Bristol (x-io's home), today. True north needs it; the others do not.
let bristol = GeodeticLocation(latitude: 51.45, longitude: -2.59, altitude: 0.01, date: Date())

func heading(in frame: AttitudeReferenceFrame) throws -> Double {
    let manager = MotionManager(source: try SourceSpec(parsing: arguments.first ?? "auto").makeSource())
    manager.location = bristol
    guard manager.availableAttitudeReferenceFrames.contains(frame) else {
        throw MotionManagerError.referenceFrameUnavailable(frame)
    }
    manager.startDeviceMotionUpdates(using: frame)
    while manager.deviceMotion == nil { Thread.sleep(forTimeInterval: 0.01) }  // the source is opening
    Thread.sleep(forTimeInterval: seconds)
    defer { manager.stopDeviceMotionUpdates() }
    return manager.deviceMotion!.heading
}

do {
    let probe = MotionManager(source: try SourceSpec(parsing: arguments.first ?? "auto").makeSource())
    probe.location = bristol
    print("frames:", probe.availableAttitudeReferenceFrames.map(\.rawValue).joined(separator: ", "))
    let magnetic = try heading(in: .xMagneticNorthZVertical)
    let trueNorth = try heading(in: .xTrueNorthZVertical)
    print(String(format: "heading %.1f° from magnetic north, %.1f° from true north (declination here %.1f°)",
                 magnetic, trueNorth, bristol.magneticDeclination))
} catch {
    FileHandle.standardError.write(Data("ReferenceFrames: \(error)\n".utf8))
    exit(1)
}
