import AudioPipeline
import Foundation

/// Everything `buildApplication` needs to put a server together, each part with the default the
/// command line shows (`voicemsg serve --help` reads them from here).
public struct ServerConfiguration: Sendable {
    /// Where the data lives. Default: the SQLite data folder `voicemsg-data` in the working
    /// directory, so that `voicemsg serve` with no flags keeps everything in one place.
    public var store = StoreLocation(dataDirectory: nil, databaseURL: nil)
    /// The address to listen on. Default 0.0.0.0, every interface: the phones that record are
    /// on the LAN, not on this machine.
    public var host = "0.0.0.0"
    /// The port to listen on; 0 picks a free one. Default 8080.
    public var port = 8080
    /// Workers in this process; 0 makes a server that only takes uploads, for `voicemsg
    /// worker` processes elsewhere. Default: one per core, as the pipeline keeps a core busy.
    public var workers = ProcessInfo.processInfo.activeProcessorCount
    /// Limits and policies of the HTTP API.
    public var api = APIConfiguration()
    /// How workers hold, retry and give up on jobs.
    public var queue = QueueConfiguration()
    /// The audio pipeline the workers run. Default: every upload decoded in the isolated child
    /// (`PipelineMessageProcessor.uploadConfiguration`); its longest recording is always
    /// `api.maxRecordingSeconds`, so that the page's countdown and the workers agree.
    public var pipeline = PipelineMessageProcessor.uploadConfiguration
    /// The certificate and key to serve HTTPS with; plain HTTP when nil (the default).
    public var tls: TLSIdentity?
    /// How often the uploads of failed messages past `api.failedOriginalRetention` are looked
    /// for. Default one hour: the retention is counted in days, and a sweep is one query.
    public var retentionSweepInterval: Duration = .seconds(3600)

    public init() {}
}
