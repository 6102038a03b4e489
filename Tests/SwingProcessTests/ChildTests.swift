import Foundation
import SwingTestSupport
import Testing

/// The limits of the one process helper (``Child``, ``Subprocess``, ``Poll``), on a ``ManualClock``: a child
/// that outlives its limit is ended when the limit passes on the clock (not on the wall clock), one that ends in
/// time is left alone, a child that ignores SIGTERM gets SIGKILL after its grace, and a poll gives up when its
/// limit passes. Every test ends in seconds of real time whatever limit it sets.
@Suite struct ChildTests {
    /// Real seconds since `start`.
    private func elapsed(_ start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    @Test func aRunThatOutlivesItsLimitIsEndedWhenTheClockPassesIt() async throws {
        let clock = ManualClock(), start = ContinuousClock.now
        async let run = Subprocess.run("sleep", ["60"], timeout: 600, clock: clock)
        #expect(await clock.waitForSleepers(), "the run never waited on the clock")
        #expect(elapsed(start) < 30)
        clock.advance(by: .seconds(599))
        try await Task.sleep(for: .milliseconds(200))
        #expect(clock.sleeping == 1, "the run ended before its limit")
        clock.advance(by: .seconds(1))
        let outcome = try await run
        #expect(outcome.timedOut && outcome.signalled && outcome.status == SIGTERM, "\(outcome)")
        #expect(!outcome.succeeded)
        #expect(elapsed(start) < 30, "the limit was kept on the wall clock")
    }

    @Test func aRunThatEndsInTimeIsNotTimedOut() async throws {
        let clock = ManualClock()
        let outcome = try await Subprocess.run("sh", ["-c", "echo out; echo err >&2; exit 3"], timeout: 1, clock: clock)
        #expect(!outcome.timedOut && !outcome.signalled && outcome.status == 3)
        #expect(String(decoding: outcome.stdout, as: UTF8.self) == "out\n" && outcome.stderr == "err\n")
        clock.advance(by: .seconds(10))
        #expect(clock.sleeping == 0, "a finished run left a sleeper on the clock")
    }

    @Test func aChildThatIgnoresSIGTERMIsKilledAfterItsGrace() async throws {
        let clock = ManualClock()
        // The shell ignores SIGTERM, and so does the `sleep` it starts (an ignored signal stays ignored across exec).
        let child = try Child("sh", ["-c", "trap '' TERM; echo ready; while :; do sleep 1; done"], output: .pipe)
        #expect(await child.line(within: .seconds(30)) == "ready")
        async let end = child.stop(SIGTERM, grace: .seconds(30), clock: clock)
        #expect(await clock.waitForSleepers())
        #expect(child.isRunning, "SIGTERM ended a child that ignores it")
        clock.advance(by: .seconds(30))
        let termination = await end
        #expect(termination == Child.Termination(status: SIGKILL, signalled: true), "\(termination)")
        #expect(!child.isRunning)
    }

    @Test func aServerThatNeverSaysItsPortIsGivenUpOnAtTheLimit() async throws {
        let clock = ManualClock()
        let child = try Child("sleep", ["60"], output: .pipe)
        async let line = child.line(within: .seconds(30), clock: clock)
        #expect(await clock.waitForSleepers())
        clock.advance(by: .seconds(30))
        #expect(await line == nil)
        #expect(await child.stop(grace: .seconds(10)).signalled)
    }

    /// Foundation on Linux hears a child's end when a socket it gave the child closes, and the child's own children
    /// inherit it: a shell that starts something in the background and exits looked alive for as long as that ran.
    @Test func theEndIsHeardWhenTheChildExitsThoughItsOwnChildLivesOn() async throws {
        let start = ContinuousClock.now
        let outcome = try await Subprocess.run("sh", ["-c", "sleep 60 & echo $!; exit 3"], timeout: 120)
        let grandchild = Int32(String(decoding: outcome.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        if let grandchild, grandchild > 1 { kill(grandchild, SIGTERM) }   // the `sleep` this test started, by its PID
        #expect(outcome.status == 3 && !outcome.signalled && !outcome.timedOut, "\(outcome)")
        #expect(elapsed(start) < 30, "the end was heard after \(elapsed(start)) s, with the background sleep")
        #expect(grandchild != nil)
    }

    /// A child holds its three standard streams and nothing else of ours: an open pipe of this process's (made
    /// without close-on-exec, as Foundation's are) in a child's hands keeps that pipe's reader from seeing its end.
    @Test func aChildHoldsOnlyItsStandardStreams() async throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)   // inheritable, as another part of the process might leave one
        defer { close(fds[0]); close(fds[1]) }
        let out = try await Subprocess.output("sh", ["-c", "ls /proc/$$/fd"])
        let open = Set(String(decoding: out, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init))
        #if os(Linux)
        #expect(open == ["0", "1", "2"], "the child holds \(open.sorted())")
        #endif
    }

    /// Output sent to `FileHandle.nullDevice` (which has no descriptor on Linux) is thrown away, not left on ours.
    @Test func outputSentToTheNullDeviceIsThrownAway() async throws {
        // (Python, not a shell: dash moves its own descriptors around for a redirection.)
        let written = try await Subprocess.run("python3", ["-c", "import os, sys; print('out'); sys.stderr.write(os.readlink('/proc/self/fd/1'))"],
                                               standardOutput: .nullDevice)
        #expect(written.succeeded && written.stdout.isEmpty)
        #if os(Linux)
        #expect(written.stderr.contains("/dev/null"), "the child's stdout: \(written.stderr)")
        #endif
    }

    /// A child's CPU time is its own work, not the wall clock: a second of sleep costs almost none, a busy loop a lot.
    @Test func aChildsCPUTimeIsItsWorkNotTheWallClock() async throws {
        let idle = try await Subprocess.run("sleep", ["1"])
        let busy = try await Subprocess.run("sh", ["-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done"])
        #expect(idle.succeeded && busy.succeeded)
        #if os(Linux)
        let idleCPU = try #require(idle.cpuSeconds), busyCPU = try #require(busy.cpuSeconds)
        #expect(idle.seconds >= 1 && idleCPU < 0.5, "sleep 1: \(idle.seconds) s wall, \(idleCPU) s CPU")
        #expect(busyCPU > idleCPU + 0.1, "the busy loop used \(busyCPU) s CPU, the sleep \(idleCPU) s")
        #endif
    }

    @Test func aPollReturnsTheFirstValueItFinds() async {
        let clock = ManualClock(), calls = Counter()
        async let found = Poll.until(within: .seconds(60), every: .seconds(1), clock: clock) { calls.next() == 3 ? "third" : nil }
        for _ in 0..<2 {
            #expect(await clock.waitForSleepers())
            clock.advance(by: .seconds(1))
        }
        #expect(await found == "third")
        #expect(calls.value == 3)
        #expect(clock.sleeping == 0)
    }

    @Test func aPollGivesUpWhenItsLimitPassesAndNeverSleepsPastIt() async {
        let clock = ManualClock(), calls = Counter()
        async let found = Poll.until(within: .seconds(10), every: .seconds(4), clock: clock) { () -> Int? in
            _ = calls.next()
            return nil
        }
        // Checks at 0, 4 and 8 s, then the last sleep is cut to the 2 s left, and the check at 10 s is the last.
        for step in [4, 4, 2] {
            #expect(await clock.waitForSleepers())
            clock.advance(by: .seconds(step))
        }
        #expect(await found == nil)
        #expect(calls.value == 4)
        #expect(clock.sleeping == 0)
    }
}

/// A count shared with a `@Sendable` check.
private final class Counter: @unchecked Sendable {   // `count` guarded by `lock`
    private let lock = NSLock()
    private var count = 0
    /// Counts one more call and returns the new count.
    func next() -> Int { lock.withLock { count += 1; return count } }
    var value: Int { lock.withLock { count } }
}
