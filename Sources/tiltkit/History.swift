import ArgumentParser

/// `tiltkit history …`: the sensor recorder's history file (`AccelerometerHistoryFile`) from the
/// command line, written from any source and read back by time range without one.
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a source's accelerometer into a history file and query it by time, as Core Motion's CMSensorRecorder.",
        discussion: """
        The file is a ring sized once for --duration seconds at the source's rate (× 1.25, 32 bytes \
        a reading): it never grows, the oldest readings are overwritten, and a later recording with \
        the same --duration and source goes on after what it holds (unless the source's clock \
        restarted, as a trace replayed again does: then it starts afresh). Times are the source's \
        clock (a trace's own timestamps), in seconds.

        Examples:
          tiltkit history record --source Assets/traces/xio/sensor_data.csv --out acc.tkhist --duration 60 --speed 20
          tiltkit history query acc.tkhist --start 10 --end 12 --json
          tiltkit history summary acc.tkhist
        """,
        subcommands: [HistoryRecord.self, HistoryQuery.self, HistorySummaryCommand.self])
}
