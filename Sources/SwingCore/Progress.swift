/// A progress callback: `fraction` in [0, 1] for the named stage. Must be cheap and thread-safe.
package typealias ProgressHandler = @Sendable (_ stage: String, _ fraction: Double) -> Void
