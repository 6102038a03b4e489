import Foundation

/// Collects what a callback is told from any thread (progress reports come from the working task, not the
/// test's), in order.
package final class CallbackLog<Element: Sendable>: @unchecked Sendable {   // `items` guarded by `lock`
    private let lock = NSLock()
    private var items: [Element] = []
    package init() {}
    /// Records one call.
    package func add(_ item: Element) { lock.lock(); items.append(item); lock.unlock() }
    /// The last call's value, `nil` before any.
    package var last: Element? { lock.lock(); defer { lock.unlock() }; return items.last }
    /// Every call's value, in order.
    package var all: [Element] { lock.lock(); defer { lock.unlock() }; return items }
}
