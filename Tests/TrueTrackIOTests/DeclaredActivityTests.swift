import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackIO

/// The activity a GPX or TCX file declares, and the profile it names.
@Suite struct DeclaredActivityTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func readsTheFirstTracksTypeBeforeItsPoints() {
        let gpx = """
            <gpx><metadata><name>x</name></metadata><trk><name>Morning Ride</name><type> cycling </type>
            <trkseg><trkpt lat="1" lon="2"><type>running</type></trkpt></trkseg></trk></gpx>
            """
        #expect(DeclaredActivity.find(in: Self.bytes(gpx)) == "cycling")
        // A <type> inside a point (or after the first point) is not the track's.
        let late = "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg><type>running</type></trk></gpx>"
        #expect(DeclaredActivity.find(in: Self.bytes(late)) == nil)
        // A waypoint's or route's <type> before any track says nothing.
        #expect(
            DeclaredActivity.find(in: Self.bytes("<gpx><wpt lat=\"1\" lon=\"2\"><type>cafe</type></wpt></gpx>")) == nil)
        #expect(DeclaredActivity.find(in: Self.bytes("<gpx><trk><type><![CDATA[Hiking]]></type></trk>")) == "Hiking")
        // GPX 1.1 puts a track's <link> (with a MIME <type>) before its own <type>.
        let linked =
            "<gpx><trk><name>r</name><link href=\"x\"><text>t</text><type>text/html</type></link>"
            + "<type>cycling</type><trkseg>"
        #expect(DeclaredActivity.find(in: Self.bytes(linked)) == "cycling")
    }

    /// The type's character references are read (a written GPX escapes the text), unknown ones kept as written.
    @Test func readsCharacterReferencesInTheType() {
        #expect(
            DeclaredActivity.find(in: Self.bytes("<gpx><trk><type>Car &amp; bus &#233;t&#xE9; &lt;1&gt;</type>"))
                == "Car & bus été <1>")
        #expect(DeclaredActivity.find(in: Self.bytes("<gpx><trk><type>A &nbsp; B &amp</type>")) == "A &nbsp; B &amp")
        #expect(DeclaredActivity.find(in: Self.bytes("<gpx><trk><type>&#x110000;</type>")) == "&#x110000;")
    }

    @Test func readsTheSportOfATCXActivity() {
        let tcx = "<TrainingCenterDatabase><Activities><Activity Sport=\"Biking\"><Id>2024</Id>"
        #expect(DeclaredActivity.find(in: Self.bytes(tcx)) == "Biking")
        #expect(DeclaredActivity.find(in: Self.bytes("<Activities><Activity Sport='Running'>")) == "Running")
    }

    @Test func namesAProfileForTheCommonTypes() {
        let cases: [(String, TrackingProfile.Kind?)] = [
            ("cycling", .cycling), ("Biking", .cycling), ("road_biking", .cycling), ("Ride", .cycling),
            ("VirtualRide", .cycling), ("mountain-biking", .cycling), ("e_bike_ride", .cycling),
            ("running", .running), ("trail_running", .running), ("Run", .running), ("jogging", .running),
            ("walking", .walking), ("Hiking", .walking), ("hike", .walking),
            ("motorcycling", .driving), ("driving", .driving), ("car", .driving), ("automotive", .driving),
            ("Car ride", .driving), ("bus_ride", .driving), ("1", .cycling), ("9", .running), ("Other", nil),
            ("Boat ride", nil), ("Horse ride", nil), ("Rundfahrt", nil), ("TrailRun", .running),
            ("treadmill_running", .running), ("VirtualRun", .running),
            ("swimming", nil), ("cardio", nil), ("Override", nil), ("12", nil), ("", nil),
        ]
        for (declared, kind) in cases {
            #expect(DeclaredActivity.profileKind(declared) == kind, "\(declared)")
        }
    }

    @Test func readsNothingFromStandardInputOrAMissingFile() {
        #expect(DeclaredActivity.type(ofFileAt: "-") == nil)
        #expect(DeclaredActivity.type(ofFileAt: "/nonexistent/ride.gpx") == nil)
    }
}
