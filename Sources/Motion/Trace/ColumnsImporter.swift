import Foundation

/// Reads the un-versioned layout of the recordings in `Assets/traces/` (and `../shared/data/traces/`):
/// `t,ax,ay,az,gx,gy,gz,mx,my,mz,ref_qw,…,ref_roll,ref_pitch,ref_yaw,ref_gravx,…,ref_uaz`.
/// Units are fixed by that layout's README: s, g (Core Motion sign), rad/s, µT, rad.
/// Where the quaternion is absent but roll/pitch/yaw are present (MotionSense), the reference
/// attitude is built from the angles as Core Motion does: `Rz(yaw)·Rx(pitch)·Ry(roll)`.
enum ColumnsImporter {
    /// The reader for the rows under the header (the document's first line).
    static func columnReader(_ document: CSVDocument) throws -> TraceColumnReader {
        guard let header = document.lines.first else {
            throw TraceError(file: document.file, line: 1, problem: .emptyFile)
        }
        return try TraceColumnReader(file: document.file, header: header, names: header.cells.map { document.text($0) })
    }
}
