import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a file operation failed, in the system's words.
public enum SystemErrorReason {
    /// The system's reason for `error` ("No such file or directory", "Not a directory"): Foundation's own message on
    /// Linux says only "The operation could not be completed", and keeps the system's error underneath it.
    public static func describe(_ error: any Error) -> String {
        // Foundation keeps the underlying error as a Swift `POSIXError`, which `as? NSError` does not match on Linux.
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? Error
        let cause = (underlying ?? error) as NSError
        if cause.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(cause.code))) }
        return error is CocoaError ? cause.localizedDescription : "\(error)"
    }
}
