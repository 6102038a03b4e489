#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Wall-clock and CPU seconds spent in one kind of work, summed over its occurrences (and over
/// workers with `+`): what the analysis reports per part of its pose stage.
///
/// ``cpu`` is the calling thread's CPU time only; work handed to other threads (FFmpeg's frame
/// threads, ONNX Runtime's intra-op pool) is in ``wall`` but not in ``cpu``. With one decoding
/// thread and single-threaded sessions — the analysis' parallel workers — the two agree unless the
/// thread waited for a core.
package struct StageTime: Sendable, Equatable {
    /// Wall-clock seconds.
    package var wall: Double
    /// CPU seconds of the thread that did the work.
    package var cpu: Double

    package init(wall: Double = 0, cpu: Double = 0) {
        self.wall = wall
        self.cpu = cpu
    }

    package static func + (a: StageTime, b: StageTime) -> StageTime {
        StageTime(wall: a.wall + b.wall, cpu: a.cpu + b.cpu)
    }

    package static func - (a: StageTime, b: StageTime) -> StageTime {
        StageTime(wall: a.wall - b.wall, cpu: a.cpu - b.cpu)
    }

    package static func += (a: inout StageTime, b: StageTime) { a = a + b }

    /// Runs `body` and adds its wall and thread-CPU time to this one.
    /// - Complexity: two clock reads of each kind (well under a microsecond each) around `body`.
    package mutating func measure<T>(_ body: () throws -> T) rethrows -> T {
        let start = Self.now()
        defer { self += Self.now() - start }
        return try body()
    }

    /// The current wall clock (monotonic) and this thread's CPU clock, seconds.
    package static func now() -> StageTime {
        var ts = timespec()
        let cpu = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0 ? Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9 : 0
        return StageTime(wall: Double(DispatchTime.now().uptimeNanoseconds) / 1e9, cpu: cpu)
    }
}
