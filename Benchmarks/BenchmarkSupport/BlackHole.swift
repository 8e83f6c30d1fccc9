/// Keeps a benchmark's result alive so the optimiser cannot delete the work that produced it.
///
/// It lives in its own module on purpose: a sink in the benchmark's own module is inlined and the loop
/// it should protect optimised away (measured on this machine; see docs/ARCHITECTURE.md).
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
