import ArgumentParser
import AudioPipeline

@main
struct Voicemsg: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voicemsg",
        abstract: "Process, schedule and serve voice messages for runners.",
        discussion: """
            Friends record short messages and pin each to a distance marker ("5km", "halfway", \
            "finish-1km"). voicemsg turns a recording into a tight, loudness-normalized Opus file \
            tagged with its marker, and decides when each message plays during a run.
            """,
        version: VoicemsgVersion.current,
        subcommands: [
            EncodeCommand.self, InspectCommand.self, ConvertCommand.self, SimulateCommand.self,
            ServeHandOff.self, WorkerHandOff.self,
        ]
    )

    static func main() async {
        ServerHandOff.execIfServerCommand()
        await main(nil)
    }
}
