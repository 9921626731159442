import ArgumentParser
import Foundation
import VoicemsgServer

/// Where `serve` keeps its data, and how long it keeps the uploads of failed messages.
struct StorageOptions: ParsableArguments {
    @Option(help: "SQLite data folder (default: \(StorageOptions.defaultStore)).")
    var dataDir: String?

    @Option(help: "PostgreSQL URL, postgres://user:password@host:port/database. \(DatabaseURL.environmentHelp)")
    var database: String?

    @Option(help: "Days the upload of a failed message is kept before it is deleted.")
    var failedRetentionDays: Double = ServerDefaults.configuration.api.failedOriginalRetention.inSeconds / 86_400

    func validate() throws {
        if dataDir != nil && database != nil {
            throw ValidationError("give either --data-dir or --database, not both")
        }
        guard failedRetentionDays.isFinite, failedRetentionDays >= 0 else {
            throw ValidationError("--failed-retention-days must be 0 or more")
        }
        // Past a million days (2,700 years) it is a typo, and the duration would overflow.
        guard failedRetentionDays < 1_000_000 else {
            throw ValidationError("--failed-retention-days must be under 1000000")
        }
    }

    /// The store: a data folder given on the command line wins over a database URL in the
    /// environment, as any flag wins over the environment.
    func apply(to configuration: inout ServerConfiguration) {
        if let dataDir {
            configuration.store = .sqlite(dataDirectory: dataDir)
        } else if let url = DatabaseURL.resolve(database) {
            configuration.store = .postgres(url: url)
        }
        configuration.api.failedOriginalRetention = .seconds(failedRetentionDays * 86_400)
    }

    /// The default store in words.
    private static var defaultStore: String {
        switch ServerDefaults.configuration.store {
        case .sqlite(let folder): folder.hasPrefix("/") ? folder : "./" + folder
        case .postgres: "none: the default is a PostgreSQL database"
        }
    }
}

/// `--database`, or the environment variable that `ps` does not show: the URL holds the
/// database's password.
enum DatabaseURL {
    static let environmentVariable = "VOICEMSG_DATABASE_URL"
    static let environmentHelp =
        "Default: the environment variable \(environmentVariable), which, unlike the command line, ps does not show."

    /// The URL given on the command line, else the one in the environment (an empty one is none).
    static func resolve(_ option: String?) -> String? {
        option ?? ProcessInfo.processInfo.environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
    }
}
