// Reference frames and true-north heading: the frames a source offers, and one recording read in
// magnetic-north and true-north frames side by side (declination from the World Magnetic Model).
//   swift run ReferenceFrames [SOURCE [SECONDS]]
import Foundation
import Motion
import MotionSources

let arguments = CommandLine.arguments.dropFirst()
let seconds = arguments.dropFirst().first.flatMap { Double($0) } ?? 1
// Where the device is: Bristol (x-io's home), today. True north needs it; the others do not.
let bristol = GeodeticLocation(latitude: 51.45, longitude: -2.59, altitude: 0.01, date: Date())

do {
    // Two managers on two openings of the source, one per frame, started together.
    let managers = try (0..<2).map { _ in MotionManager(source: try SourceSpec(parsing: arguments.first ?? "auto").makeSource()) }
    managers.forEach { $0.location = bristol }
    print("frames:", managers[0].availableAttitudeReferenceFrames.map(\.rawValue).joined(separator: ", "))
    for (manager, frame) in zip(managers, [AttitudeReferenceFrame.xMagneticNorthZVertical, .xTrueNorthZVertical]) {
        guard manager.availableAttitudeReferenceFrames.contains(frame) else { throw MotionManagerError.referenceFrameUnavailable(frame) }
        manager.startDeviceMotionUpdates(using: frame)
    }
    while managers.contains(where: { $0.deviceMotion == nil }) { Thread.sleep(forTimeInterval: 0.01) }  // opening
    Thread.sleep(forTimeInterval: seconds)
    let (magnetic, trueNorth) = (managers[0].deviceMotion!, managers[1].deviceMotion!)
    managers.forEach { $0.stopDeviceMotionUpdates() }
    print(String(format: "at t=%.2f s heading %.2f° from magnetic north; at t=%.2f s %.2f° from true north (declination here %.2f°)",
                 magnetic.timestamp, magnetic.heading, trueNorth.timestamp, trueNorth.heading, bristol.magneticDeclination))
} catch {
    FileHandle.standardError.write(Data("ReferenceFrames: \(error)\n".utf8))
    exit(1)
}
