import Foundation

/// Reads the un-versioned layout of the recordings in `Assets/traces/` (and `../shared/data/traces/`):
/// `t,ax,ay,az,gx,gy,gz,mx,my,mz,ref_qw,…,ref_roll,ref_pitch,ref_yaw,ref_gravx,…,ref_uaz`.
/// Units are fixed by that layout's README: s, g (Core Motion sign), rad/s, µT, rad.
/// Where the quaternion is absent but roll/pitch/yaw are present (MotionSense), the reference
/// attitude is built from the angles as Core Motion does: `Rz(yaw)·Rx(pitch)·Ry(roll)`.
enum ColumnsImporter {
    static func read(_ document: CSVDocument) throws -> Trace {
        guard let header = document.lines.first else {
            throw TraceError(file: document.file, line: 1, problem: .emptyFile)
        }
        let names = header.cells.map { document.text($0) }
        let reader = try TraceColumnReader(document: document, header: header, names: names)
        let samples = try reader.samples()
        return Trace(samples: samples,
                     metadata: TraceMetadata(source: document.file, nominalRate: Trace.estimatedRate(samples),
                                             importedFrom: .columns))
    }
}
