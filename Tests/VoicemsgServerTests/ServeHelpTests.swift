import Testing

@testable import VoicemsgServer
@testable import voicemsg_server

/// `serve --help` shows each default as the configuration structs have it, and the options
/// start from the same values: the command line reads its defaults from the configuration
/// rather than typing them again, so a default changed there changes the help and the server.
@Suite struct ServeHelpTests {
    /// The default each option should show for `configuration`, by flag.
    static func expectedDefaults(_ configuration: ServerConfiguration) -> [String: String] {
        let api = configuration.api, queue = configuration.queue
        func seconds(_ duration: Duration) -> String {
            let value = duration.inSeconds
            return value == value.rounded() ? "\(Int(value))" : "\(value)"
        }
        return [
            "--port": "\(configuration.port)",
            "--host": configuration.host,
            "--failed-retention-days": "\(api.failedOriginalRetention.inSeconds / 86_400)",
            "--max-upload-bytes": "\(api.maxUploadBytes)",
            "--max-recording-seconds": "\(api.maxRecordingSeconds)",
            "--runs-per-minute": "\(api.runCreationsPerMinute)",
            "--max-queue-depth": "\(api.maxQueueDepth)",
            "--uploads-per-minute-per-token": "\(api.uploadsPerMinutePerToken)",
            "--max-messages-per-run": "\(api.maxMessagesPerRun)",
            "--max-concurrent-uploads": "\(api.maxConcurrentUploads)",
            "--idle-timeout-seconds": seconds(api.idleTimeout),
            "--header-timeout-seconds": seconds(api.headerTimeout),
            "--min-upload-bytes-per-second": "\(api.minimumUploadBytesPerSecond)",
            "--max-attempts": "\(api.maxAttempts)",
            "--lease-seconds": seconds(queue.lease),
            "--retry-base-seconds": seconds(queue.retryBaseDelay),
            "--poll-seconds": seconds(queue.pollInterval),
            "--shutdown-grace-seconds": seconds(queue.shutdownGrace),
            // Not a setting of the server's configuration: the command line's own.
            "--log-level": "info",
        ]
    }

    /// A configuration with every default the help shows changed.
    static var changed: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 9191
        configuration.host = "10.1.2.3"
        configuration.api.failedOriginalRetention = .seconds(3 * 86_400)
        configuration.api.maxUploadBytes = 12_345_678
        configuration.api.maxRecordingSeconds = 321
        configuration.api.runCreationsPerMinute = 7
        configuration.api.maxQueueDepth = 4242
        configuration.api.uploadsPerMinutePerToken = 17
        configuration.api.maxMessagesPerRun = 77
        configuration.api.maxConcurrentUploads = 33
        configuration.api.idleTimeout = .seconds(45)
        configuration.api.headerTimeout = .milliseconds(2500)
        configuration.api.minimumUploadBytesPerSecond = 250
        configuration.api.maxAttempts = 9
        configuration.queue.lease = .seconds(40)
        configuration.queue.retryBaseDelay = .milliseconds(1500)
        configuration.queue.pollInterval = .seconds(3)
        configuration.queue.shutdownGrace = .seconds(25)
        return configuration
    }

    /// `serve --help`, one option a line, with the defaults in force.
    static func help(defaults: ServerConfiguration) -> String {
        ServerDefaults.$configuration.withValue(defaults) {
            VoicemsgServerCommand.helpMessage(for: ServeCommand.self, columns: 10_000)
        }
    }

    /// Every "(default: …)" the help shows, by flag. A long flag has its text on the next line.
    static func shownDefaults(_ help: String) -> [String: String] {
        var shown: [String: String] = [:]
        var flag: Substring?
        for line in help.split(separator: "\n") {
            if let name = line.firstMatch(of: /^  (-[a-z], )?(--[a-z-]+)/)?.2 { flag = name }
            if let flag, let value = line.firstMatch(of: /\(default: (.*)\)$/)?.1 {
                shown[String(flag)] = String(value)
            }
        }
        return shown
    }

    @Test func everyOptionShowsTheConfigurationsDefault() {
        let help = Self.help(defaults: ServerConfiguration())
        #expect(Self.shownDefaults(help) == Self.expectedDefaults(ServerConfiguration()), "\(help)")
    }

    @Test func aChangedDefaultChangesTheHelp() {
        let help = Self.help(defaults: Self.changed)
        #expect(Self.shownDefaults(help) == Self.expectedDefaults(Self.changed), "\(help)")
        #expect(help != Self.help(defaults: ServerConfiguration()))
    }

    @Test func theOptionsStartFromTheConfiguration() throws {
        let changed = Self.changed
        let parsed = try ServerDefaults.$configuration.withValue(changed) {
            try ServeCommand.parse(["--data-dir", "somewhere"]).serverConfiguration()
        }
        #expect(Self.expectedDefaults(parsed) == Self.expectedDefaults(changed))
        #expect(parsed.store == .sqlite(dataDirectory: "somewhere"))
    }

    @Test func theHelpReadsInSections() {
        let help = Self.help(defaults: ServerConfiguration())
        for section in ["LISTENING", "STORAGE", "LIMITS", "TIMEOUTS", "QUEUE"] {
            #expect(help.contains("\(section):"), "no \(section) section:\n\(help)")
        }
    }
}
