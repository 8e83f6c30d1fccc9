/// The TrueTrack toolkit as a whole.
public enum TrueTrack {
    /// The toolkit's version (semantic versioning): what `truetrack --version` prints, what the JSON reports of
    /// `truetrack bench` and `truetrack-benchmarks` record, and the sync client's `User-Agent`.
    public static let version = "0.1.0"
}
