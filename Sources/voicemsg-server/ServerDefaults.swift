import VoicemsgServer

/// The defaults `serve` and `worker` start from and show in `--help`: the configuration's own,
/// so that the two cannot drift apart. A task-local, so that a test can render the help of other
/// defaults and see it follow them.
enum ServerDefaults {
    @TaskLocal static var configuration = ServerConfiguration()
}
