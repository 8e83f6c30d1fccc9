import Testing

@testable import TrueTrackCommandLine

/// What `truetrack sync` prints of a server's Retry-After beside the wait it takes.
@Suite struct SyncLineTests {
    @Test("says what became of the server's Retry-After")
    func retryAfterNote() {
        #expect(SyncCommand.retryAfterNote(asked: nil, wait: 0.9) == "")
        #expect(SyncCommand.retryAfterNote(asked: 2, wait: 2) == " (the server's Retry-After: 2.0 s)")
        // In the past, or negative: read as 0, no wait asked (it read "Retry-After: 0.0 s" beside a 0.9 s wait).
        #expect(
            SyncCommand.retryAfterNote(asked: 0, wait: 0.9)
                == " (the server's Retry-After asked for no wait: the backoff's)")
        // Longer than the policy's longest wait: cut, and said so.
        #expect(
            SyncCommand.retryAfterNote(asked: 100_000, wait: 300)
                == " (the server's Retry-After: 100000.0 s, cut to the longest wait)")
    }
}
