import AudioPipeline
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware: headers every answer carries, and a log line for every refusal.
///
/// - Every answer, errors included, has `X-Content-Type-Options: nosniff`.
/// - API answers (`/v1/…`) that set no cache policy of their own get `Cache-Control: no-store`:
///   they depend on a bearer token, and some carry new tokens (a run's, a sender's).
/// - A HEAD answer keeps the length of the GET body it stands for.
/// - A 4xx or 5xx answer is logged at info (5xx at error) with its status, method and route
///   pattern (`/v1/messages/{id}`), never the path's ids, the query or a header, so no token
///   reaches the log.
struct ResponseHardening<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch let error as StoreError where error.code == .storageFull {
            // Any write the full disk refused (a delete too: SQLite needs room in its WAL to
            // record it) rolled back whole: 507, as an upload gets, not an internal error.
            context.logger.error("the database's disk is full: \(PrintableText.escaped(String(reflecting: error)))")
            response = try Self.storageFull.response(from: request, context: context)
        } catch {
            // Hummingbird would answer an empty 500 and log nothing; the cause goes to the log
            // (escaped: it may quote stored text), the client gets a line it can report.
            context.logger.error("internal error: \(PrintableText.escaped(String(reflecting: error)))")
            response = try HTTPError(.internalServerError, message: "internal error; the server log has the cause")
                .response(from: request, context: context)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        if request.uri.path.hasPrefix("/v1/"), response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = "no-store"
        }
        if request.method == .head, response.headers[.contentLength] == nil, let length = response.body.contentLength {
            response.headers[.contentLength] = "\(length)"
        }
        if response.status.code >= 400 {
            let metadata: Logger.Metadata = [
                "status": "\(response.status.code)", "method": "\(request.method.rawValue)",
                "route": "\(context.endpointPath ?? "unknown")",
            ]
            if response.status.code >= 500 {
                context.logger.error("request failed", metadata: metadata)
            } else {
                context.logger.info("request refused", metadata: metadata)
            }
        }
        return response
    }

    /// 507 for a change other than an upload: it rolled back, so nothing changed.
    static var storageFull: HTTPError {
        HTTPError(
            HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"),
            message: "the server's disk is full; nothing was changed; try again once space is freed")
    }
}
