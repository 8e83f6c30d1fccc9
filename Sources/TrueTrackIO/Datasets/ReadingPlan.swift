import TrueTrackCore

extension DatasetManifest.Recording {
    /// How to read this recording: the format and the options its manifest entry calls for.
    ///
    /// - `gnsslogger-fix (Provider=GPS)` reads only that provider's fixes (one GnssLogger file holds several);
    /// - NMEA exports whose notes say the HDOP field is accuracy/10 (Google's GnssAnalysis "chipset" files)
    ///   read HDOP as ``HDOPInterpretation/scaledAccuracy(metresPerUnit:)`` with 10 m per unit;
    /// - everything else by the first word of `format`, falling back to sniffing the file.
    public var readingPlan: (format: FixFormat?, options: ReadOptions) {
        var options = ReadOptions()
        let word = format.lowercased().prefix { $0.isLetter || $0 == "-" }
        var fixFormat: FixFormat?
        switch word {
        case "nmea": fixFormat = .nmea
        case "gpx": fixFormat = .gpx
        case "csv", "gsdc-ground-truth-csv", "gsdc-2021-ground-truth-csv": fixFormat = .csv
        case "gnsslogger-fix": fixFormat = .gnssLogger
        case "ipin-getsensordata": fixFormat = .ipin
        case "geolife-plt": fixFormat = .geolife
        case "geojson": fixFormat = .geojson
        default: fixFormat = FixFormat(name: String(word))
        }
        if let range = format.range(of: "Provider=") {
            let name = format[range.upperBound...].prefix { $0.isLetter }
            options.providers = [Provider(name: String(name))]
        }
        if fixFormat == .nmea, let notes, notes.contains("EA/10") {
            options.hdop = .scaledAccuracy(metresPerUnit: 10)
        }
        return (fixFormat, options)
    }
}
