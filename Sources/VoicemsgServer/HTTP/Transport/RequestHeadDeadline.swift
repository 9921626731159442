import NIOCore
import NIOHTTP1

/// nginx's `client_header_timeout`: a request's head must arrive whole within `timeout` of its
/// first byte, or the connection is closed.
///
/// Hummingbird's idle timeout counts from the last decoded part, so it closes a trickled head
/// too, but only after the whole allowance a kept-alive connection gets between requests (30 s
/// by default): a head sent a byte every 250 ms lasts until the idle timeout. The head gets its
/// own, shorter bound. The clock starts at the first byte read while a head is awaited (a new connection's, or the
/// next one on a kept-alive connection) and stops when the decoder has the whole head; a body
/// and the time an answer takes (a long poll's 25 s) are not counted. Bytes of a next request
/// that arrive in the same read as the previous one's end start its clock at the next read.
///
/// Two handlers share it: `HeadBytesWatch` before the HTTP decoder sees the bytes arrive,
/// `HeadArrivalWatch` after it sees the head complete. Both run on the channel's event loop.
final class RequestHeadDeadline {
    let timeout: TimeAmount
    fileprivate var awaitingHead = true
    fileprivate var timer: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    fileprivate func stop() {
        timer?.cancel()
        timer = nil
    }
}

/// Starts the head's clock at its first byte; passes the bytes on untouched.
final class HeadBytesWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let deadline: RequestHeadDeadline

    init(_ deadline: RequestHeadDeadline) {
        self.deadline = deadline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if deadline.awaitingHead, deadline.timer == nil {
            let channel = context.channel
            deadline.timer = context.eventLoop.scheduleTask(in: deadline.timeout) {
                channel.close(promise: nil)
            }
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline.stop()
        context.fireChannelInactive()
    }
}

/// Stops the clock when the head is whole; the request's end makes the next head awaited.
final class HeadArrivalWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let deadline: RequestHeadDeadline

    init(_ deadline: RequestHeadDeadline) {
        self.deadline = deadline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline.awaitingHead = false
            deadline.stop()
        case .body:
            break
        case .end:
            deadline.awaitingHead = true
        }
        context.fireChannelRead(data)
    }
}
