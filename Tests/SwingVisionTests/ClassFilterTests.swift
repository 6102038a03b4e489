import Foundation
import SwingCore
import Testing
import SwingVision

@Suite struct ClassFilterTests {
    static let names = [0: "person", 1: "sports ball", 2: "tennis racket", 3: "it's \"odd\""]

    @Test func acceptsIdsNamesAndMixes() throws {
        #expect(try ClassFilter.parse("0,2", names: Self.names) == [0, 2])
        #expect(try ClassFilter.parse(" sports ball , 0 ", names: Self.names) == [0, 1])
        #expect(try ClassFilter.parse("Tennis Racket", names: Self.names) == [2])
        #expect(try ClassFilter.parse("it's \"odd\"", names: Self.names) == [3])
    }

    @Test(arguments: ["7", "-1", "dog", "", " , "])
    func rejectsWhatTheModelLacks(_ text: String) {
        do {
            _ = try ClassFilter.parse(text, names: Self.names)
            Issue.record("\(text) was accepted")
        } catch let error as VisionError {
            #expect(error.statusCode == StatusCode.invalidClassFilter)
            #expect(error.description.contains("--classes"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
