import Foundation
import TrueTrackCore

extension DatasetManifest.Recording {
    /// How to read this recording: the format and the options its manifest entry calls for.
    ///
    /// - `gnsslogger-fix (Provider=GPS)` reads only that provider's fixes (one GnssLogger file holds several);
    ///   `provider=gps` in any case is the same;
    /// - `hdop_scale` (``hdopScale``) says how the HDOP field is read; without it, an NMEA log whose notes say
    ///   the HDOP field is `EA/10` (Google's GnssAnalysis "chipset" files, whose shared manifest has no
    ///   structured field for it) reads HDOP as ``HDOPInterpretation/scaledAccuracy(metresPerUnit:)`` with 10 m
    ///   per unit (``accuracyScaleFromNotes``);
    /// - everything else by the first word of `format`, falling back to sniffing the file.
    ///
    /// A provider name TrueTrack does not know reads as ``Provider/other`` here: ``DatasetManifest/readingPlan(of:)``
    /// refuses it, naming the entry.
    public var readingPlan: (format: FixFormat?, options: ReadOptions) {
        var options = ReadOptions()
        let fixFormat = declaredFormat
        if let name = providerName { options.providers = [Provider(name: name)] }
        if let hdopScale {
            options.hdop = hdopScale.interpretation
        } else if accuracyScaleFromNotes {
            options.hdop = .scaledAccuracy(metresPerUnit: 10)
        }
        return (fixFormat, options)
    }

    /// The format `format`'s first word names (`nil`: sniff the file).
    public var declaredFormat: FixFormat? {
        // (A trailing hyphen is the start of a version: "nmea-0183" is NMEA, a reviewer's.)
        var word = format.lowercased().prefix { $0.isLetter || $0 == "-" }
        while word.hasSuffix("-") { word = word.dropLast() }
        switch word {
        case "nmea": return .nmea
        case "gpx": return .gpx
        case "csv", "gsdc-ground-truth-csv", "gsdc-2021-ground-truth-csv": return .csv
        case "gnsslogger-fix": return .gnssLogger
        case "ipin-getsensordata": return .ipin
        case "geolife-plt": return .geolife
        case "geojson": return .geojson
        default: return FixFormat(name: String(word))
        }
    }

    /// The provider `format` names after `Provider=` (in any case), if any.
    public var providerName: String? {
        guard let range = format.range(of: "provider=", options: .caseInsensitive) else { return nil }
        // (Letters, digits, `_` and `-`: `ground_truth` was cut to 'ground'.)
        return String(format[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
    }

    /// True when the HDOP field is read as accuracy / 10 m only because ``notes`` say `EA/10` (an NMEA log
    /// without `hdop_scale`): `truetrack bench` says so.
    public var accuracyScaleFromNotes: Bool {
        hdopScale == nil && declaredFormat == .nmea && notes?.contains("EA/10") == true
    }
}

extension DatasetManifest {
    /// The reading plan of `recording` (``Recording/readingPlan``), checked.
    /// - Throws: ``ReadError/unsupportedFormat(path:reason:)`` naming `MANIFEST.json`, the entry and its `format` when the
    ///   format names a provider TrueTrack does not know (`Provider=FPL` read every provider's fixes).
    public func readingPlan(of recording: Recording) throws(ReadError) -> (format: FixFormat?, options: ReadOptions) {
        if let name = recording.providerName, Provider(knownName: name) == nil {
            // (An empty `Provider=` kept only the fixes without a provider, silently: a reviewer's.)
            throw .unsupportedFormat(
                path: path,
                reason: "\(recording.entryName).format \"\(recording.format)\": "
                    + (name.isEmpty ? "Provider= names no provider" : "unknown provider '\(name)'")
                    + " (expected one of: \(Provider.knownNames))")
        }
        return recording.readingPlan
    }
}
