import Foundation
import Hummingbird
import SwingCore
import SwingPipeline

/// An API failure: an HTTP status and one sentence, sent as `{"error": sentence, "code": n}` where `code`
/// is the CLI's exit code for the same failure (or the HTTP status when there is none).
package struct APIError: Error, Sendable, HTTPResponseError {
    package var status: HTTPResponse.Status
    package var message: String
    package var code: Int

    package init(_ status: HTTPResponse.Status, _ message: String, code: Int? = nil) {
        self.status = status; self.message = message; self.code = code ?? status.code
    }

    /// The engine's error as the API reports it (``StatusCode/blame(of:)``): invalid media, models, thresholds,
    /// edits and interpreter input are 422, a missing thing 404, a lost race 409, the rest 500.
    package init(_ error: any UserFacingError) {
        if let refusal = error as? RequestError {
            self.init(refusal)
            return
        }
        let status: HTTPResponse.Status = switch StatusCode.blame(of: error.statusCode) {
        case .missing: .notFound
        case .conflict: .conflict
        case .input: .unprocessableContent
        case .server: .internalServerError
        }
        self.init(status, error.description, code: Int(error.statusCode))
    }

    /// The application's refusal as the API reports it: its kind decides the status, and `code` is its exit
    /// code where it has one, else the status.
    package init(_ error: RequestError) {
        let status: HTTPResponse.Status = switch error.kind {
        case .invalid: .badRequest
        case .notFound: .notFound
        case .unprocessable: .unprocessableContent
        case .busy: .tooManyRequests
        case .conflict: .conflict
        case .gone: .gone
        }
        self.init(status, error.message, code: error.code.map(Int.init))
    }

    package var headers: HTTPFields { [.contentType: "application/json; charset=utf-8"] }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONResponse.encoder.encode(APIErrorBody(error: message, code: code))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The JSON of every API error.
struct APIErrorBody: Codable, Sendable { var error: String; var code: Int }

/// JSON responses with the API's encoder (sorted keys, ISO 8601 dates).
enum JSONResponse {
    static let encoder: JSONEncoder = {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        enc.dateEncodingStrategy = .iso8601
        return enc
    }()

    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        bytes(try encoder.encode(value), status: status)
    }

    static func bytes(_ data: Data, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
