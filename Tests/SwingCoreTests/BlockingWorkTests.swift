import Foundation
import Testing
@testable import SwingCore

/// `BlockingWork` runs work that holds a thread (an analysis, a copy) off Swift's cooperative pool: the rest of
/// the process keeps answering while it runs, and cancelling the caller stops it.
@Suite struct BlockingWorkTests {
    /// More works than the machine has cores all run at once, each holding its thread until every one has
    /// started: on the cooperative pool (one thread per core, shared with every other task of the process) the
    /// last ones could not start until the first let go, and the barrier would time out (after two minutes:
    /// starting each work needs a pool thread for a moment, which other suites running at once may hold).
    @Test func moreBlockedWorksThanCoresRunTogether() async throws {
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let barrier = Barrier(count)
        let met = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<count { group.addTask { try await BlockingWork.run { barrier.arriveAndWait(seconds: 120) } } }
            var all: [Bool] = []
            for try await m in group { all.append(m) }
            return all
        }
        #expect(met == Array(repeating: true, count: count), "\(met.filter { !$0 }.count) of \(count) works never ran together")
    }

    /// The work runs on a thread with no Swift task (so it holds none of the pool's).
    @Test func workRunsOutsideAnyTask() async throws {
        let inTask = try await BlockingWork.run { withUnsafeCurrentTask { $0 != nil } }
        #expect(!inTask)
    }

    /// Cancelling the calling task is seen by the work as `Cancellation.isRequested`, which stops it; the
    /// call returns only when the work has. The time is taken on the work's own thread: the test's own resumption
    /// waits for a pool thread, which other suites running at once may hold for seconds.
    @Test func cancellingTheCallerStopsTheWork() async throws {
        let finished = Flag()
        let seen = Stamp()
        let task = Task {
            try await BlockingWork.run { () throws -> Int in
                var rounds = 0
                while !Cancellation.isRequested {
                    rounds += 1
                    if rounds > 2_000 { break }   // 20 s: the request never came
                    Thread.sleep(forTimeInterval: 0.01)
                }
                seen.set()
                finished.set()
                if Cancellation.isRequested { throw CancellationError() }
                return rounds
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        let asked = Date()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(finished.isSet)
        let took = try #require(seen.value).timeIntervalSince(asked)
        #expect(took < 2, "the work saw the request \(took) s after it was made")
    }

    /// A request made before the work starts stops it at its first question; one made on a parent reaches
    /// the work started under it; a given request cancels from outside the task (as Ctrl-C does).
    @Test func requestsReachTheWorkFromEveryWhere() async throws {
        let early = Cancellation()
        early.cancel()
        #expect(try await BlockingWork.run(cancellation: early) { Cancellation.isRequested })

        let parent = Cancellation()
        let nested = try await BlockingWork.run(cancellation: parent) { () -> Cancellation? in
            Cancellation.current
        }
        let child = Cancellation(parent: nested)
        #expect(!child.isCancelled)
        parent.cancel()
        #expect(child.isCancelled)

        let outside = Cancellation()
        let ran = Task {
            try await BlockingWork.run(cancellation: outside) { () -> Bool in
                let deadline = Date().addingTimeInterval(20)
                while !Cancellation.isRequested && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
                return Cancellation.isRequested
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        outside.cancel()
        #expect(try await ran.value)
        #expect(!Cancellation.isRequested, "the request stays with the work's thread")
    }

    /// What the work throws comes back to the caller unchanged; actions attached after the request run at once.
    @Test func errorsAndLateActions() async throws {
        struct Refused: Error, Equatable { var why: String }
        await #expect(throws: Refused(why: "bad input")) {
            try await BlockingWork.run { () throws -> Int in throw Refused(why: "bad input") }
        }
        let c = Cancellation()
        let ran = Flag()
        c.cancel()
        c.cancel()
        c.onCancel { ran.set() }
        #expect(ran.isSet)
    }
}

/// A flag set from any thread.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}

/// Lets `count` threads past once all of them have arrived.
private final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: Int
    init(_ count: Int) { waiting = count }
    /// `false` when the others did not all arrive within `seconds`.
    func arriveAndWait(seconds: Double) -> Bool {
        condition.lock(); defer { condition.unlock() }
        waiting -= 1
        if waiting == 0 { condition.broadcast(); return true }
        let deadline = Date().addingTimeInterval(seconds)
        while waiting > 0 { if !condition.wait(until: deadline) { return false } }
        return true
    }
}

/// The moment something happened, set from any thread.
private final class Stamp: @unchecked Sendable {
    private let lock = NSLock()
    private var date: Date?
    func set() { lock.lock(); if date == nil { date = Date() }; lock.unlock() }
    var value: Date? { lock.lock(); defer { lock.unlock() }; return date }
}
