// The shared test helpers (Datasets) for every file of this target.
@_exported import TrueTrackTestSupport
