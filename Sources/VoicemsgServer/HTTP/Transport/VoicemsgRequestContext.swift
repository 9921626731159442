import Hummingbird
import HummingbirdAuth
import NIOCore

/// Hummingbird's request context, plus the bearer credential the authenticator found and the
/// client's address (run creation is rate-limited per address).
public struct VoicemsgRequestContext: AuthRequestContext, RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: BearerCredential?
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        identity = nil
        remoteAddress = source.channel.remoteAddress
    }

    /// The limit of a JSON body: far above any valid one (a title is at most 800 bytes, the rest
    /// are numbers). Uploads do not go through it: they stream to the spool, under their own
    /// limit (`APIConfiguration.maxUploadBytes`).
    public var maxUploadSize: Int { 64 * 1024 }

    public var requestDecoder: JSONRequestDecoder { JSONRequestDecoder() }
}
