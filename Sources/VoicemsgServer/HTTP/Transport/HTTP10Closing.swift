import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

extension HTTPServerBuilder {
    /// HTTP/1.1 as Hummingbird serves it, plus HTTP/1.0 as RFC 9112 wants it: a 1.0 request
    /// without `Connection: keep-alive` is answered in 1.0 and the connection closed after it.
    /// Hummingbird reads requests after they are converted to version-less HTTP types, so it
    /// would otherwise keep such a connection open. With `headTimeout`, a request's head must
    /// arrive whole within it (see `RequestHeadDeadline`).
    static func voicemsgHTTP1(
        configuration: HTTP1Channel.Configuration = .init(), headTimeout: TimeAmount? = nil
    ) -> HTTPServerBuilder {
        .init { responder in
            HTTP10ClosingChannel(
                base: HTTP1Channel(responder: responder, configuration: configuration), headTimeout: headTimeout)
        }
    }
}

/// Hummingbird's HTTP/1 child channel, with `HTTP10ConnectionHandler` right after the decoder,
/// and the request head's deadline watched on both sides of the decoder.
struct HTTP10ClosingChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let base: HTTP1Channel
    var headTimeout: TimeAmount?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let headTimeout = self.headTimeout
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let http10 = HTTP10ConnectionHandler()
            try operations.addHandler(http10, position: .after(decoder))
            if let headTimeout {
                let deadline = RequestHeadDeadline(timeout: headTimeout)
                try operations.addHandler(HeadBytesWatch(deadline), position: .before(decoder))
                try operations.addHandler(HeadArrivalWatch(deadline), position: .after(http10))
            }
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Marks an HTTP/1.0 request without keep-alive `Connection: close`, which makes Hummingbird
/// close the connection after answering, and answers it in HTTP/1.0 (no chunked encoding,
/// which a 1.0 client cannot read).
final class HTTP10ConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Requests read and not yet answered, oldest first: (is HTTP/1.0, keeps alive).
    private var pending: [(isHTTP10: Bool, keepAlive: Bool)] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let isHTTP10 = head.version == .http1_0
        pending.append((isHTTP10, head.isKeepAlive))
        if isHTTP10, !head.isKeepAlive {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Informational answers (100 Continue) come before the final one of the same request.
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200, !pending.isEmpty else {
            context.write(data, promise: promise)
            return
        }
        let request = pending.removeFirst()
        if request.isHTTP10 {
            head.version = .http1_0
            head.headers.replaceOrAdd(name: "connection", value: request.keepAlive ? "keep-alive" : "close")
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
