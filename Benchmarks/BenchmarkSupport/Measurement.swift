import Foundation

#if os(Linux)
    let RUSAGE_SELF_WHO = __rusage_who_t(RUSAGE_SELF.rawValue)
#else
    let RUSAGE_SELF_WHO = RUSAGE_SELF
#endif

/// Timing and memory measurement helpers (shared by both benchmark executables).
public enum Measurement {
    /// Monotonic time in seconds.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// This process's peak resident set size in bytes.
    ///
    /// On Linux this is `VmHWM` from `/proc/self/status`: `getrusage`'s `ru_maxrss` survives `execve`, so a
    /// child started by this benchmark would report its parent's peak (the 64 MiB reference buffer) instead
    /// of its own. Elsewhere `getrusage` (bytes on Darwin).
    public static func peakResidentBytes() -> Int {
        #if os(Linux)
            if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kib = Int(line.split(separator: " ").dropFirst().first ?? "")
            {
                return kib * 1024
            }
        #endif
        var usage = rusage()
        getrusage(RUSAGE_SELF_WHO, &usage)
        #if os(Linux)
            return Int(usage.ru_maxrss) * 1024
        #else
            return Int(usage.ru_maxrss)
        #endif
    }

    /// CPU time (user + system) this process has used, in seconds: less disturbed than wall time by other
    /// work on a shared 2-core machine.
    public static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF_WHO, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// Median, minimum and maximum of `values`.
    public static func summary(_ values: [Double]) -> (median: Double, min: Double, max: Double) {
        let sorted = values.sorted()
        let mid = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
        return (median, sorted.first ?? 0, sorted.last ?? 0)
    }
}
