import ArgumentParser
import AudioPipeline
import Foundation

/// The server half of voicemsg: the HTTP API and the queue workers. `voicemsg serve` and
/// `voicemsg worker` hand over to this program, so the `voicemsg` that encodes on a laptop
/// carries none of the networking and database code (see `ServerHandOff`).
@main
struct VoicemsgServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: invokedName,
        abstract: "Serve voice-message uploads and process them on a durable queue.",
        discussion: """
            Usually started as `voicemsg serve` or `voicemsg worker`, which run this program \
            with the same arguments.
            """,
        version: VoicemsgVersion.current,
        subcommands: [ServeCommand.self, WorkerCommand.self]
    )

    /// `voicemsg serve` execs this program with argv[0] "voicemsg" (see `ServerHandOff`), so
    /// its usage lines and errors name the command the user typed.
    static var invokedName: String {
        CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } == "voicemsg" ? "voicemsg" : "voicemsg-server"
    }
}
