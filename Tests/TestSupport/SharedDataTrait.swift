import Testing

extension Trait where Self == ConditionTrait {
    /// Skips the test, with the reason shown as the skip's comment, when `../shared/data/<name>`
    /// (or `$TILTKIT_SHARED_DATA/<name>`) is absent: a fresh clone has no shared data. Under
    /// `CI=true` the test always runs, so missing data fails it (`TestData.requireSharedData`).
    /// Under a sanitizer it skips: these tests put long recordings through code the other tests
    /// reach on short ones, several times slower instrumented, and the plain run (`scripts/test.sh`) has them.
    ///
    ///     @Test(.needsSharedData("broad")) func accuracy() throws { let broad = try TestData.requireSharedData("broad") … }
    public static func needsSharedData(_ name: String) -> Self {
        if let sanitizer = TestData.sanitizer {
            return .disabled("the long recordings of \(name) run in the plain test run, not under the \(sanitizer) sanitizer")
        }
        return .enabled(if: TestData.isCI || TestData.hasSharedData(name),
                        "\(TestData.sharedDataLocation(name).path) is absent (set TILTKIT_SHARED_DATA); under CI=true this fails instead")
    }
}
