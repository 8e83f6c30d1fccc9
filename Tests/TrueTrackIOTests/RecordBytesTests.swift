import Testing
import TrueTrackCore
import TrueTrackIO

/// A record formatted in a sink's scratch storage (``RecordBytes``, ``ByteSink/appendRecord(_:)``).
@Suite struct RecordBytesTests {
    /// Every kind of field, a one-character static string among them (stored without a pointer: its bytes must be
    /// read through `withUTF8Buffer`), appended as one record.
    @Test func writesEveryKindOfFieldIntoOneRecord() throws {
        let sink = ByteSink(memoryNamed: "<test>")
        sink.appendRecord { r in
            r.put("x" as StaticString)
            r.put("<ele>" as StaticString)
            r.put(UInt8(ascii: ","))
            r.put("gps")
            r.put(UInt8(ascii: ","))
            r.put(-12.5)
            r.put(UInt8(ascii: ","))
            r.put(Int64(-7))
            r.put(UInt8(ascii: ","))
            r.put(Timestamp(millisecondsSince1970: 1_700_000_000_250))
        }
        try sink.flush()
        let text = String(decoding: sink.memory ?? [], as: UTF8.self)
        #expect(text == "x<ele>,gps,-12.5,-7,2023-11-14T22:13:20.250Z")
    }
}
