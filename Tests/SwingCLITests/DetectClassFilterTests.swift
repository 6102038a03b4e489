import Foundation
import SwingCore
import Testing
@testable import SwingCLI

@Suite struct DetectClassFilterTests {
    static let names = [0: "person", 1: "sports ball", 2: "tennis racket", 3: "it's \"odd\""]

    @Test func acceptsIdsNamesAndMixes() throws {
        #expect(try DetectClassFilter.parse("0,2", names: Self.names) == [0, 2])
        #expect(try DetectClassFilter.parse(" sports ball , 0 ", names: Self.names) == [0, 1])
        #expect(try DetectClassFilter.parse("Tennis Racket", names: Self.names) == [2])
        #expect(try DetectClassFilter.parse("it's \"odd\"", names: Self.names) == [3])
    }

    @Test(arguments: ["7", "-1", "dog", "", " , "])
    func rejectsWhatTheModelLacks(_ text: String) {
        do {
            _ = try DetectClassFilter.parse(text, names: Self.names)
            Issue.record("\(text) was accepted")
        } catch let error as CLIError {
            #expect(error.statusCode == StatusCode.invalidClassFilter)
            #expect(error.description.contains("--classes"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
