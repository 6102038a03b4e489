import Foundation

/// CPU seconds (user + system, every thread) this process has used, or its finished children have: on a
/// shared machine wall time mostly measures the neighbours, CPU time measures the work.
enum CPUTime {
    static func seconds(children: Bool = false) -> Double {
        var u = rusage()
        #if os(Linux)
        getrusage(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue, &u)
        #else
        getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &u)
        #endif
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }
}
