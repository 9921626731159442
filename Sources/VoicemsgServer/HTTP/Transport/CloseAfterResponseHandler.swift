import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes the connection once a response that says `Connection: close` has been written.
///
/// Hummingbird closes a connection only when the request asked for it; a refused upload (413
/// after its lingering read) answers `Connection: close`, and this handler keeps that promise
/// once the response has gone out, so the client is not left on a connection the server no
/// longer wants.
final class CloseAfterResponseHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var closeAfterEnd = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            closeAfterEnd = head.headerFields[.connection]?.lowercased() == "close"
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            guard closeAfterEnd else {
                context.write(data, promise: promise)
                return
            }
            closeAfterEnd = false
            let written = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(data, promise: written)
            let channel = context.channel
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
            written.futureResult.cascade(to: promise)
        }
    }
}
