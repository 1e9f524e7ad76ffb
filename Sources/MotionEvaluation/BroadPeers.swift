import Motion

/// Quoted figures of other filters on the same ten BROAD trials: the averages `bench accuracy`
/// shows as quoted beside the peers it measures, and VQF per trial for the regression test
/// (`bench accuracy` runs VQF itself when its package is installed).
public enum BroadPeers {
    /// Averages from `../shared/data/broad/README.md` (degrees; ns per sample in native C/C++, -O2).
    public struct Row: Hashable, Sendable {
        public var filter: String
        public var total: Double?
        public var inclination: Double
        public var totalHeadingCorrected: Double
        public var nanosecondsPerSample: Double
    }

    public static let averages: [Row] = [
        Row(filter: "VQF 9D", total: 3.26, inclination: 0.86, totalHeadingCorrected: 2.32, nanosecondsPerSample: 500),
        Row(filter: "Madgwick 9D", total: 6.03, inclination: 2.80, totalHeadingCorrected: 4.60, nanosecondsPerSample: 82),
        Row(filter: "Mahony 9D", total: 9.07, inclination: 3.83, totalHeadingCorrected: 8.29, nanosecondsPerSample: 61),
        Row(filter: "x-io Fusion 9D", total: 13.83, inclination: 4.18, totalHeadingCorrected: 12.67, nanosecondsPerSample: 67),
        Row(filter: "VQF 6D", total: nil, inclination: 0.86, totalHeadingCorrected: 2.78, nanosecondsPerSample: 348),
        Row(filter: "x-io Fusion 6D", total: nil, inclination: 4.18, totalHeadingCorrected: 5.53, nanosecondsPerSample: 52),
        Row(filter: "Madgwick 6D", total: nil, inclination: 3.00, totalHeadingCorrected: 8.04, nanosecondsPerSample: 55),
        Row(filter: "Mahony 6D", total: nil, inclination: 3.10, totalHeadingCorrected: 8.51, nanosecondsPerSample: 39),
    ]

    /// VQF per trial, degrees: (9D total, 6D inclination, 6D heading-corrected total).
    /// Measured with the `vqf` Python package 2.1.2 (github.com/dlaidig/vqf, MIT) at its default
    /// parameters through `eval.py`; their means reproduce the README's 3.26 / 0.86 / 2.78.
    public static let vqfPerTrial: [String: (total9D: Double, inclination: Double, totalHeadingCorrected6D: Double)] = [
        "01_undisturbed_slow_rotation_A": (1.986, 0.599, 4.590),
        "06_undisturbed_fast_rotation_A": (4.034, 0.804, 0.879),
        "08_undisturbed_fast_rotation_with_breaks_A": (3.344, 1.763, 7.918),
        "10_undisturbed_slow_translation_A": (1.802, 0.299, 1.060),
        "15_undisturbed_fast_translation_A": (2.309, 0.470, 1.508),
        "21_undisturbed_fast_combined": (4.077, 1.716, 4.222),
        "24_disturbed_tapping_A": (1.546, 0.607, 0.839),
        "26_disturbed_phone_vibration_A": (1.754, 0.561, 1.065),
        "28_disturbed_stationary_magnet_A": (4.042, 1.206, 3.667),
        "32_disturbed_attached_magnet_1cm": (7.673, 0.560, 2.090),
    ]
}
