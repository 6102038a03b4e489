// Elementary functions without importing Foundation into every pure-Swift file; one place per platform.
#if canImport(Glibc)
import Glibc
@inline(__always) func _cos(_ x: Double) -> Double { Glibc.cos(x) }
@inline(__always) func _sin(_ x: Double) -> Double { Glibc.sin(x) }
@inline(__always) func _log(_ x: Double) -> Double { Glibc.log(x) }
@inline(__always) func _exp(_ x: Double) -> Double { Glibc.exp(x) }
#elseif canImport(Darwin)
import Darwin
@inline(__always) func _cos(_ x: Double) -> Double { Darwin.cos(x) }
@inline(__always) func _sin(_ x: Double) -> Double { Darwin.sin(x) }
@inline(__always) func _log(_ x: Double) -> Double { Darwin.log(x) }
@inline(__always) func _exp(_ x: Double) -> Double { Darwin.exp(x) }
#else
import Foundation
@inline(__always) func _cos(_ x: Double) -> Double { Foundation.cos(x) }
@inline(__always) func _sin(_ x: Double) -> Double { Foundation.sin(x) }
@inline(__always) func _log(_ x: Double) -> Double { Foundation.log(x) }
@inline(__always) func _exp(_ x: Double) -> Double { Foundation.exp(x) }
#endif
